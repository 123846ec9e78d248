import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/database';
import { createTestDatabase, type TestDatabase } from '../support/server';

// Both pools keep parameterised statements prepared (server/db/pglite-pool.ts, prepared-pool.ts).
// A prepared `SELECT *` must keep working when its table changes: on PostgreSQL the change may come
// from another server process (a second pool here), on PGlite only from this one.

let database: TestDatabase;
let first: DatabaseHandle;
let second: DatabaseHandle | undefined;
beforeAll(async () => {
  database = await createTestDatabase();
  first = await openDatabase({ url: database.url, dataDir: database.dataDir });
  second = database.url ? await openDatabase({ url: database.url, dataDir: database.dataDir }) : undefined;
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await database?.dispose();
});

const selectAll = (handle: DatabaseHandle, id: number) => sql<Record<string, unknown>>`SELECT * FROM prepared_probe WHERE id = ${id}`.execute(handle.db);

describe('prepared statements', () => {
  it('answer a prepared SELECT * with the new column after the table gained one', async () => {
    await sql`CREATE TABLE prepared_probe (id int PRIMARY KEY, name text)`.execute(first.db);
    await sql`INSERT INTO prepared_probe VALUES (1, 'one')`.execute(first.db);
    // Used often enough on every pooled connection for PostgreSQL to hold a cached plan.
    for (let i = 0; i < 30; i++) expect((await Promise.all([selectAll(first, 1), selectAll(first, 1)]))[0]?.rows).toEqual([{ id: 1, name: 'one' }]);

    await sql`ALTER TABLE prepared_probe ADD COLUMN extra int NOT NULL DEFAULT 7`.execute((second ?? first).db);
    for (let i = 0; i < 30; i++) expect((await Promise.all([selectAll(first, 1), selectAll(first, 1)]))[0]?.rows).toEqual([{ id: 1, name: 'one', extra: 7 }]);
  });

  it('report errors as before and keep working afterwards', async () => {
    await expect(sql`SELECT ${'x'}::int AS n`.execute(first.db)).rejects.toMatchObject({ code: '22P02' });
    await expect(sql`INSERT INTO prepared_probe VALUES (${1}, ${'again'})`.execute(first.db)).rejects.toMatchObject({ code: '23505' });
    await expect(sql`SELEC ${1}`.execute(first.db)).rejects.toMatchObject({ code: '42601' });
    expect((await sql<{ n: number }>`SELECT ${41}::int + 1 AS n`.execute(first.db)).rows).toEqual([{ n: 42 }]);
    await first.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO prepared_probe (id, name) VALUES (${2}, ${'two'})`.execute(trx);
    });
    expect((await selectAll(first, 2)).rows).toEqual([{ id: 2, name: 'two', extra: 7 }]);
  });
});
