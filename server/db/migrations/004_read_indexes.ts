import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the hot reads. The feed cuts its page on (workspace_id, published DESC, id) and
 * counts the workspace's datasets from the same index without visiting the table; the old
 * (workspace_id, published DESC) index is a prefix of it and goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX datasets_workspace_feed_idx ON datasets (workspace_id, published DESC, id);
    DROP INDEX IF EXISTS datasets_workspace_published_idx;
  `.execute(db);
}
