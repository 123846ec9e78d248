import { sql, type Kysely } from 'kysely';

/**
 * The store tables a pipeline's dbt models built (issue 41, lineage): one row per table, as
 * store_loads has one per loaded table, written after a run that ended well from dbt's
 * manifest.json. inputs: the store tables the model read (a JSON array of names). Read by table
 * name within a workspace (the primary key); job and pipeline indexed as every foreign key is
 * (024), so deleting either does not scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE store_models (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      table_name text NOT NULL,
      model text NOT NULL,
      inputs jsonb NOT NULL DEFAULT '[]'::jsonb,
      job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      pipeline_id uuid REFERENCES pipelines(id) ON DELETE SET NULL,
      built_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workspace_id, table_name)
    )
  `.execute(db);
  await sql`CREATE INDEX store_models_job_id_idx ON store_models (job_id)`.execute(db);
  await sql`CREATE INDEX store_models_pipeline_id_idx ON store_models (pipeline_id)`.execute(db);
}
