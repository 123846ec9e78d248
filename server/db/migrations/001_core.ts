import { sql, type Kysely } from 'kysely';

/** The catalogue's own tables: profiles, workspaces and what hangs off them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE profiles (
      id text PRIMARY KEY,
      name text NOT NULL,
      email text NOT NULL,
      default_workspace_id uuid,
      features_disabled text,
      can_create_workspaces boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX profiles_email_idx ON profiles (lower(email));

    CREATE TABLE workspaces (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      image_url text,
      default_environment text,
      domains jsonb NOT NULL DEFAULT '[]',
      app_properties jsonb NOT NULL DEFAULT '{}',
      status text NOT NULL DEFAULT 'READY',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE workspace_members (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      profile_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('owner', 'editor', 'member')),
      handle text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workspace_id, profile_id)
    );
    CREATE INDEX workspace_members_profile_idx ON workspace_members (profile_id);

    CREATE TABLE jobs (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      profile_id text REFERENCES profiles(id) ON DELETE SET NULL,
      pipeline_id uuid,
      type text NOT NULL,
      status text NOT NULL CHECK (status IN ('SKIPPED', 'COMPLETE', 'ERROR', 'QUEUED', 'RUNNING', 'STOPPED')),
      triggered_by text,
      attempt integer NOT NULL DEFAULT 1,
      max_attempts integer NOT NULL DEFAULT 1,
      commit_id text,
      created timestamptz NOT NULL DEFAULT now(),
      start_time timestamptz,
      end_time timestamptz
    );
    CREATE INDEX jobs_workspace_created_idx ON jobs (workspace_id, created DESC);
    CREATE INDEX jobs_active_idx ON jobs (workspace_id) WHERE status IN ('QUEUED', 'RUNNING');

    CREATE TABLE job_logs (
      job_id uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
      sequence integer NOT NULL,
      timestamp timestamptz NOT NULL DEFAULT now(),
      message text NOT NULL,
      PRIMARY KEY (job_id, sequence)
    );

    CREATE TABLE channels (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text,
      picture text,
      type text NOT NULL DEFAULT 'SOURCE',
      scope text NOT NULL DEFAULT 'WORKSPACE',
      creator_id text REFERENCES profiles(id) ON DELETE SET NULL,
      created timestamptz NOT NULL DEFAULT now(),
      last_modified timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX channels_workspace_idx ON channels (workspace_id);

    CREATE TABLE datasets (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      channel_id uuid REFERENCES channels(id) ON DELETE SET NULL,
      alias text,
      title text NOT NULL,
      description text,
      description_content_type text NOT NULL DEFAULT 'text/markdown',
      questions text,
      visualisation text,
      metadata text,
      raw_data text,
      query text,
      view_count integer NOT NULL DEFAULT 0,
      like_count integer NOT NULL DEFAULT 0,
      published timestamptz NOT NULL DEFAULT now(),
      created timestamptz NOT NULL DEFAULT now(),
      last_modified timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX datasets_workspace_alias_idx ON datasets (workspace_id, alias) WHERE alias IS NOT NULL;
    CREATE INDEX datasets_workspace_published_idx ON datasets (workspace_id, published DESC);

    CREATE TABLE dataset_tags (
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      tag text NOT NULL,
      PRIMARY KEY (dataset_id, tag)
    );
    CREATE INDEX dataset_tags_tag_idx ON dataset_tags (tag);

    CREATE TABLE notifications (
      id uuid PRIMARY KEY,
      profile_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      workspace_id uuid REFERENCES workspaces(id) ON DELETE CASCADE,
      type text NOT NULL,
      message text NOT NULL,
      resolved boolean NOT NULL DEFAULT false,
      actor_name text,
      dataset_id uuid REFERENCES datasets(id) ON DELETE CASCADE,
      job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      created timestamptz NOT NULL DEFAULT now(),
      last_modified timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notifications_profile_created_idx ON notifications (profile_id, created DESC);
    CREATE INDEX notifications_unread_idx ON notifications (profile_id) WHERE NOT resolved;

    CREATE TABLE invitations (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      email text NOT NULL,
      status text NOT NULL DEFAULT 'PENDING',
      invited_by text REFERENCES profiles(id) ON DELETE SET NULL,
      created timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX invitations_email_idx ON invitations (lower(email));
    CREATE UNIQUE INDEX invitations_workspace_email_idx ON invitations (workspace_id, lower(email));

    CREATE TABLE api_keys (
      id uuid PRIMARY KEY,
      profile_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      name text NOT NULL,
      client_id text NOT NULL UNIQUE,
      secret_hash text NOT NULL,
      created timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX api_keys_profile_idx ON api_keys (profile_id);
  `.execute(db);
}
