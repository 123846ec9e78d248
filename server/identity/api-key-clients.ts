import type { AdapterPayload } from 'oidc-provider';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { hashSecret } from '../security/secrets';

/**
 * Personal API keys are OAuth clients of the client-credentials grant. Their secrets are stored as
 * SHA-256 hashes (server/security/secrets.ts) while oidc-provider compares the presented secret
 * with the registered one as plain strings. So the client is registered with the hash as its
 * secret, and every secret presented at the token endpoints is hashed before the provider sees
 * it (`hashPresentedSecrets`): the provider then compares hash with hash. All confidential
 * clients of this provider are API keys; the SPA is public and presents no secret.
 */
export async function findApiKeyClient(db: Db, clientId: string): Promise<AdapterPayload | undefined> {
  const row = await db.selectFrom('api_keys').select(['client_id', 'secret_hash']).where('client_id', '=', clientId).executeTakeFirst();
  if (!row) return undefined;
  return {
    client_id: row.client_id,
    client_secret: row.secret_hash,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  };
}

interface ApiKeyOwner {
  email: string;
  emailVerified: boolean;
}

/** The key owner's email, for the claims of a client-credentials token. */
export async function findApiKeyOwner(db: Db, clientId: string): Promise<ApiKeyOwner | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('profiles', 'profiles.id', 'api_keys.profile_id')
    .leftJoin('idp_users', (join) => join.on(sql<string>`'auth0|' || idp_users.id`, '=', sql<string>`profiles.id`))
    .select(['profiles.email as email', 'idp_users.email_verified as email_verified'])
    .where('api_keys.client_id', '=', clientId)
    .executeTakeFirst();
  return row ? { email: row.email, emailVerified: row.email_verified === true } : undefined;
}

/**
 * Rewrites a token-endpoint form body: a `client_secret` is replaced by its hash, and Auth0's
 * `audience` parameter becomes the `resource` indicator oidc-provider understands.
 * Returns undefined when nothing needed changing.
 */
export function rewriteTokenForm(body: string): string | undefined {
  const form = new URLSearchParams(body);
  let changed = false;
  const secret = form.get('client_secret');
  if (secret !== null && form.getAll('client_secret').length === 1 && secret !== '') {
    form.set('client_secret', hashSecret(secret));
    changed = true;
  }
  const audience = form.get('audience');
  if (audience !== null && !form.has('resource') && form.get('grant_type') === 'client_credentials') {
    form.delete('audience');
    form.set('resource', audience);
    changed = true;
  }
  return changed ? form.toString() : undefined;
}

/**
 * Replaces the secret inside an HTTP Basic `Authorization` header by its hash (RFC 6749 §2.3.1:
 * both halves are form-encoded before base64). Undefined when the header is not one to rewrite;
 * a malformed header is left for the provider to reject.
 */
export function rewriteBasicAuthorization(header: string): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  let secret: string;
  try {
    secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, '%20'));
  } catch {
    return undefined;
  }
  if (secret === '') return undefined;
  const rebuilt = `${decoded.slice(0, colon)}:${hashSecret(secret)}`;
  return `Basic ${Buffer.from(rebuilt, 'utf8').toString('base64')}`;
}
