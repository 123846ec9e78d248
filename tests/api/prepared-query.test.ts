import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryPrepared } from '../../server/db/prepared-query';
import '../../server/db/database';
import { createTestDatabase, type TestDatabase } from '../support/server';

// server/db/prepared-query.ts on a real PostgreSQL connection (the embedded database has its own
// pool, db/pglite-pool.ts): rows as node-postgres reads them, the statement described once per
// connection, and a connection that keeps working after every kind of failure.

const postgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!postgres)('a prepared query', () => {
  let database: TestDatabase;
  let client: pg.Client;
  let describes = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const connection = (client as unknown as { connection: { describe(message: unknown): void } }).connection;
    const describe = connection.describe.bind(connection);
    connection.describe = (message) => {
      describes += 1;
      describe(message);
    };
    await client.query('CREATE TABLE probe (id int PRIMARY KEY, name text, at timestamptz, big bigint, doc jsonb)');
  });
  afterAll(async () => {
    await client?.end();
    await database?.dispose();
  });

  const run = (name: string, text: string, values: unknown[]) => queryPrepared(client, name, text, values);

  it('reads rows as node-postgres does, describing the statement once on its connection', async () => {
    const text = 'SELECT $1::int AS n, $2::text AS t, NULL::int AS missing, $3::timestamptz AS at, $4::bigint AS big, $5::jsonb AS doc';
    const at = new Date('2026-11-27T09:15:19.123Z');
    const viaQuery = (await client.query(text, [7, 'seven', at, 9007199254740991, { a: [1] }])).rows;
    const before = describes;
    for (let i = 0; i < 3; i++) {
      const result = await run('p_read', text, [7, 'seven', at, 9007199254740991, { a: [1] }]);
      expect(result.rows).toEqual(viaQuery);
      expect(result.rows).toEqual([{ n: 7, t: 'seven', missing: null, at, big: 9007199254740991, doc: { a: [1] } }]);
      expect(result.command).toBe('SELECT');
      expect(result.rowCount).toBe(1);
    }
    expect(describes - before).toBe(1);
  });

  it('keeps columns node-postgres keeps: the later of two with one name, and one named __proto__ as a property', async () => {
    const result = await run('p_names', 'SELECT $1::int AS a, $2::int AS a, $3::text AS "__proto__"', [1, 2, 'x']);
    const row = result.rows[0]!;
    expect(row.a).toBe(2);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it('answers writes without rows with their counts, describing them once too', async () => {
    const before = describes;
    expect(await run('p_insert', 'INSERT INTO probe (id, name) VALUES ($1, $2)', [1, 'one'])).toMatchObject({ command: 'INSERT', rowCount: 1, rows: [] });
    expect(await run('p_insert', 'INSERT INTO probe (id, name) VALUES ($1, $2)', [2, 'two'])).toMatchObject({ command: 'INSERT', rowCount: 1, rows: [] });
    expect(await run('p_update', 'UPDATE probe SET name = $1 WHERE id <= $2', ['many', 2])).toMatchObject({ command: 'UPDATE', rowCount: 2, rows: [] });
    expect(describes - before).toBe(2);
    expect((await run('p_rows', 'SELECT id, name FROM probe WHERE id <= $1 ORDER BY id', [5])).rows).toEqual([
      { id: 1, name: 'many' },
      { id: 2, name: 'many' },
    ]);
  });

  it('fails as PostgreSQL says and keeps the connection working', async () => {
    await expect(run('p_cast', 'SELECT $1::int AS n', ['x'])).rejects.toMatchObject({ code: '22P02' });
    expect((await run('p_cast', 'SELECT $1::int AS n', ['5'])).rows).toEqual([{ n: 5 }]);
    await expect(run('p_syntax', 'SELEC $1', [1])).rejects.toMatchObject({ code: '42601' });
    await expect(run('p_insert', 'INSERT INTO probe (id, name) VALUES ($1, $2)', [1, 'again'])).rejects.toMatchObject({ code: '23505' });
    expect((await run('p_read_again', 'SELECT $1::int + 1 AS n', [41])).rows).toEqual([{ n: 42 }]);
  });

  it('refuses a value it cannot encode before sending anything, and the connection goes on', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(run('p_json', 'SELECT $1::jsonb AS doc', [circular])).rejects.toThrow();
    expect((await run('p_json', 'SELECT $1::jsonb AS doc', [{ ok: true }])).rows).toEqual([{ doc: { ok: true } }]);
  });

  it('fails with 0A000 when the table changed under a cached plan; a statement prepared afresh reads the new columns', async () => {
    const text = 'SELECT * FROM probe WHERE id = $1';
    for (let i = 0; i < 8; i++) expect((await run('p_star', text, [1])).rows).toEqual([{ id: 1, name: 'many', at: null, big: null, doc: null }]);
    await client.query('ALTER TABLE probe ADD COLUMN extra int NOT NULL DEFAULT 7');
    await expect(run('p_star', text, [1])).rejects.toMatchObject({ code: '0A000' });
    // a new statement name (a new connection in the pool) reads the new shape
    expect((await run('p_star_new', text, [1])).rows).toEqual([{ id: 1, name: 'many', at: null, big: null, doc: null, extra: 7 }]);
  });
});
