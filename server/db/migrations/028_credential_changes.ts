import { sql, type Kysely } from 'kysely';

/**
 * When an account's credentials last changed (a password reset, a confirmed new email address):
 * the API refuses an access token issued before it (issue 36). Kept on the profile, which the API
 * reads for every request anyway (server/repositories/callers.ts), so the check costs no round
 * trip; and on the identity provider's user, so that a profile made after the change (the first
 * sign-in to the app) starts with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE profiles ADD COLUMN credentials_changed_at timestamptz;
    ALTER TABLE idp_users ADD COLUMN credentials_changed_at timestamptz;
  `.execute(db);
}
