import { sql, type Kysely } from 'kysely';

/**
 * A dataset's stored body (migration 026) is compressed with LZ4 where the server offers it. Every
 * dataset answer reads the body whole, and bodies of a few kilobytes are compressed: with
 * PostgreSQL's own pglz, decompressing them was about a twentieth of PostgreSQL's CPU on a feed page
 * (perf, issue 21); LZ4 decompresses several times faster. A server built without LZ4 (PGlite is
 * one) keeps pglz. Bodies already stored keep theirs until their next write rebuilds them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DO $$
    BEGIN
      ALTER TABLE datasets ALTER COLUMN body_json SET COMPRESSION lz4;
    EXCEPTION WHEN feature_not_supported THEN
      NULL;
    END $$;
  `.execute(db);
}

