import { sql } from 'kysely';
import type { Db } from './database';
import type { StoreDb } from './storeDatabase';

// Until issue 36 the embedded stores were schemas (ws_<hex>) of the app's own PGlite database; now
// they live in a database of their own (storeDatabase.ts). On the first start after the change,
// each such schema is copied there — its tables' columns, types, NOT NULL and primary keys, and
// every row — and only once the copy has committed is it dropped from the app's database. A start
// interrupted halfway copies the schema again from the start. The workspace's role and its grants
// are made in the stores' database when the store is first used (storeRole.ts).

const STORE_SCHEMA = '^ws_[0-9a-f]{32}$';
/** Rows per copied batch, as one JSON array. */
const BATCH = 5_000;

type Column = { name: string; type: string; not_null: boolean };

export async function moveStoresApart(appDb: Db, stores: StoreDb, log: (line: string) => void = () => undefined): Promise<void> {
  const { rows: schemas } = await sql<{ schema: string }>`
    SELECT nspname AS schema FROM pg_namespace WHERE nspname ~ ${STORE_SCHEMA} ORDER BY nspname`.execute(appDb);
  for (const { schema } of schemas) {
    const { rows: tables } = await sql<{ table: string }>`
      SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${schema} AND c.relkind = 'r' ORDER BY c.relname`.execute(appDb);
    let copied = 0;
    await stores.transaction().execute(async (target) => {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(target);
      await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(target);
      for (const { table } of tables) copied += await copyTable(appDb, target, schema, table);
    });
    await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(appDb);
    log(`moved the embedded store ${schema} (${tables.length} tables, ${copied} rows) into the stores' own database`);
  }
}

async function copyTable(appDb: Db, target: StoreDb, schema: string, table: string): Promise<number> {
  const relation = `"${schema}"."${table.replace(/"/g, '""')}"`;
  const { rows: columns } = await sql<Column>`
    SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
    FROM pg_attribute a WHERE a.attrelid = ${relation}::regclass AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY a.attnum`.execute(appDb);
  const { rows: key } = await sql<{ name: string }>`
    SELECT a.attname AS name FROM pg_index i
    JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) ON true
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
    WHERE i.indrelid = ${relation}::regclass AND i.indisprimary ORDER BY k.n`.execute(appDb);
  const definitions = columns.map((c) => sql`${sql.id(c.name)} ${sql.raw(c.type)}${c.not_null ? sql` NOT NULL` : sql``}`);
  const primary = key.length > 0 ? sql`, PRIMARY KEY (${sql.join(key.map((k) => sql.id(k.name)))})` : sql``;
  await sql`CREATE TABLE ${sql.id(schema, table)} (${sql.join(definitions)}${primary})`.execute(target);
  let count = 0;
  await appDb.transaction().execute(async (source) => {
    await sql`DECLARE moving NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${sql.id(schema, table)} t`.execute(source);
    for (;;) {
      const { rows } = await sql.raw<{ j: string }>(`FETCH FORWARD ${BATCH} FROM moving`).execute(source);
      if (rows.length > 0) {
        // JSON carries every value as its text (numbers exactly as numeric prints them), and the
        // target's own column types read it back
        const batch = `[${rows.map((r) => r.j).join(',')}]`;
        await sql`INSERT INTO ${sql.id(schema, table)} SELECT * FROM json_populate_recordset(NULL::${sql.id(schema, table)}, ${batch}::json)`.execute(target);
        count += rows.length;
      }
      if (rows.length < BATCH) break;
    }
  });
  return count;
}
