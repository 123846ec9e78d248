import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type JsonWebKey } from 'node:crypto';
import { calculateJwkThumbprint, type JSONWebKeySet, type JWK } from 'jose';
import type { Db } from '../db/database';

/**
 * The provider's secrets live in idp_keys and are made once, by whichever process starts first:
 * a key regenerated at each start would invalidate every token and cookie on restart, and two
 * processes with different keys could not share sessions.
 */
export interface ProviderKeys {
  /** private signing keys, newest first (the provider signs with the first) */
  signing: JWK[];
  /** keys for signed cookies, newest first */
  cookies: string[];
}

interface StoredKeys {
  keys: unknown[];
}

export async function loadOrCreateKeys(db: Db): Promise<ProviderKeys> {
  const signing = await loadOrCreate(db, 'signing', async () => ({ keys: [await newSigningKey()] }));
  const cookies = await loadOrCreate(db, 'cookies', () => Promise.resolve({ keys: [randomBytes(32).toString('base64url')] }));
  return {
    signing: signing.keys.filter(isJwk),
    cookies: cookies.keys.filter((key): key is string => typeof key === 'string' && key.length >= 32),
  };
}

async function loadOrCreate(db: Db, kind: string, create: () => Promise<StoredKeys>): Promise<StoredKeys> {
  const existing = await read(db, kind);
  if (existing) return existing;
  const fresh = await create();
  // Another process may have won the race; its keys are the ones everybody must use.
  await db.insertInto('idp_keys').values({ kind, value: JSON.stringify(fresh) }).onConflict((oc) => oc.column('kind').doNothing()).execute();
  const stored = await read(db, kind);
  if (!stored) throw new Error(`identity keys '${kind}' could not be stored`);
  return stored;
}

async function read(db: Db, kind: string): Promise<StoredKeys | undefined> {
  const row = await db.selectFrom('idp_keys').select('value').where('kind', '=', kind).executeTakeFirst();
  const keys = row?.value.keys;
  return Array.isArray(keys) && keys.length > 0 ? { keys } : undefined;
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(jwk);
  return { ...jwk, kid, alg: 'RS256', use: 'sig' };
}

/** The public half of each signing key: what /.well-known/jwks.json publishes and the API verifies with. */
export function publicJwks(keys: ProviderKeys): JSONWebKeySet {
  return {
    keys: keys.signing.map((jwk) => {
      const exported = createPublicKey(createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' })).export({ format: 'jwk' }) as JWK;
      const described: JWK = { ...exported };
      if (jwk.kid !== undefined) described.kid = jwk.kid;
      if (jwk.alg !== undefined) described.alg = jwk.alg;
      if (jwk.use !== undefined) described.use = jwk.use;
      return described;
    }),
  };
}

function isJwk(value: unknown): value is JWK {
  return typeof value === 'object' && value !== null && typeof (value as JWK).kty === 'string' && typeof (value as JWK).kid === 'string';
}
