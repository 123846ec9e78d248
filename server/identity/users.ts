import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords';

/**
 * The spec makes the email editable only for user ids starting with 'auth0' (Auth0's database
 * connection), so our users carry the same prefix: the SPA treats them exactly like Auth0's.
 */
const SUBJECT_PREFIX = 'auth0|';

export interface IdpUser {
  id: string;
  subject: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

interface NewIdpUser {
  email: string;
  name: string;
  password: string;
  emailVerified: boolean;
}

export const subjectOf = (id: string) => `${SUBJECT_PREFIX}${id}`;

export function idOfSubject(subject: string): string | undefined {
  return subject.startsWith(SUBJECT_PREFIX) ? subject.slice(SUBJECT_PREFIX.length) : undefined;
}

const normalizeEmail = (email: string) => email.trim();

interface UserRow {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
}

const toUser = (row: UserRow): IdpUser => ({
  id: row.id,
  subject: subjectOf(row.id),
  email: row.email,
  name: row.name,
  emailVerified: row.email_verified,
});

/**
 * Idempotent by email (case-insensitive): a second call returns the first user unchanged. The
 * password is hashed before the address is looked up, so a sign-up takes as long whether or not
 * the address has an account (sign-up.ts).
 */
export async function createIdpUser(db: Db, input: NewIdpUser): Promise<{ id: string; subject: string; created: boolean }> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const existing = await findIdpUserByEmail(db, email);
  if (existing) return { id: existing.id, subject: existing.subject, created: false };
  const id = randomUUID();
  const inserted = await db
    .insertInto('idp_users')
    .values({ id, email, name: input.name.trim(), password_hash: passwordHash, email_verified: input.emailVerified })
    // Two concurrent sign-ups with one address: the unique index decides, the loser reads the winner.
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id, subject: subjectOf(id), created: true };
  const winner = await findIdpUserByEmail(db, email);
  if (!winner) throw new Error('idp user vanished during creation');
  return { id: winner.id, subject: winner.subject, created: false };
}

export async function findIdpUserByEmail(db: Db, email: string): Promise<IdpUser | undefined> {
  const row = await db
    .selectFrom('idp_users')
    .select(['id', 'email', 'name', 'email_verified'])
    .where(sql<string>`lower(email)`, '=', normalizeEmail(email).toLowerCase())
    .executeTakeFirst();
  return row && toUser(row);
}

export async function findIdpUserById(db: Db, id: string): Promise<IdpUser | undefined> {
  const row = await db.selectFrom('idp_users').select(['id', 'email', 'name', 'email_verified']).where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

export async function findIdpUserBySubject(db: Db, subject: string): Promise<IdpUser | undefined> {
  const id = idOfSubject(subject);
  return id === undefined ? undefined : findIdpUserById(db, id);
}

/** The user when the password matches; the same time is spent whether or not the email exists. */
export async function authenticate(db: Db, email: string, password: string): Promise<IdpUser | undefined> {
  const row = await db
    .selectFrom('idp_users')
    .select(['id', 'email', 'name', 'email_verified', 'password_hash'])
    .where(sql<string>`lower(email)`, '=', normalizeEmail(email).toLowerCase())
    .executeTakeFirst();
  if (!row) {
    await verifyAgainstDecoy(password);
    return undefined;
  }
  return (await verifyPassword(password, row.password_hash)) ? toUser(row) : undefined;
}

/** A new password is a change of credentials: access tokens issued before it stop working (recordCredentialChange). */
export async function setPassword(db: Db, id: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('idp_users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
    await recordCredentialChange(trx, id);
  });
}

/**
 * Stamps the account's credential change on the user and on its profile (if it has one yet), in
 * the caller's transaction: the API refuses any access token issued before it (issue 36,
 * server/policy/caller.ts). The clock is this process's, as is the one that stamps a token's `iat`.
 */
export async function recordCredentialChange(db: Db, id: string, at: Date = new Date()): Promise<void> {
  await db.updateTable('idp_users').set({ credentials_changed_at: at }).where('id', '=', id).execute();
  await db.updateTable('profiles').set({ credentials_changed_at: at }).where('id', '=', subjectOf(id)).execute();
}

export async function markEmailVerified(db: Db, id: string): Promise<void> {
  await db.updateTable('idp_users').set({ email_verified: true }).where('id', '=', id).execute();
}
