import { hash } from 'node:crypto';

/** What a successful verification proved, and until when the token itself says it holds. */
export interface Verified<T> {
  value: T;
  /** the token's `exp` in epoch milliseconds; undefined when it has none */
  expiresAt: number | undefined;
}

export interface TokenCacheOptions {
  /** entries kept at most; the least recently used one goes first */
  maxEntries?: number;
  /** no entry outlives this many milliseconds, whatever the token's own expiry */
  maxAgeMs?: number;
  now?: () => number;
}

const TOKEN_CACHE_DEFAULTS = { maxEntries: 10_000, maxAgeMs: 60_000 } as const;

interface Entry<T> {
  result: Promise<T>;
  /** epoch ms after which the entry is verified afresh */
  validUntil: number;
}

/**
 * Remembers what verifying a token proved, so that the signature check (RSA, about a quarter of a
 * cached request's cost) runs once per token rather than once per request.
 *
 * It holds facts that stay true in any process: a signature, once valid, stays valid, and the
 * claims are the token's own. An entry is dropped at the token's expiry (never later) or after a
 * short cap, whichever comes first; the cap bounds how long a key withdrawn from the issuer's key
 * set keeps its tokens alive here. Failures are not remembered: a forged or expired token is
 * checked (and rejected) every time. Revocation-sensitive facts (the API key still exists, the
 * caller is still a member) are not the verifier's business and are read from the database on
 * every request.
 *
 * Keys are SHA-256 digests of the token: the memory held per entry is bounded and a heap dump does
 * not reveal bearer tokens. Concurrent requests with the same new token share one verification.
 */
export function cachedVerification<T>(verify: (token: string) => Promise<Verified<T>>, options: TokenCacheOptions = {}): (token: string) => Promise<T> {
  const maxEntries = Math.max(1, options.maxEntries ?? TOKEN_CACHE_DEFAULTS.maxEntries);
  const maxAgeMs = options.maxAgeMs ?? TOKEN_CACHE_DEFAULTS.maxAgeMs;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order; re-inserting on every hit makes its first key the least recently used.
  const entries = new Map<string, Entry<T>>();

  // the key inserted last: a hit on it is already in place (a client making many requests with
  // one token would otherwise delete and re-insert its entry on each, reallocating a small Map)
  let newest: string | undefined;

  const forget = (key: string, entry: Entry<T>) => {
    if (entries.get(key) === entry) entries.delete(key);
  };

  return (token) => {
    // one-shot digest: no Hash object per request
    const key = hash('sha256', token, 'base64url');
    const at = now();
    const hit = entries.get(key);
    if (hit) {
      if (at < hit.validUntil) {
        if (key !== newest) {
          entries.delete(key);
          entries.set(key, hit);
          newest = key;
        }
        return hit.result;
      }
      entries.delete(key);
    }

    // The callbacks run after `entry` below exists: a promise never settles synchronously.
    const result = verify(token).then(
      ({ value, expiresAt }) => {
        entry.validUntil = Math.min(entry.validUntil, expiresAt ?? Number.POSITIVE_INFINITY);
        if (now() >= entry.validUntil) forget(key, entry);
        return value;
      },
      (error: unknown) => {
        forget(key, entry);
        throw error;
      },
    );
    const entry: Entry<T> = { result, validUntil: at + maxAgeMs };
    entries.set(key, entry);
    newest = key;
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    return entry.result;
  };
}
