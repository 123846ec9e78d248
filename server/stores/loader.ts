import { sql } from 'kysely';
import type { Db } from '../db/database';
import { columnValue, type TableShape } from './tableShape';

/** At most this many bound parameters per statement (PostgreSQL allows 65 535). */
const MAX_PARAMETERS = 30_000;

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

/**
 * Upserts records on the key (insert-only without one). Within a batch the last record of a key
 * wins, since one statement cannot update a row twice. Returns the number of records loaded.
 */
export async function loadRecords(db: Db, schema: string, shape: TableShape, records: readonly Record<string, unknown>[]): Promise<number> {
  if (records.length === 0) return 0;
  const rows = shape.key.length > 0 ? lastPerKey(shape, records) : records;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, shape.columns.length)));
  const table = sql.id(schema, shape.table);
  const columnList = sql.join(shape.columns.map((c) => sql.id(c.column)));
  const nonKey = shape.columns.filter((c) => !shape.key.includes(c.column));
  const conflict =
    shape.key.length === 0
      ? sql``
      : nonKey.length === 0
        ? sql` ON CONFLICT (${sql.join(shape.key.map((k) => sql.id(k)))}) DO NOTHING`
        : sql` ON CONFLICT (${sql.join(shape.key.map((k) => sql.id(k)))}) DO UPDATE SET ${sql.join(nonKey.map((c) => sql`${sql.id(c.column)} = EXCLUDED.${sql.id(c.column)}`))}`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const values = chunk.map((record) => sql`(${sql.join(shape.columns.map((c) => sql`CAST(${columnValue(record[c.property], c.type)} AS ${sql.raw(c.type)})`))})`);
    await sql`INSERT INTO ${table} (${columnList}) VALUES ${sql.join(values)}${conflict}`.execute(db);
  }
  return records.length;
}

function lastPerKey(shape: TableShape, records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const keyProperties = shape.key.map((k) => shape.columns.find((c) => c.column === k)!.property);
  const byKey = new Map<string, Record<string, unknown>>();
  for (const record of records) byKey.set(JSON.stringify(keyProperties.map((p) => record[p] ?? null)), record);
  return [...byKey.values()];
}
