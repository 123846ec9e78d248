import type { AuthUser } from './authState';

// A signed-in visitor's next page starts from what the last page left: the session cookie (the
// API token, spec 000 §9) and the user it was issued to. While that token is good, the page calls
// the API with it and the identity SDK, the largest library of the app (Auth0Session), is not
// loaded at all; it loads when the token nears its end, or to sign in or out (issue 39: a member's
// first page). The server checks every token as before: nothing here grants anything.

/** A token this close to its end is left to the SDK, which refreshes it. */
export const RESUME_MARGIN_MS = 60_000;

export interface ResumedSession {
  token: string;
  /** the token's `exp`, in ms */
  expiresAt: number;
  user: AuthUser;
}

/** The value of cookie `name` in a `document.cookie` string, decoded; undefined when absent or empty. */
export function cookieValue(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      const value = decodeURIComponent(part.slice(eq + 1).trim());
      return value === '' ? undefined : value;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A JWT's payload, unverified (the server verifies); undefined for anything that is not one. */
export function jwtPayload(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[1] ?? '')) return undefined;
  try {
    const base64 = parts[1]!.replace(/-/g, '+').replace(/_/g, '/');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0)));
    const payload: unknown = JSON.parse(json);
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The remembered user, when the stored text is one (every field of the right type). */
export function storedUser(text: string | null): AuthUser | undefined {
  if (text === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { sub, name, email, email_verified } = value as Record<string, unknown>;
  if (typeof sub !== 'string' || sub === '' || typeof name !== 'string' || typeof email !== 'string' || typeof email_verified !== 'boolean') return undefined;
  return { sub, name, email, email_verified };
}

/**
 * The session this page may resume without the SDK: the cookie's token, issued to the remembered
 * user (same `sub`), good for more than RESUME_MARGIN_MS. Anything else, the SDK decides.
 */
export function resumableSession(token: string | undefined, user: AuthUser | undefined, now: number): ResumedSession | undefined {
  if (token === undefined || user === undefined) return undefined;
  const payload = jwtPayload(token);
  if (payload === undefined || payload.sub !== user.sub || typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) return undefined;
  const expiresAt = payload.exp * 1000;
  return stillGood(expiresAt, now) ? { token, expiresAt, user } : undefined;
}

export function stillGood(expiresAt: number, now: number): boolean {
  return expiresAt - now > RESUME_MARGIN_MS;
}
