import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database';

/** Links sent by mail (verify email, reset password). Only a hash is stored: a leaked table opens nothing. */
export type OneTimeTokenKind = 'verify-email' | 'reset-password';

export const ONE_TIME_TOKEN_TTL_SECONDS = 24 * 60 * 60;

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export async function issueOneTimeToken(db: Db, userId: string, kind: OneTimeTokenKind): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('idp_tokens')
    .values({
      token_hash: hashToken(token),
      kind,
      user_id: userId,
      expires_at: sql<Date>`now() + make_interval(secs => ${ONE_TIME_TOKEN_TTL_SECONDS})`,
    })
    .execute();
  return token;
}

/** The user the token belongs to, if it is of this kind, unused and unexpired; nothing is changed. */
export function peekOneTimeToken(db: Db, token: string, kind: OneTimeTokenKind): Promise<string | undefined> {
  return tokenOwner(db, token, kind, { unusedOnly: true });
}

/** The user of a token of this kind that has not expired, used or not. */
export function ownerOfOneTimeToken(db: Db, token: string, kind: OneTimeTokenKind): Promise<string | undefined> {
  return tokenOwner(db, token, kind, { unusedOnly: false });
}

async function tokenOwner(db: Db, token: string, kind: OneTimeTokenKind, { unusedOnly }: { unusedOnly: boolean }): Promise<string | undefined> {
  if (!isTokenShaped(token)) return undefined;
  let query = db
    .selectFrom('idp_tokens')
    .select('user_id')
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('expires_at', '>', sql<Date>`now()`);
  if (unusedOnly) query = query.where('used_at', 'is', null);
  return (await query.executeTakeFirst())?.user_id;
}

/** Marks the token used and returns its user, in one statement so two clicks cannot both succeed. */
export async function consumeOneTimeToken(db: Db, token: string, kind: OneTimeTokenKind): Promise<string | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const row = await db
    .updateTable('idp_tokens')
    .set({ used_at: sql<Date>`now()` })
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Every outstanding link of that kind stops working: after a password change, or when a newer verification link is mailed. */
export async function retireOneTimeTokens(db: Db, userId: string, kind: OneTimeTokenKind): Promise<void> {
  await db.updateTable('idp_tokens').set({ used_at: sql<Date>`now()` }).where('user_id', '=', userId).where('kind', '=', kind).where('used_at', 'is', null).execute();
}

/** True when a token of this kind was issued to the user within the last `seconds`: used to throttle mail. */
export async function issuedRecently(db: Db, userId: string, kind: OneTimeTokenKind, seconds: number): Promise<boolean> {
  const row = await db
    .selectFrom('idp_tokens')
    .select('token_hash')
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('expires_at', '>', sql<Date>`now() + make_interval(secs => ${ONE_TIME_TOKEN_TTL_SECONDS - seconds})`)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteStaleOneTimeTokens(db: Db): Promise<void> {
  await db.deleteFrom('idp_tokens').where('expires_at', '<', sql<Date>`now() - interval '7 days'`).execute();
}

const isTokenShaped = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);
