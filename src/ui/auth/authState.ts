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

export function clearSessionCookie() {
  document.cookie = `${SESSION_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict; Secure`;
}
