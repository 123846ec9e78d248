import type { IncomingMessage, ServerResponse } from 'node:http';
import { appSignInLink } from '../../src/domain/emailLinks';
import { isValidEmail } from '../../src/domain/validation';
import { revokeAccountState } from './adapter';
import { RESET_REQUESTED_MESSAGE, requestPasswordReset } from './account-mail';
import { TOO_MANY_REQUESTS } from './attempt-guards';
import { AFTER_LINK_SECONDS, allowSignInHere } from './browser-sign-in';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { readFields, readForm, redirect, sendJson, sendText } from './http';
import { consumeOneTimeToken, peekOneTimeToken, retireOneTimeTokens } from './one-time-tokens';
import { passwordProblem } from './password-policy';
import { tryAgainIn } from './throttle-policy';
import { findIdpUserById, markEmailVerified, setPassword, subjectOf } from './users';

/**
 * Auth0's POST /dbconnections/change_password {client_id, email, connection}: the SPA's
 * change-password page calls it from the browser, hence CORS for the app's origin. The answer is
 * the same whether or not the address has an account.
 */
export async function handleChangePasswordRequest(context: IdentityContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const cors = corsHeaders(context, req);
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...cors, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type, auth0-client', 'access-control-max-age': '3600' });
    res.end();
    return;
  }
  if (req.method !== 'POST') return sendJson(res, 405, { error: 'method_not_allowed' }, { ...cors, allow: 'POST, OPTIONS' });
  const fields = await readFields(req);
  if (fields.client_id !== undefined && fields.client_id !== context.config.auth.clientId) {
    return sendJson(res, 400, { error: 'invalid_request', error_description: 'unknown client_id' }, cors);
  }
  const email = (fields.email ?? '').trim();
  if (!isValidEmail(email)) return sendJson(res, 400, { error: 'invalid_request', error_description: 'email is required' }, cors);
  const claim = await context.guards.mailRequest('reset', { email, address: context.guards.addressOf(req) });
  if (!claim.allowed) {
    const description = `${TOO_MANY_REQUESTS} ${tryAgainIn(claim.retryAfterSeconds)}`;
    return sendJson(res, 429, { error: 'too_many_requests', error_description: description }, { ...cors, 'retry-after': String(claim.retryAfterSeconds) });
  }
  await requestPasswordReset(context, email);
  sendText(res, 200, RESET_REQUESTED_MESSAGE, cors);
}

function corsHeaders(context: IdentityContext, req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  const appOrigin = new URL(context.config.publicUrl).origin;
  return origin === appOrigin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : { vary: 'Origin' };
}

/**
 * The page a reset mail links to: GET shows the form (mail scanners may fetch it), POST uses the
 * token and hands the person to the app, signed in by its fresh sign-in (see below).
 */
export async function handleResetPassword(context: IdentityContext, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const { db, pages } = context;
  if (req.method === 'GET') {
    const token = query.get('token') ?? '';
    const userId = await peekOneTimeToken(db, token, 'reset-password');
    return userId ? sendPage(res, 200, pages.resetPasswordForm({ token })) : sendPage(res, 400, pages.invalidLink('password reset'));
  }
  if (req.method !== 'POST') return sendPage(res, 405, pages.error({ title: 'Not allowed', description: 'This page cannot be used this way.' }));

  const form = await readForm(req);
  const token = form.get('token') ?? '';
  const password = form.get('password') ?? '';
  const error = await passwordProblem(password);
  if (error) {
    const valid = await peekOneTimeToken(db, token, 'reset-password');
    return valid ? sendPage(res, 400, pages.resetPasswordForm({ token, error })) : sendPage(res, 400, pages.invalidLink('password reset'));
  }
  const userId = await consumeOneTimeToken(db, token, 'reset-password');
  if (!userId) return sendPage(res, 400, pages.invalidLink('password reset'));
  await setPassword(db, userId, password);
  // Opening the mailed link proves the address belongs to the user.
  await markEmailVerified(db, userId);
  await retireOneTimeTokens(db, userId, 'reset-password');
  // Whoever opened the mailed link owns the mailbox: a lockout earned by someone else's guesses ends.
  const user = await findIdpUserById(db, userId);
  if (user) await context.guards.accountRecovered(user.email, context.guards.addressOf(req));
  // Whoever knew the old password is signed out everywhere (access tokens still run out within the hour).
  await revokeAccountState(db, subjectOf(userId));
  context.logger.info({ sub: subjectOf(userId) }, 'password reset');
  if (!user) return sendPage(res, 400, pages.invalidLink('password reset'));
  // This browser has just chosen the password: its fresh sign-in from the app needs none (issue 38);
  // should the cookie not come back, the sign-in form says "Password changed" with the address filled in.
  await allowSignInHere(context, res, user.id, AFTER_LINK_SECONDS);
  redirect(res, appSignInLink(context.config.publicUrl, user.email, 'password_changed'));
}
