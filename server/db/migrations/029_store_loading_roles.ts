import { sql, type Kysely } from 'kysely';

/**
 * The login role each workspace's Meltano loaders write its store as (issue 37,
 * server/stores/loadingRole.ts), with its password: random, made once with the role, and read by
 * every server process that proxies a job's session to it, so jobs of one workspace at once and
 * servers sharing this database never change it under each other. PUBLIC has no right on the
 * `public` schema (migration 019), so no workspace role can read it; only the server does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE store_loading_roles (
      workspace_id uuid PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
      role_name text NOT NULL,
      password text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
}
