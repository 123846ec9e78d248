import type { IncomingMessage, ServerResponse } from 'node:http';
import { appSignInLink } from '../../src/domain/emailLinks';
import type { IdentityContext } from './context';
import { redirect } from './http';
import { sendPage } from './html';
import { consumeOneTimeToken, ownerOfOneTimeToken } from './one-time-tokens';
import { findIdpUserById, markEmailVerified } from './users';

/**
 * The link of the verification mail (GET: it is opened from a mail client). It verifies the
 * address and hands the person to the app, which begins a fresh sign-in saying "Email verified"
 * with the address filled in (issue 38): a link cannot finish the sign-in it came from, whose
 * login transaction lives in the tab that began it. In the browser that signed up, that sign-in
 * needs no password (browser-sign-in.ts); anywhere else (a phone, a mail scanner, a forwarded
 * mail) the password is asked for. Opening it again, or after a scanner, still verifies nothing
 * new and ends at the same sign-in; links mailed with an `interaction` parameter ignore it.
 */
export async function handleVerifyEmail(context: IdentityContext, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const { db, pages } = context;
  if (req.method !== 'GET') return sendPage(res, 405, pages.error({ title: 'Not allowed', description: 'This page cannot be used this way.' }));
  const token = query.get('token') ?? '';
  const consumedBy = await consumeOneTimeToken(db, token, 'verify-email');
  if (consumedBy) {
    await markEmailVerified(db, consumedBy);
    context.logger.info({ userId: consumedBy }, 'email verified');
  }
  const userId = consumedBy ?? (await ownerOfOneTimeToken(db, token, 'verify-email'));
  const user = userId ? await findIdpUserById(db, userId) : undefined;
  if (!user?.emailVerified) return sendPage(res, 400, pages.invalidLink('verification'));
  redirect(res, appSignInLink(context.config.publicUrl, user.email, 'email_verified'));
}
