import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { storeDbOf } from '../../server/db/storeDatabase';
import { copyRecords, prepareTable, type CopyMode } from '../../server/stores/loader';
import { CopyBatch } from '../../server/stores/copyText';
import { tableShapeOf } from '../../server/stores/tableShape';
import { createTestDatabase, type TestDatabase } from '../support/server';

// The store's loader (issue 39): a batch travels as COPY's text format (copyText.ts) and is
// copied straight in, or staged and upserted once a key is there already. What comes back is
// what was sent, on PGlite and on PostgreSQL, whatever text.

let database: TestDatabase;
let handle: Awaited<ReturnType<typeof openDatabase>>;
const SCHEMA = 'loader_test';
const store = () => storeDbOf(handle.db);

const SHAPE = tableShapeOf(
  'every_type',
  {
    properties: {
      id: { type: ['integer'] },
      name: { type: ['string', 'null'] },
      amount: { type: ['number', 'null'] },
      flag: { type: ['boolean', 'null'] },
      at: { type: ['string', 'null'], format: 'date-time' },
      day: { type: ['string', 'null'], format: 'date' },
      meta: { type: ['object', 'null'] },
    },
  },
  ['id'],
);

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
  await sql`CREATE SCHEMA ${sql.id(SCHEMA)}`.execute(store());
  await prepareTable(store(), SCHEMA, SHAPE);
}, 60_000);
afterAll(async () => {
  await handle?.close();
  await database?.dispose();
});

const rows = async () => (await sql<Record<string, unknown>>`SELECT id::int AS id, name, amount, flag, at, day::text AS day, meta FROM ${sql.id(SCHEMA, 'every_type')} ORDER BY id`.execute(store())).rows;

/** Loads records as the loaders do: one batch of COPY rows, in one transaction; the rows written and how. */
function loadRecords(records: Record<string, unknown>[], mode?: CopyMode) {
  const batch = new CopyBatch(SHAPE);
  for (const record of records) batch.add(record);
  const { data } = batch.take();
  return store()
    .transaction()
    .execute((trx) => copyRecords(trx, SCHEMA, SHAPE, data, mode));
}

describe('copyRecords', () => {
  it('stores each type as sent, nulls as null, and the last record of a key', async () => {
    const loaded = await loadRecords([
      { id: 1, name: 'first', amount: 1.5, flag: true, at: '2026-11-29T06:00:00Z', day: '2026-11-29', meta: { a: [1, 'x'] } },
      { id: 2, name: null, amount: null, flag: null, at: null, day: null, meta: null },
      { id: 1, name: 'again', amount: -0.25, flag: false, at: '2026-11-29T07:00:00.5Z', day: '2026-01-02', meta: { b: true } },
      { id: 3 },
    ]);
    // three rows: the two records of key 1 were one row, the later one
    expect(loaded).toEqual({ rows: 3, mode: 'insert' });
    expect(await rows()).toEqual([
      { id: 1, name: 'again', amount: -0.25, flag: false, at: new Date('2026-11-29T07:00:00.500Z'), day: '2026-01-02', meta: { b: true } },
      { id: 2, name: null, amount: null, flag: null, at: null, day: null, meta: null },
      { id: 3, name: null, amount: null, flag: null, at: null, day: null, meta: null },
    ]);
  });

  it('keeps any text exactly (a NUL, which PostgreSQL cannot store, becomes U+FFFD)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 20 }), async (names) => {
        await sql`TRUNCATE ${sql.id(SCHEMA, 'every_type')}`.execute(store());
        await loadRecords(names.map((name, id) => ({ id, name: `${name}\u0000"'\\\t\n\r\\N\\.` })));
        expect((await rows()).map((r) => r.name)).toEqual(names.map((name) => `${name}\uFFFD"'\\\t\n\r\\N\\.`));
      }),
      { numRuns: 25 },
    );
  });

  it('refuses a value its column cannot hold, and loads nothing of that batch', async () => {
    await sql`TRUNCATE ${sql.id(SCHEMA, 'every_type')}`.execute(store());
    await expect(loadRecords([{ id: 1, amount: 2 }, { id: 2, amount: 'not a number' }])).rejects.toThrow(/double precision/);
    expect(await rows()).toEqual([]);
    // and a batch refused on the upsert path leaves the rows before it as they were
    await loadRecords([{ id: 1, amount: 2 }]);
    await expect(loadRecords([{ id: 1, amount: 3 }, { id: 2, amount: 'not a number' }], 'upsert')).rejects.toThrow(/double precision/);
    expect((await rows()).map((r) => [r.id, r.amount])).toEqual([[1, 2]]);
  });

  it('copies straight in while no key is there, and upserts from the first batch that meets one', async () => {
    await sql`TRUNCATE ${sql.id(SCHEMA, 'every_type')}`.execute(store());
    expect(await loadRecords([{ id: 1, name: 'a' }, { id: 2, name: 'b' }])).toEqual({ rows: 2, mode: 'insert' });
    // key 2 is there: the straight copy is rolled back whole, and the batch upserted
    expect(await loadRecords([{ id: 2, name: 'B' }, { id: 3, name: 'c' }])).toEqual({ rows: 2, mode: 'upsert' });
    // once upserting, a stream goes on upserting, even with new keys only
    expect(await loadRecords([{ id: 4, name: 'd' }], 'upsert')).toEqual({ rows: 1, mode: 'upsert' });
    expect((await rows()).map((r) => [r.id, r.name])).toEqual([
      [1, 'a'],
      [2, 'B'],
      [3, 'c'],
      [4, 'd'],
    ]);
  });

  it('copies a table without a key straight in, every record a row', async () => {
    const shape = tableShapeOf('no_key', { properties: { n: { type: ['integer'] }, t: { type: ['string', 'null'] } } }, []);
    await prepareTable(store(), SCHEMA, shape);
    const batch = new CopyBatch(shape);
    for (const record of [{ n: 1, t: 'x' }, { n: 1, t: 'x' }, { n: 2 }]) batch.add(record);
    const { data } = batch.take();
    expect(await store().transaction().execute((trx) => copyRecords(trx, SCHEMA, shape, data))).toEqual({ rows: 3, mode: 'insert' });
    expect((await sql<{ n: number; t: string | null }>`SELECT n::int AS n, t FROM ${sql.id(SCHEMA, 'no_key')} ORDER BY n, t`.execute(store())).rows).toEqual([
      { n: 1, t: 'x' },
      { n: 1, t: 'x' },
      { n: 2, t: null },
    ]);
  });
});
