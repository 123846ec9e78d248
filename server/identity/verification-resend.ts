import type { IncomingMessage, ServerResponse } from 'node:http';
import { isValidEmail, PROFILE_MESSAGES } from '../../src/domain/validation';
import { resendVerificationMail, VERIFICATION_RESENT_MESSAGE } from './account-mail';
import { TOO_MANY_REQUESTS } from './attempt-guards';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { readForm } from './http';
import { tryAgainIn } from './throttle-policy';

/**
 * /verify/resend: a new verification link for whoever lost the first one. It needs no session
 * (the SPA's /notverified page links here after signing the user out), so it asks for the email
 * and answers the same whether or not that address has an account waiting.
 */
export async function handleResendVerification(context: IdentityContext, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const { pages, guards } = context;
  if (req.method === 'GET') {
    const hint = query.get('email') ?? '';
    return sendPage(res, 200, pages.resendVerification({ email: isValidEmail(hint) ? hint : undefined }));
  }
  if (req.method !== 'POST') return sendPage(res, 405, pages.error({ title: 'Not allowed', description: 'This page cannot be used this way.' }));

  const form = await readForm(req);
  const email = (form.get('email') ?? '').trim();
  if (!isValidEmail(email)) return sendPage(res, 400, pages.resendVerification({ email, error: PROFILE_MESSAGES.emailInvalid }));
  const claim = await guards.mailRequest('verify', { email, address: guards.addressOf(req) });
  if (!claim.allowed) {
    const error = `${TOO_MANY_REQUESTS} ${tryAgainIn(claim.retryAfterSeconds)}`;
    return sendPage(res, 429, pages.resendVerification({ email, error }), { 'retry-after': String(claim.retryAfterSeconds) });
  }
  await resendVerificationMail(context, email);
  sendPage(res, 200, pages.resendVerification({ sentMessage: VERIFICATION_RESENT_MESSAGE }));
}
