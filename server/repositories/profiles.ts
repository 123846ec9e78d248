import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { ProfilesTable } from '../db/schema';

export type ProfileRow = Selectable<ProfilesTable>;

export function findProfile(db: Db, id: string): Promise<ProfileRow | undefined> {
  return db.selectFrom('profiles').selectAll().where('id', '=', id).executeTakeFirst();
}

interface NewProfile {
  id: string;
  name: string;
  email: string;
  canCreateWorkspaces: boolean;
}

// the embedded identity provider's subjects: 'auth0|' and its user's id (server/identity/users.ts)
const EMBEDDED_SUBJECT = 'auth0|';

/**
 * Creates the profile, or returns the existing one untouched except for blank fields, which the
 * sign-in fills: a later sign-in never overwrites what the user chose in their profile.
 * Two first sign-ins racing each other meet at the primary key, not in a duplicate. A new profile
 * of an embedded account starts with the account's last credential change, so a token from before
 * it stays refused (issue 36).
 */
export async function createOrFillProfile(db: Db, fields: NewProfile): Promise<ProfileRow> {
  const idpUserId = fields.id.startsWith(EMBEDDED_SUBJECT) ? fields.id.slice(EMBEDDED_SUBJECT.length) : null;
  await db
    .insertInto('profiles')
    .values({
      id: fields.id,
      name: fields.name,
      email: fields.email,
      can_create_workspaces: fields.canCreateWorkspaces,
      credentials_changed_at: idpUserId === null ? null : sql<Date | null>`(SELECT credentials_changed_at FROM idp_users WHERE id = ${idpUserId})`,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const existing = await findProfile(db, fields.id);
  if (!existing) throw new Error(`profile ${fields.id} vanished after insert`);
  const fill: { name?: string; email?: string } = {};
  if (existing.name.trim() === '' && fields.name.trim() !== '') fill.name = fields.name;
  if (existing.email.trim() === '' && fields.email.trim() !== '') fill.email = fields.email;
  if (Object.keys(fill).length === 0) return existing;
  return db
    .updateTable('profiles')
    .set({ ...fill, updated_at: new Date() })
    .where('id', '=', fields.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateProfileFields(db: Db, id: string, fields: { name: string; email: string }): Promise<ProfileRow> {
  return db
    .updateTable('profiles')
    .set({ name: fields.name, email: fields.email, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setDefaultWorkspace(db: Db, id: string, workspaceId: string | null): Promise<ProfileRow> {
  return db
    .updateTable('profiles')
    .set({ default_workspace_id: workspaceId, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Profiles whose address matches, case-insensitively: the people an invitation to that address reaches. */
export async function profileIdsByEmail(db: Db, email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('profiles')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .execute();
  return rows.map((r) => r.id);
}
