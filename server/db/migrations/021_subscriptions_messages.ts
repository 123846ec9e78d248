import { sql, type Kysely } from 'kysely';

/**
 * The rest of Matatika's public API (issue 19):
 * - a subscription may name a channel or a whole workspace besides a pipeline or a dataset, may be
 *   of type NONE (kept, but silent: the reference's third Subscription Type), and records when it
 *   last changed;
 * - dataset messages: a member's note about a dataset to another member, delivered as a
 *   DATASET_MESSAGE notification that shares the message's id. The sender is kept so only they
 *   change it, and the message outlives the recipient deleting its notification.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE subscriptions
      ADD COLUMN channel_id uuid REFERENCES channels(id) ON DELETE CASCADE,
      ADD COLUMN workspace_id uuid REFERENCES workspaces(id) ON DELETE CASCADE,
      ADD COLUMN last_modified timestamptz NOT NULL DEFAULT now(),
      DROP CONSTRAINT subscriptions_one_target,
      DROP CONSTRAINT subscriptions_type_check;
    UPDATE subscriptions SET last_modified = created;
    ALTER TABLE subscriptions
      ADD CONSTRAINT subscriptions_one_target CHECK (num_nonnulls(pipeline_id, dataset_id, channel_id, workspace_id) = 1),
      ADD CONSTRAINT subscriptions_type_check CHECK (type IN ('ALERTS', 'ALL', 'NONE'));
    CREATE UNIQUE INDEX subscriptions_profile_channel_idx ON subscriptions (profile_id, channel_id);
    CREATE UNIQUE INDEX subscriptions_profile_workspace_idx ON subscriptions (profile_id, workspace_id);
    CREATE INDEX subscriptions_channel_idx ON subscriptions (channel_id) WHERE channel_id IS NOT NULL;
    CREATE INDEX subscriptions_workspace_idx ON subscriptions (workspace_id) WHERE workspace_id IS NOT NULL;
    CREATE INDEX subscriptions_profile_idx ON subscriptions (profile_id, created DESC, id);

    CREATE TABLE dataset_messages (
      id uuid PRIMARY KEY,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      sender_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      recipient_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      message text NOT NULL,
      created timestamptz NOT NULL DEFAULT now(),
      last_modified timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX dataset_messages_dataset_idx ON dataset_messages (dataset_id);
  `.execute(db);
}
