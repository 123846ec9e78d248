import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { AuthConfig } from '../config';
import { unauthorized } from './errors';
import { cachedVerification, type TokenCacheOptions, type Verified } from './token-cache';

/** Who is calling, as proven by a verified access token. */
export interface Principal {
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
  /** set for client-credentials tokens (API keys): the OAuth client that obtained the token */
  clientId: string | undefined;
  kind: 'user' | 'client';
  /** the token's `iat`, in epoch seconds: a token issued before the account's credentials changed is refused (policy/caller.ts) */
  issuedAt: number | undefined;
}

export type TokenVerifier = (token: string) => Promise<Principal>;

/**
 * Verifies a bearer token against the issuer's JWKS: the embedded provider's key set in process,
 * or the external provider's published set (AUTH_DOMAIN). A verified token is remembered until it
 * expires (at most a minute, see token-cache.ts), so a client's requests pay for the signature once.
 */
export function createTokenVerifier(auth: AuthConfig, localJwks?: () => Promise<JSONWebKeySet>, cache: TokenCacheOptions = {}): TokenVerifier {
  return cachedVerification(jwtVerifier(auth, localJwks), cache);
}

function jwtVerifier(auth: AuthConfig, localJwks?: () => Promise<JSONWebKeySet>): (token: string) => Promise<Verified<Principal>> {
  // The embedded key set is imported once, not per request; the remote set caches itself.
  let local: Promise<ReturnType<typeof createLocalJWKSet>> | undefined;
  const keys = auth.embedded && localJwks
    ? async (...args: Parameters<ReturnType<typeof createLocalJWKSet>>) => {
        local ??= localJwks().then((set) => createLocalJWKSet(set));
        return (await local)(...args);
      }
    : createRemoteJWKSet(new URL(`${auth.domain}/.well-known/jwks.json`));

  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, { issuer: auth.issuer, audience: auth.audience, algorithms: ['RS256', 'PS256', 'ES256'] }));
    } catch {
      throw unauthorized('Invalid or expired access token');
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') throw unauthorized('Token has no subject');
    const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : undefined;
    // RFC 9068: a client-credentials token's subject is the client itself.
    const kind = clientId !== undefined && payload.sub === clientId ? 'client' : 'user';
    // Frozen: one principal object serves every request that presents the same token.
    const principal: Principal = Object.freeze({
      subject: payload.sub,
      email: typeof payload.email === 'string' ? payload.email : undefined,
      emailVerified: payload.email_verified === true,
      name: typeof payload.name === 'string' ? payload.name : undefined,
      clientId: kind === 'client' ? clientId : undefined,
      kind,
      issuedAt: typeof payload.iat === 'number' ? payload.iat : undefined,
    });
    return { value: principal, expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : undefined };
  };
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
