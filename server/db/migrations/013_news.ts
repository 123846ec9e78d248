import { sql, type Kysely } from 'kysely';

/**
 * News (spec 002 §2 News): a member's notifications in one workspace that are about a dataset,
 * newest first. The index serves that read without touching the rest of the inbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX notifications_news_idx ON notifications (profile_id, workspace_id, created DESC) WHERE dataset_id IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS notifications_news_idx`.execute(db);
}
