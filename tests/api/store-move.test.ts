import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { storeDbOf } from '../../server/db/storeDatabase';
import { newId } from '../../server/repositories/ids';
import { storeSchemaName } from '../../server/stores/storeRole';
import { createTestDatabase, type TestDatabase } from '../support/server';

// Issue 36: on PGlite the stores moved from schemas of the app's database into a database of their
// own (server/db/storeDatabase.ts). An install upgraded from before finds its stores where they
// were, rows and keys included, and the app's database keeps no copy (server/db/moveStores.ts).

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const databases: TestDatabase[] = [];
afterAll(() => Promise.all(databases.map((d) => d.dispose())));

describe.skipIf(postgres)('a store left in the app database by an older version (PGlite)', () => {
  it('is moved into the stores database at the next start, with its columns, key and rows', async () => {
    const database = await createTestDatabase({ persistent: true });
    databases.push(database);
    const workspaceId = newId();
    const schema = storeSchemaName(workspaceId);
    const first = await openDatabase({ url: undefined, dataDir: database.dataDir });
    // as the older version loaded it: a schema of the app's own database
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(first.db);
    await sql`CREATE TABLE ${sql.id(schema, 'orders')} (id bigint NOT NULL, amount numeric(12,2), at timestamptz, tags jsonb, note text, PRIMARY KEY (id))`.execute(first.db);
    await sql`INSERT INTO ${sql.id(schema, 'orders')} SELECT g, g * 1.25, timestamptz '2026-01-01 00:00:00+00' + g * interval '1 hour', jsonb_build_object('g', g), CASE WHEN g % 2 = 0 THEN 'a "quoted", note' END FROM generate_series(1, 12000) g`.execute(first.db);
    const before = await sql<{ n: number; total: string; last: string }>`SELECT count(*)::int AS n, sum(amount)::text AS total, max(at)::text AS last FROM ${sql.id(schema, 'orders')}`.execute(first.db);
    await first.close();

    const second = await openDatabase({ url: undefined, dataDir: database.dataDir });
    try {
      const stores = storeDbOf(second.db);
      const after = await sql<{ n: number; total: string; last: string }>`SELECT count(*)::int AS n, sum(amount)::text AS total, max(at)::text AS last FROM ${sql.id(schema, 'orders')}`.execute(stores);
      expect(after.rows).toEqual(before.rows);
      const row = await sql<{ tags: unknown; note: string | null }>`SELECT tags, note FROM ${sql.id(schema, 'orders')} WHERE id = 2`.execute(stores);
      expect(row.rows).toEqual([{ tags: { g: 2 }, note: 'a "quoted", note' }]);
      const key = await sql<{ def: string }>`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = ${`${schema}.orders`}::regclass AND contype = 'p'`.execute(stores);
      expect(key.rows).toEqual([{ def: 'PRIMARY KEY (id)' }]);
      const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = ${schema}`.execute(second.db);
      expect(left.rows).toEqual([{ n: 0 }]);
    } finally {
      await second.close();
    }
  }, 120_000);
});
