import { sql, type Kysely } from 'kysely';

/**
 * The dataset page (spec 002): who starred which dataset, dataset subscriptions beside pipeline
 * ones, lists of datasets (LIST channels), whether a chart polls, and which job last loaded
 * which table of a workspace's default store (a dataset's freshness).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE dataset_likes (
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      profile_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      created timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (dataset_id, profile_id)
    );
    -- 'starred' reads a profile's likes
    CREATE INDEX dataset_likes_profile_idx ON dataset_likes (profile_id, created DESC);

    -- A subscription targets a pipeline or a dataset, exactly one; one per profile and target.
    ALTER TABLE subscriptions
      ALTER COLUMN pipeline_id DROP NOT NULL,
      ADD COLUMN dataset_id uuid REFERENCES datasets(id) ON DELETE CASCADE,
      ADD CONSTRAINT subscriptions_one_target CHECK (num_nonnulls(pipeline_id, dataset_id) = 1);
    CREATE UNIQUE INDEX subscriptions_profile_dataset_idx ON subscriptions (profile_id, dataset_id);
    CREATE INDEX subscriptions_dataset_idx ON subscriptions (dataset_id) WHERE dataset_id IS NOT NULL;

    -- The datasets of a list (a LIST channel); a dataset's SOURCE channel stays datasets.channel_id.
    CREATE TABLE channel_datasets (
      channel_id uuid NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      added timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (channel_id, dataset_id)
    );
    CREATE INDEX channel_datasets_dataset_idx ON channel_datasets (dataset_id);
    CREATE INDEX datasets_channel_idx ON datasets (channel_id) WHERE channel_id IS NOT NULL;

    ALTER TABLE datasets ADD COLUMN continuous_poll boolean NOT NULL DEFAULT false;

    -- The job that last loaded each table of a workspace's default store (written by the
    -- runner's bridge on every batch): one row per table, read by table name.
    CREATE TABLE store_loads (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      table_name text NOT NULL,
      job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      pipeline_id uuid REFERENCES pipelines(id) ON DELETE SET NULL,
      loaded timestamptz NOT NULL DEFAULT now(),
      rows bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (workspace_id, table_name)
    );
  `.execute(db);
}
