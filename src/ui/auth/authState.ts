import type { EmailLinkNotice } from '../../domain/emailLinks';

// What the identity bridge (AuthBridge) and the SDK behind it (Auth0Session) share.

export interface AuthUser {
  sub: string;
  name: string;
  email: string;
  email_verified: boolean;
}

export interface AuthSnapshot {
  isLoading: boolean;
  isAuthenticated: boolean;
  user: AuthUser | undefined;
  error: Error | undefined;
}

export interface AuthPort {
  getToken(options?: { cacheMode?: 'on' | 'off' }): Promise<string>;
  /** `notice` and `invitation`: what the mailed link the visitor came by did (src/domain/emailLinks.ts). */
  login(options: { returnTo: string; loginHint?: string | undefined; screen?: 'signup'; notice?: EmailLinkNotice | undefined; invitation?: string | undefined }): Promise<void>;
  logout(returnTo: string): Promise<void>;
}

/** What the SDK reports to the bridge: its state as a plain snapshot and its effects as a port. */
export interface SdkSession {
  snapshot: AuthSnapshot;
  port: AuthPort;
}

export const SESSION_COOKIE = 'session_token';
/** localStorage: the user the session cookie's token was issued to (./sessionResume). */
export const SESSION_USER_KEY = 'session_user';

/** Remembers who the session cookie's token belongs to, for the next page to resume without the SDK. */
export function rememberSessionUser(user: AuthUser) {
  try {
    window.localStorage.setItem(SESSION_USER_KEY, JSON.stringify(user));
  } catch {
    // storage refused: the next page loads the SDK, as before
  }
}

/** Ends what the next page could resume: the session cookie and the user remembered beside it. */
export function clearSessionCookie() {
  document.cookie = `${SESSION_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict; Secure`;
  try {
    window.localStorage.removeItem(SESSION_USER_KEY);
  } catch {
    // storage refused: nothing was remembered
  }
}
