import { sql, type Kysely } from 'kysely';

/** The embedded identity provider's state: users, oidc-provider payloads, keys, one-time tokens, mail outbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idp_users (
      id text PRIMARY KEY,
      email text NOT NULL,
      name text NOT NULL,
      password_hash text NOT NULL,
      email_verified boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX idp_users_email_idx ON idp_users (lower(email));

    CREATE TABLE idp_payloads (
      id text NOT NULL,
      type text NOT NULL,
      payload jsonb NOT NULL,
      grant_id text,
      user_code text,
      uid text,
      expires_at timestamptz,
      consumed_at timestamptz,
      PRIMARY KEY (id, type)
    );
    CREATE INDEX idp_payloads_grant_idx ON idp_payloads (grant_id);
    CREATE INDEX idp_payloads_uid_idx ON idp_payloads (uid);
    CREATE INDEX idp_payloads_expires_idx ON idp_payloads (expires_at);

    CREATE TABLE idp_keys (
      kind text PRIMARY KEY,
      value jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE idp_tokens (
      token_hash text PRIMARY KEY,
      kind text NOT NULL,
      user_id text NOT NULL REFERENCES idp_users(id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    );

    CREATE TABLE outbox (
      id uuid PRIMARY KEY,
      recipient text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX outbox_created_idx ON outbox (created_at DESC);
  `.execute(db);
}
