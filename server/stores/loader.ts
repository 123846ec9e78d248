import { sql } from 'kysely';
import type { Db } from '../db/database';
import { copyIn } from '../db/copyIn';
import type { TableShape } from './tableShape';

/** Creates the stream's table, or adds the columns a newer SCHEMA brings; existing columns keep their type. */
export async function prepareTable(db: Db, schema: string, shape: TableShape): Promise<void> {
  const table = sql.id(schema, shape.table);
  if (shape.columns.length === 0) throw new Error(`The schema of ${shape.table} has no properties`);
  const definitions = shape.columns.map((c) => sql`${sql.id(c.column)} ${sql.raw(c.type)}`);
  const key = shape.key.length > 0 ? sql`, PRIMARY KEY (${sql.join(shape.key.map((k) => sql.id(k)))})` : sql``;
  await sql`CREATE TABLE IF NOT EXISTS ${table} (${sql.join(definitions)}${key})`.execute(db);
  for (const c of shape.columns) {
    await sql`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${sql.id(c.column)} ${sql.raw(c.type)}`.execute(db);
  }
}

/** How a stream's batches go in: straight into the table, or staged and upserted (the key's rows may be there already). */
export type CopyMode = 'insert' | 'upsert';

/** unique_violation: a copied row whose key the table already holds */
const UNIQUE_VIOLATION = '23505';

/**
 * Writes one batch of rows in COPY's text format (copyText.ts, at most one row per key) into the
 * stream's table, inside the caller's transaction; returns the rows written and how, which the
 * caller passes back for the stream's next batch.
 *
 * COPY cannot upsert. On a table with a key the batch is first copied straight in, under a
 * savepoint: a new table or a full refresh holds none of its keys, and that is the floor's own
 * speed. When a key is there already the savepoint is rolled back, and from then on the stream's
 * batches are copied into a temporary table and upserted from it (INSERT … ON CONFLICT), which
 * costs about twice as much. Without a key every batch is copied straight in.
 */
export async function copyRecords(db: Db, schema: string, shape: TableShape, data: Uint8Array, mode: CopyMode = 'insert'): Promise<{ rows: number; mode: CopyMode }> {
  if (data.length === 0) return { rows: 0, mode };
  const table = sql.id(schema, shape.table);
  const columnList = sql.join(shape.columns.map((c) => sql.id(c.column)));
  if (shape.key.length === 0) return { rows: await copyIn(db, sql`COPY ${table} (${columnList}) FROM STDIN`, data), mode };
  if (mode === 'insert') {
    await sql`SAVEPOINT copy_batch`.execute(db);
    try {
      const rows = await copyIn(db, sql`COPY ${table} (${columnList}) FROM STDIN`, data);
      await sql`RELEASE SAVEPOINT copy_batch`.execute(db);
      return { rows, mode };
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT copy_batch`.execute(db);
      if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
    }
  }
  const staged = sql.id('pg_temp', 'copy_batch');
  const nonKey = shape.columns.filter((c) => !shape.key.includes(c.column));
  const keyList = sql.join(shape.key.map((k) => sql.id(k)));
  const conflict = nonKey.length === 0 ? sql`DO NOTHING` : sql`DO UPDATE SET ${sql.join(nonKey.map((c) => sql`${sql.id(c.column)} = EXCLUDED.${sql.id(c.column)}`))}`;
  await sql`CREATE TEMPORARY TABLE copy_batch (LIKE ${table}) ON COMMIT DROP`.execute(db);
  const rows = await copyIn(db, sql`COPY ${staged} (${columnList}) FROM STDIN`, data);
  await sql`INSERT INTO ${table} (${columnList}) SELECT ${columnList} FROM ${staged} ON CONFLICT (${keyList}) ${conflict}`.execute(db);
  await sql`DROP TABLE ${staged}`.execute(db);
  return { rows, mode: 'upsert' };
}
