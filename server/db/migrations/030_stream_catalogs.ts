import { sql, type Kysely } from 'kysely';

/**
 * What an extractor's own discovery listed (issue 37, item 6): its streams and their properties,
 * kept per workspace and per configuration (`catalog_key`: the plugin and every setting that
 * reaches it, hashed), so the pipeline editor shows them again without running the tap, and a
 * change of settings asks for a new discovery. Written only by the runner, from a verify job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE stream_catalogs (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      catalog_key text NOT NULL,
      streams jsonb NOT NULL,
      job_id uuid,
      discovered timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workspace_id, catalog_key)
    )
  `.execute(db);
}
