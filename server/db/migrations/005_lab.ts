import { sql, type Kysely } from 'kysely';

/**
 * The Lab: pipelines, their data components, data stores, per-pipeline Singer state, and the
 * columns that turn the jobs table into the runner's queue (lease, exit code, trigger, metrics).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE data_stores (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      data_plugin text NOT NULL,
      properties jsonb NOT NULL DEFAULT '{}',
      managed boolean NOT NULL DEFAULT false,
      draft boolean NOT NULL DEFAULT false,
      is_default boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'READY' CHECK (status IN ('DRAFT', 'FAILED', 'PROVISIONING', 'READY')),
      created timestamptz NOT NULL DEFAULT now(),
      last_modified timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX data_stores_workspace_name_idx ON data_stores (workspace_id, lower(name));
    CREATE UNIQUE INDEX data_stores_one_default_idx ON data_stores (workspace_id) WHERE is_default;

    CREATE TABLE data_components (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      plugin_type text NOT NULL CHECK (plugin_type IN ('EXTRACTOR', 'LOADER', 'MAPPER', 'TRANSFORMER', 'UTILITY', 'FILE')),
      plugin_name text NOT NULL,
      variant text,
      properties jsonb NOT NULL DEFAULT '{}',
      created timestamptz NOT NULL DEFAULT now(),
      last_modified timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX data_components_workspace_name_idx ON data_components (workspace_id, name);

    CREATE TABLE pipelines (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      status text NOT NULL DEFAULT 'READY' CHECK (status IN ('READY', 'PROVISIONING', 'FAILED')),
      draft boolean NOT NULL DEFAULT true,
      properties jsonb NOT NULL DEFAULT '{}',
      schedule text,
      data_components jsonb NOT NULL DEFAULT '[]',
      actions jsonb NOT NULL DEFAULT '[]',
      script text,
      timeout integer NOT NULL DEFAULT 0 CHECK (timeout >= 0),
      max_retries integer NOT NULL DEFAULT 0 CHECK (max_retries >= 0),
      triggered_by jsonb NOT NULL DEFAULT '[]',
      created_by text REFERENCES profiles(id) ON DELETE SET NULL,
      created timestamptz NOT NULL DEFAULT now(),
      last_modified timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX pipelines_workspace_name_idx ON pipelines (workspace_id, lower(name));
    CREATE INDEX pipelines_scheduled_idx ON pipelines (workspace_id) WHERE schedule IS NOT NULL AND NOT draft;

    CREATE TABLE pipeline_states (
      pipeline_id uuid NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
      state_id text NOT NULL,
      value jsonb NOT NULL,
      updated timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (pipeline_id, state_id)
    );

    ALTER TABLE jobs
      ADD COLUMN exit_code integer,
      ADD COLUMN trigger_kind text NOT NULL DEFAULT 'MANUAL' CHECK (trigger_kind IN ('MANUAL', 'SCHEDULE', 'PIPELINE', 'RETRY', 'SEED')),
      ADD COLUMN triggered_by_job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      ADD COLUMN retry_of uuid REFERENCES jobs(id) ON DELETE SET NULL,
      ADD COLUMN scheduled_slot timestamptz,
      ADD COLUMN run_after timestamptz NOT NULL DEFAULT now(),
      ADD COLUMN timeout_seconds integer NOT NULL DEFAULT 300,
      ADD COLUMN lease_owner text,
      ADD COLUMN lease_expires_at timestamptz,
      ADD COLUMN process_host text,
      ADD COLUMN process_group integer,
      ADD COLUMN stop_requested boolean NOT NULL DEFAULT false,
      ADD COLUMN end_reason text,
      ADD COLUMN rows_loaded bigint NOT NULL DEFAULT 0;

    -- The queue's claim reads the oldest due QUEUED job; recovery scans RUNNING leases.
    CREATE INDEX jobs_queue_idx ON jobs (run_after, created) WHERE status = 'QUEUED';
    CREATE INDEX jobs_lease_idx ON jobs (lease_expires_at) WHERE status = 'RUNNING';
    CREATE INDEX jobs_pipeline_created_idx ON jobs (pipeline_id, created DESC) WHERE pipeline_id IS NOT NULL;
    -- One QUEUED or RUNNING job per pipeline, enforced by the database so that two processes
    -- (a click and the scheduler, or two servers) cannot both start one: the second gets a conflict.
    CREATE UNIQUE INDEX jobs_one_active_per_pipeline_idx ON jobs (pipeline_id) WHERE pipeline_id IS NOT NULL AND status IN ('QUEUED', 'RUNNING');
    -- One job per schedule slot across processes.
    CREATE UNIQUE INDEX jobs_schedule_slot_idx ON jobs (pipeline_id, scheduled_slot) WHERE scheduled_slot IS NOT NULL;
  `.execute(db);
}
