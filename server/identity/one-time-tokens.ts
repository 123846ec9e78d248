import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database';

/**
 * Links sent by mail (verify email, reset password, sign in, confirm a new address). Only a hash
 * is stored: a leaked table opens nothing.
 */
type OneTimeTokenKind = 'verify-email' | 'reset-password' | 'sign-in-link' | 'change-email' | 'browser-sign-in';

const ONE_TIME_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** A sign-in link skips the password: it is short-lived. */
export const SIGN_IN_LINK_TTL_SECONDS = 15 * 60;
const ttlOf = (kind: OneTimeTokenKind) => (kind === 'sign-in-link' ? SIGN_IN_LINK_TTL_SECONDS : ONE_TIME_TOKEN_TTL_SECONDS);

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** `newEmail`: for 'change-email', the address the link confirms; `seconds`: a lifetime other than the kind's. */
export async function issueOneTimeToken(db: Db, userId: string, kind: OneTimeTokenKind, newEmail: string | null = null, seconds = ttlOf(kind)): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('idp_tokens')
    .values({
      token_hash: hashToken(token),
      kind,
      user_id: userId,
      expires_at: sql<Date>`now() + make_interval(secs => ${seconds})`,
      new_email: newEmail,
    })
    .execute();
  return token;
}

/** The user the token belongs to, if it is of this kind, unused and unexpired; nothing is changed. */
export async function peekOneTimeToken(db: Db, token: string, kind: OneTimeTokenKind): Promise<string | undefined> {
  return (await tokenRow(db, token, kind, { unusedOnly: true }))?.userId;
}

/** peekOneTimeToken, with the address a 'change-email' token carries. */
export function peekOneTimeTokenRow(db: Db, token: string, kind: OneTimeTokenKind): Promise<TokenRow | undefined> {
  return tokenRow(db, token, kind, { unusedOnly: true });
}

/** The user of a token of this kind that has not expired, used or not. */
export async function ownerOfOneTimeToken(db: Db, token: string, kind: OneTimeTokenKind): Promise<string | undefined> {
  return (await tokenRow(db, token, kind, { unusedOnly: false }))?.userId;
}

interface TokenRow {
  userId: string;
  newEmail: string | null;
}

async function tokenRow(db: Db, token: string, kind: OneTimeTokenKind, { unusedOnly }: { unusedOnly: boolean }): Promise<TokenRow | undefined> {
  if (!isTokenShaped(token)) return undefined;
  let query = db
    .selectFrom('idp_tokens')
    .select(['user_id', 'new_email'])
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('expires_at', '>', sql<Date>`now()`);
  if (unusedOnly) query = query.where('used_at', 'is', null);
  const row = await query.executeTakeFirst();
  return row && { userId: row.user_id, newEmail: row.new_email };
}

/** Marks the token used and returns its user, in one statement so two clicks cannot both succeed. */
export async function consumeOneTimeToken(db: Db, token: string, kind: OneTimeTokenKind): Promise<string | undefined> {
  return (await consumeOneTimeTokenRow(db, token, kind))?.userId;
}

/** consumeOneTimeToken, with the address a 'change-email' token carries. */
export async function consumeOneTimeTokenRow(db: Db, token: string, kind: OneTimeTokenKind): Promise<TokenRow | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const row = await db
    .updateTable('idp_tokens')
    .set({ used_at: sql<Date>`now()` })
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['user_id', 'new_email'])
    .executeTakeFirst();
  return row && { userId: row.user_id, newEmail: row.new_email };
}

/** The address of the newest unused, unexpired 'change-email' link of the user: the change still waiting. */
export async function pendingNewEmail(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('idp_tokens')
    .select('new_email')
    .where('user_id', '=', userId)
    .where('kind', '=', 'change-email')
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('expires_at', 'desc')
    .executeTakeFirst();
  return row?.new_email ?? undefined;
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
    .where('expires_at', '>', sql<Date>`now() + make_interval(secs => ${ttlOf(kind) - seconds})`)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteStaleOneTimeTokens(db: Db): Promise<void> {
  await db.deleteFrom('idp_tokens').where('expires_at', '<', sql<Date>`now() - interval '7 days'`).execute();
}

const isTokenShaped = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);
