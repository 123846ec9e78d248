import { sql } from 'kysely';
import type { Db } from '../db/database';
import { columnValue, type TableShape } from './tableShape';

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
 *
 * A batch is one statement with one parameter: its rows as JSON text, which the database reads
 * back as a record set of texts and casts column by column, as a bound parameter per value was
 * cast before. Parsing one JSON value server-side costs a fraction of binding and planning tens of
 * thousands of parameters (10,000 rows/s that way, several times more this way; bench/pipelines.ts).
 */
export async function loadRecords(db: Db, schema: string, shape: TableShape, records: readonly Record<string, unknown>[]): Promise<number> {
  if (records.length === 0) return 0;
  const rows = shape.key.length > 0 ? lastPerKey(shape, records) : records;
  const table = sql.id(schema, shape.table);
  const columnList = sql.join(shape.columns.map((c) => sql.id(c.column)));
  const nonKey = shape.columns.filter((c) => !shape.key.includes(c.column));
  const conflict =
    shape.key.length === 0
      ? sql``
      : nonKey.length === 0
        ? sql` ON CONFLICT (${sql.join(shape.key.map((k) => sql.id(k)))}) DO NOTHING`
        : sql` ON CONFLICT (${sql.join(shape.key.map((k) => sql.id(k)))}) DO UPDATE SET ${sql.join(nonKey.map((c) => sql`${sql.id(c.column)} = EXCLUDED.${sql.id(c.column)}`))}`;
  // each row an array of texts in the columns' order (positions, so no column name is repeated per row)
  const json = JSON.stringify(rows.map((record) => shape.columns.map((c) => columnValue(record[c.property], c.type))));
  const casts = sql.join(shape.columns.map((c, i) => sql`CAST(r.value ->> ${sql.lit(i)} AS ${sql.raw(c.type)})`));
  await sql`INSERT INTO ${table} (${columnList}) SELECT ${casts} FROM json_array_elements(CAST(${json} AS json)) AS r(value)${conflict}`.execute(db);
  return records.length;
}

function lastPerKey(shape: TableShape, records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const keyProperties = shape.key.map((k) => shape.columns.find((c) => c.column === k)!.property);
  const byKey = new Map<string, Record<string, unknown>>();
  for (const record of records) byKey.set(JSON.stringify(keyProperties.map((p) => record[p] ?? null)), record);
  return [...byKey.values()];
}
