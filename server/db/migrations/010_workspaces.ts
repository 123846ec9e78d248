import { sql, type Kysely } from 'kysely';

/**
 * Workspaces of one's own (issue 10): the repository settings of a workspace, its deployment
 * secret, and at most one QUEUED or RUNNING WORKSPACE_INIT / WORKSPACE_DEPLOY job per workspace
 * and type — a unique index, so two server processes can never start the same one twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE workspaces ADD COLUMN repository_url text;
    ALTER TABLE workspaces ADD COLUMN repository_branch text;
    ALTER TABLE workspaces ADD COLUMN ssh_private_key text;
    ALTER TABLE workspaces ADD COLUMN github_installation_id text;
    ALTER TABLE workspaces ADD COLUMN deployment_secret text;
    ALTER TABLE workspaces ADD COLUMN managed boolean NOT NULL DEFAULT false;
    CREATE UNIQUE INDEX jobs_one_active_workspace_job_idx ON jobs (workspace_id, type)
      WHERE pipeline_id IS NULL AND datastore_id IS NULL AND type IN ('WORKSPACE_INIT', 'WORKSPACE_DEPLOY') AND status IN ('QUEUED', 'RUNNING');
  `.execute(db);
}
