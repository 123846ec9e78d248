import { createHmac, timingSafeEqual } from 'node:crypto';

// GitHub signs each webhook delivery with the secret the repository's webhook was given:
// `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`. Here that secret is the
// workspace's deployment secret (spec 001 §7), so only someone holding it can start a deployment.

const PREFIX = 'sha256=';

/** The header value GitHub sends for `body` signed with `secret`. */
export function githubSignature(secret: string, body: Uint8Array): string {
  return PREFIX + createHmac('sha256', secret).update(body).digest('hex');
}

/** Whether `header` is the signature of `body` under `secret`, compared in constant time; never without a secret. */
export function verifyGithubSignature(secret: string | null | undefined, body: Uint8Array, header: string | string[] | undefined): boolean {
  if (!secret || typeof header !== 'string' || !header.startsWith(PREFIX)) return false;
  const expected = Buffer.from(githubSignature(secret, body));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The branch a push event's `ref` names ('refs/heads/main' → 'main'); undefined for tags and anything else. */
export function pushedBranch(ref: unknown): string | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('refs/heads/')) return undefined;
  const branch = ref.slice('refs/heads/'.length);
  return branch === '' ? undefined : branch;
}
