import { sql, type Kysely } from 'kysely';

/**
 * Workspace resources (spec 002 §3 Workspace 'resources'; the Matatika reference's resources): files
 * a workspace keeps, named by a path, stored in the database itself (bytea) so that every server
 * process on one PostgreSQL serves the same files. The size is kept beside the bytes, so listing
 * and the workspace's quota never read the content.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE workspace_resources (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      path text NOT NULL,
      content bytea NOT NULL,
      content_type text NOT NULL,
      size integer NOT NULL,
      created_by text REFERENCES profiles(id) ON DELETE SET NULL,
      created timestamptz NOT NULL DEFAULT now(),
      last_modified timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workspace_id, path)
    );
  `.execute(db);
}
