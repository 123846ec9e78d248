import { sql, type Kysely } from 'kysely';

/**
 * Data stores (spec 001 §3, §4): a store's connection check is a job of the runner's queue
 * (type DATASTORE_VERIFY), at most one QUEUED or RUNNING per store; the store keeps the reason of
 * its last failed check beside its status.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE jobs ADD COLUMN datastore_id uuid REFERENCES data_stores(id) ON DELETE CASCADE;
    CREATE UNIQUE INDEX jobs_one_active_per_datastore_idx ON jobs (datastore_id) WHERE datastore_id IS NOT NULL AND status IN ('QUEUED', 'RUNNING');
    ALTER TABLE data_stores ADD COLUMN status_message text;
  `.execute(db);
}
