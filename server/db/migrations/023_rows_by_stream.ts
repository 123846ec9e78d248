import { sql, type Kysely } from 'kysely';

/**
 * The rows a job loaded per stream (issue 20), beside its total `rows_loaded`: the bridge adds to
 * both in the transaction that loads a batch, so they always agree. A stream is a key of the object
 * (any text a tap names it); jobs that ran before have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN rows_by_stream jsonb NOT NULL DEFAULT '{}'::jsonb`.execute(db);
}
