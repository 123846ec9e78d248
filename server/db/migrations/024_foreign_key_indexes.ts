import { sql, type Kysely } from 'kysely';

/**
 * An index behind every foreign key that had none (issue 21). Deleting a row makes PostgreSQL find
 * the rows that point at it (to cascade, set null or refuse), and without an index leading with the
 * column that is a scan of the whole referencing table per deleted row: deleting 200,000 comments
 * had not finished after ten minutes, each comment's cascade scanning the table for its replies.
 * The feed's comment count per dataset (`comments.dataset_id`) had no usable index either (the
 * existing one covers top-level comments only): with 200,000 comments a feed page took 202 ms in
 * PostgreSQL, 37 ms with this index. `server/db/foreign-key-indexes.test.ts` keeps the rule for new tables.
 */
const REFERENCES: readonly (readonly [table: string, column: string])[] = [
  ['channels', 'creator_id'],
  ['comment_likes', 'profile_id'],
  ['comments', 'author_id'],
  ['comments', 'dataset_id'],
  ['comments', 'parent_id'],
  ['dataset_alerts', 'job_id'],
  ['dataset_alerts', 'rule_id'],
  ['dataset_messages', 'recipient_id'],
  ['dataset_messages', 'sender_id'],
  ['datasets', 'channel_id'],
  ['invitations', 'invited_by'],
  ['jobs', 'datastore_id'],
  ['jobs', 'profile_id'],
  ['jobs', 'retry_of'],
  ['jobs', 'task_datastore_id'],
  ['jobs', 'task_pipeline_id'],
  ['jobs', 'triggered_by_job_id'],
  ['notification_digest_items', 'workspace_id'],
  ['notifications', 'dataset_id'],
  ['notifications', 'job_id'],
  ['notifications', 'pipeline_id'],
  ['notifications', 'workspace_id'],
  ['pipelines', 'created_by'],
  ['store_loads', 'job_id'],
  ['store_loads', 'pipeline_id'],
  ['subscriptions', 'channel_id'],
  ['subscriptions', 'dataset_id'],
  ['subscriptions', 'workspace_id'],
  ['workspace_resources', 'created_by'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of REFERENCES) {
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(`${table}_${column}_fk_idx`)} ON ${sql.table(table)} (${sql.ref(column)})`.execute(db);
  }
}
