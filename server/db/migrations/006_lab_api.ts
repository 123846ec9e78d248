import { sql, type Kysely } from 'kysely';

/** Who watches which pipeline (spec 001 §4 Watch): one subscription per profile and pipeline. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE subscriptions (
      id uuid PRIMARY KEY,
      profile_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      pipeline_id uuid NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('ALERTS', 'ALL')),
      created timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX subscriptions_profile_pipeline_idx ON subscriptions (profile_id, pipeline_id);
    CREATE INDEX subscriptions_pipeline_idx ON subscriptions (pipeline_id);
  `.execute(db);
}
