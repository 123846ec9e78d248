import { sql, type Kysely } from 'kysely';

/**
 * What a workspace has deployed (issue 42): the repository, branch and commit of its last
 * deployment that applied. A worker's clone is a cache of this row: a job on a worker that lacks
 * the commit fetches it from the repository again, so the deployment never lives on one disk.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE workspace_deployments (
      workspace_id uuid PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
      repository_url text NOT NULL,
      branch text NOT NULL,
      commit_id text NOT NULL,
      job_id uuid,
      deployed timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
}
