import { sql, type Kysely } from 'kysely';

/**
 * A workspace file's bytes in chunks of at most 1 MiB (issue 39), so a file of hundreds of
 * megabytes is written and read a chunk at a time: no process holds it whole, and one statement
 * never carries more than a chunk. `digest` (SHA-256 of the bytes) tells an unchanged re-upload
 * from a change, and a reader that the file was replaced while it read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE workspace_resource_chunks (
      workspace_id uuid NOT NULL,
      path text NOT NULL,
      seq integer NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (workspace_id, path, seq),
      FOREIGN KEY (workspace_id, path) REFERENCES workspace_resources (workspace_id, path) ON DELETE CASCADE ON UPDATE CASCADE
    )
  `.execute(db);
  await sql`ALTER TABLE workspace_resources ADD COLUMN digest text`.execute(db);
  // the files so far were at most 5 MB: each becomes one chunk
  await sql`
    INSERT INTO workspace_resource_chunks (workspace_id, path, seq, bytes)
    SELECT workspace_id, path, 0, content FROM workspace_resources WHERE length(content) > 0
  `.execute(db);
  await sql`UPDATE workspace_resources SET digest = encode(sha256(content), 'hex')`.execute(db);
  await sql`ALTER TABLE workspace_resources ALTER COLUMN digest SET NOT NULL, DROP COLUMN content`.execute(db);
}
