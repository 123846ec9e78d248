import { sql, type Kysely } from 'kysely';

/**
 * Throttle counters of the embedded identity provider (server/identity/throttle.ts): one row per
 * kind and hashed key (an account's email, a client address), shared by every server process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idp_throttle (
      kind text NOT NULL,
      key text NOT NULL,
      failures integer NOT NULL,
      first_failure_at timestamptz NOT NULL,
      last_failure_at timestamptz NOT NULL,
      locked_until timestamptz,
      PRIMARY KEY (kind, key)
    );
    CREATE INDEX idp_throttle_last_failure_idx ON idp_throttle (last_failure_at);
  `.execute(db);
}
