import { sql, type Kysely } from 'kysely';

/**
 * Noise control of the notifications inbox (issue 12, Beyond): per-profile settings (mentions only,
 * a daily digest instead of one notification per event), per-object routing rules, the events a
 * digest is still to carry, and a notification's pipeline (its click target and its routing key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE notifications ADD COLUMN pipeline_id uuid REFERENCES pipelines(id) ON DELETE SET NULL;

    CREATE TABLE notification_settings (
      profile_id text PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
      mentions_only boolean NOT NULL DEFAULT false,
      digest boolean NOT NULL DEFAULT false,
      -- the last digest claimed for sending: the claim that keeps two processes from both sending
      last_digest_at timestamptz
    );

    CREATE TABLE notification_routes (
      profile_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      object_type text NOT NULL CHECK (object_type IN ('DATASET', 'PIPELINE')),
      object_id uuid NOT NULL,
      level text NOT NULL CHECK (level IN ('ALL', 'ERRORS', 'NONE')),
      PRIMARY KEY (profile_id, object_type, object_id)
    );

    CREATE TABLE notification_digest_items (
      id uuid PRIMARY KEY,
      profile_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      workspace_id uuid REFERENCES workspaces(id) ON DELETE CASCADE,
      type text NOT NULL,
      message text NOT NULL,
      actor_name text,
      created timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notification_digest_items_profile_idx ON notification_digest_items (profile_id, created);
  `.execute(db);
}
