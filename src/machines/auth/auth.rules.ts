import { withoutCallbackParams, withoutEmailLinkParams } from '../../domain/emailLinks';
import { MESSAGES } from '../../domain/errors';

// Pure rules the auth machine's guards use (spec 000 sections 2.1, 5 and 8).

/** The user as the identity provider's ID token describes it. */
export type AuthUser = {
  readonly sub: string;
  readonly name?: string | undefined;
  readonly email?: string | undefined;
  readonly email_verified?: boolean | undefined;
};

/** What the auth bridge reports when the identity SDK fails (its `error` code and description). */
export type AuthFailure = { readonly code?: string | undefined; readonly message?: string | undefined };

const SIGN_IN_AGAIN = new Set(['login_required', 'consent_required']);

/** Signed in means the SDK says so and gave us a subject to log in as. */
export function isSignedIn(isAuthenticated: boolean, user: AuthUser | undefined): user is AuthUser {
  return isAuthenticated && user !== undefined && typeof user.sub === 'string' && user.sub !== '';
}

/**
 * Only an explicit `email_verified: false` blocks: some social providers send no claim at all, and
 * the provider itself refuses unverified sign-ins with the verify-email error (see below).
 */
export function isEmailUnverified(user: AuthUser): boolean {
  return user.email_verified === false;
}

export function failureNeedsSignIn(failure: AuthFailure): boolean {
  return failure.code !== undefined && SIGN_IN_AGAIN.has(failure.code);
}

/** The provider refuses an unverified address with the spec's own sentence. */
export function failureIsUnverifiedEmail(failure: AuthFailure): boolean {
  return failure.message?.trim() === MESSAGES.verifyEmail;
}

export function authFailureMessage(failure: AuthFailure): string {
  const text = failure.message?.trim();
  return text === undefined || text === '' ? MESSAGES.unexpected : text;
}

/**
 * What the SDK says of a provider's answer this tab cannot use: no login transaction in this tab's
 * storage (the link was opened in another tab), a state that is not the one sent, or a code that
 * was used or ran out (the address was opened again). Each is cured by a fresh sign-in.
 */
const STALE_ANSWER = new Set(['missing_transaction', 'state_mismatch', 'invalid_state', 'invalid_grant']);

export function failureIsStaleAnswer(failure: AuthFailure): boolean {
  return failure.code !== undefined && STALE_ANSWER.has(failure.code);
}

/**
 * Where to go once signed in: the URL asked for, without the provider's answer and, when the visitor
 * came by a mailed link, without the link's own parameters (they have done their work).
 */
export function returnTarget(url: string, arrivedByEmailLink: boolean): string {
  const target = withoutCallbackParams(url);
  return arrivedByEmailLink ? withoutEmailLinkParams(target) : target;
}
