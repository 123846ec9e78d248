import { sql, type Kysely } from 'kysely';

/**
 * A profile's new email address waits in its confirmation link's row (kind 'change-email') until
 * the link mailed to that address is opened: until then the old address stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE idp_tokens ADD COLUMN new_email text;
    CREATE INDEX idp_tokens_user_kind_idx ON idp_tokens (user_id, kind);
  `.execute(db);
}
