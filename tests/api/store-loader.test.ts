import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { storeDbOf } from '../../server/db/storeDatabase';
import { loadRecords, prepareTable } from '../../server/stores/loader';
import { tableShapeOf } from '../../server/stores/tableShape';
import { createTestDatabase, type TestDatabase } from '../support/server';

// The store's loader (issue 39): a batch is one statement whose rows travel as JSON text, cast
// column by column. What comes back is what was sent, on PGlite and on PostgreSQL, whatever text.

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

describe('loadRecords', () => {
  it('stores each type as sent, nulls as null, and the last record of a key', async () => {
    const loaded = await store()
      .transaction()
      .execute((trx) =>
        loadRecords(trx, SCHEMA, SHAPE, [
          { id: 1, name: 'first', amount: 1.5, flag: true, at: '2026-11-29T06:00:00Z', day: '2026-11-29', meta: { a: [1, 'x'] } },
          { id: 2, name: null, amount: null, flag: null, at: null, day: null, meta: null },
          { id: 1, name: 'again', amount: -0.25, flag: false, at: '2026-11-29T07:00:00.5Z', day: '2026-01-02', meta: { b: true } },
          { id: 3 },
        ]),
      );
    expect(loaded).toBe(4);
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
        await store()
          .transaction()
          .execute((trx) => loadRecords(trx, SCHEMA, SHAPE, names.map((name, id) => ({ id, name: `${name}\u0000"'\\` }))));
        expect((await rows()).map((r) => r.name)).toEqual(names.map((name) => `${name}\uFFFD"'\\`));
      }),
      { numRuns: 25 },
    );
  });

  it('refuses a value its column cannot hold, and loads nothing of that batch', async () => {
    await sql`TRUNCATE ${sql.id(SCHEMA, 'every_type')}`.execute(store());
    const batch = store()
      .transaction()
      .execute((trx) => loadRecords(trx, SCHEMA, SHAPE, [{ id: 1, amount: 2 }, { id: 2, amount: 'not a number' }]));
    await expect(batch).rejects.toThrow(/double precision/);
    expect(await rows()).toEqual([]);
  });
});
