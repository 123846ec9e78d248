import { sql, type Kysely } from 'kysely';

/**
 * Setup tasks (spec 001 §2–§4): PROFILE_* jobs of a workspace. A configure task points at the
 * pipeline or data store to finish through columns of its own, not pipeline_id/datastore_id:
 * those carry "one active job per pipeline/store" indexes and the pipeline's latest job, which a
 * to-do task (QUEUED) must not block or stand in for. At most one open task per type and subject.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE jobs ADD COLUMN task_pipeline_id uuid REFERENCES pipelines(id) ON DELETE CASCADE;
    ALTER TABLE jobs ADD COLUMN task_datastore_id uuid REFERENCES data_stores(id) ON DELETE CASCADE;
    CREATE UNIQUE INDEX jobs_one_open_setup_task_idx ON jobs (
      workspace_id, type, coalesce(task_pipeline_id, task_datastore_id, '00000000-0000-0000-0000-000000000000'::uuid)
    ) WHERE starts_with(type, 'PROFILE_') AND status IN ('QUEUED', 'RUNNING');
  `.execute(db);
}
