import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IdentityContext } from './context';
import { consumeOneTimeToken, issueOneTimeToken, peekOneTimeToken } from './one-time-tokens';
import { findIdpUserById, type IdpUser } from './users';

/**
 * "Sign in here without the password", held by one browser (issue 38). A mailed link cannot finish
 * the sign-in it came from (the app's login transaction lives in the tab that began it), so the
 * link's page hands the person to the app, which begins a fresh sign-in; this cookie is how that
 * fresh sign-in knows the browser already proved itself:
 * - sign-up sets it (1 h, the lifetime of the sign-in it replaces): the browser that typed the
 *   password may sign in once the address is verified, wherever the verification link was opened;
 *   it is a credential like a session, so it is short: a verification later than that asks for the
 *   password, as it would on any other device;
 * - a sign-in link and a password reset set it (10 min) in the browser that used them.
 * Only a hash is stored (a one-time token of its own kind); it works once, for the account whose
 * address the sign-in names as its login hint, and only once that address is verified.
 */
const COOKIE = '_idp_continue';
export const AFTER_SIGN_UP_SECONDS = 60 * 60;
export const AFTER_LINK_SECONDS = 10 * 60;

function cookie(context: IdentityContext, value: string, maxAge: number): string {
  const secure = context.issuer.startsWith('https:') ? '; Secure' : '';
  return `${COOKIE}=${value}; Max-Age=${maxAge}; Path=${context.basePath || '/'}; HttpOnly; SameSite=Lax${secure}`;
}

function appendCookie(res: ServerResponse, value: string): void {
  const existing = res.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  res.setHeader('set-cookie', [...list, value]);
}

/**
 * Lets this browser's next sign-in as `userId` skip the password. `userId` undefined sets a cookie
 * that opens nothing: sign-up sets one for an address that already has an account, so both
 * answers look alike (no enumeration) and nobody gains a way into somebody else's account.
 */
export async function allowSignInHere(context: IdentityContext, res: ServerResponse, userId: string | undefined, seconds: number): Promise<void> {
  const value = userId === undefined ? randomBytes(32).toString('base64url') : await issueOneTimeToken(context.db, userId, 'browser-sign-in', null, seconds);
  appendCookie(res, cookie(context, value, seconds));
}

function cookieValue(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return rest.join('=');
  }
  return undefined;
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The account this browser may sign in as without the password, for a sign-in whose login hint is
 * `loginHint`; used up (and the cookie cleared) when found. Nothing for another address, an
 * unverified one, or no hint: a shared browser never signs the next person in as the last.
 */
export async function useSignInHere(context: IdentityContext, req: IncomingMessage, res: ServerResponse, loginHint: string | undefined): Promise<IdpUser | undefined> {
  const value = cookieValue(req);
  if (value === undefined || loginHint === undefined || loginHint.trim() === '') return undefined;
  const peeked = await peekOneTimeToken(context.db, value, 'browser-sign-in');
  const user = peeked === undefined ? undefined : await findIdpUserById(context.db, peeked);
  if (!user?.emailVerified || !sameAddress(user.email, loginHint)) return undefined;
  if ((await consumeOneTimeToken(context.db, value, 'browser-sign-in')) !== user.id) return undefined;
  appendCookie(res, cookie(context, '', 0));
  return user;
}
