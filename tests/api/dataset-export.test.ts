import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import type { CheckedQuery } from '../../server/stores/queryGuard';
import { exportCsv, QueryFailed } from '../../server/stores/queryRunner';
import { REL } from '../../src/domain/relations';
import { linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

// Issue 21, CSV exports: the database writes each row's CSV line (server/stores/csvSql.ts), so
// every type must come out as the JavaScript formatting (src/domain/csv.ts) wrote it before; the
// value cap still refuses a query; and a reader that takes nothing makes the export wait instead
// of reading on into the server's memory. The time limit and a client leaving are tested in
// dataset-isolation.test.ts.

const ws = DEMO.workspaceId;
let world: World;

beforeAll(async () => {
  world = await startWorld();
  await login(world.owner);
}, 120_000);
afterAll(() => world?.close());

async function exportOf(title: string, query: string): Promise<Response> {
  const created = await world.owner.api.call('POST', `/api/workspaces/${ws}/datasets`, { title, query });
  expect(created.status).toBe(201);
  return fetch(linkOf(created.body, REL.data), { headers: { authorization: `Bearer ${world.owner.token}`, accept: 'text/csv' } });
}

describe('a CSV export formatted by the database', () => {
  it('writes every type as the JavaScript formatting did: numbers, booleans, ISO dates in UTC, JSON arrays, defused and quoted text, NULL empty', async () => {
    const response = await exportOf(
      'all types',
      `SELECT 1 AS i, 9007199254740993::bigint AS big, 0.1::float8 AS f, 2.50::numeric AS n, true AS yes, false AS no, NULL::text AS nothing,
        '=1+1' AS formula, 'a,"b"' || chr(10) || 'c' AS quoted, '@x,y' AS both, 'plain' AS plain,
        timestamptz '2024-05-06 07:08:09.123+02' AS at, date '2024-05-06' AS d, timestamp '2024-05-06 07:08:09.5' AS ts,
        ARRAY[1, 2] AS arr, ARRAY['x,y'] AS words, chr(9) || 'tab' AS tab, NULL::int AS missing`,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      'i,big,f,n,yes,no,nothing,formula,quoted,both,plain,at,d,ts,arr,words,tab,missing\r\n' +
        '1,9007199254740993,0.1,2.50,true,false,,\'=1+1,"a,""b""\nc","\'@x,y",plain,2024-05-06T05:08:09.123Z,2024-05-06T00:00:00.000Z,2024-05-06T07:08:09.500Z,"[1,2]","[""x,y""]",\'\ttab,\r\n',
    );
  });

  it('keeps every column of a result with repeated names, and sends nothing for no rows', async () => {
    const repeated = await exportOf('repeated names', "SELECT 1 AS a, 'two' AS a, 3");
    expect(await repeated.text()).toBe('a,a,?column?\r\n1,two,3\r\n');
    const none = await exportOf('no rows', 'SELECT g FROM generate_series(1, 0) g');
    expect(none.status).toBe(200);
    expect(await none.text()).toBe('');
  });

  it('keeps the row order of the query across batches', async () => {
    const response = await exportOf('ordered', 'SELECT g FROM generate_series(1, 25000) g ORDER BY g DESC');
    const lines = (await response.text()).split('\r\n');
    expect(lines).toHaveLength(25_002);
    expect(lines.slice(0, 3)).toEqual(['g', '25000', '24999']);
    expect(lines.slice(-2)).toEqual(['1', '']);
  });

  it('refuses a value over the cap (422, naming the column) before anything is sent', async () => {
    const response = await exportOf('too big', "SELECT 1 AS small, repeat('x', 2000000) AS big");
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toMatch(/column big is larger than 1 MB/);
  });
});

describe('back-pressure', () => {
  it('writes one batch to a reader that takes nothing, waits, and frees the connection when the reader goes', async () => {
    const offered: number[] = [];
    // a client that accepts nothing: its write callbacks are never called, so it never drains
    const stalled = new Writable({ highWaterMark: 1024, write: (chunk: Buffer) => void offered.push(chunk.length) });
    // the export destroys its stream with the reason when it stops; a response would report it
    stalled.on('error', () => undefined);
    const leave = new AbortController();
    const query: CheckedQuery = { text: 'SELECT a, md5(a::text) FROM generate_series(1, 1000000) a', tables: [] };
    const exported = exportCsv(world.server.db, ws, query, { timeoutMs: 60_000 }, leave.signal, () => stalled);
    const failed = exported.catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // one write of the first batch (1,000 rows), then nothing: the rest stays in the database
    expect(offered).toHaveLength(1);
    expect(offered[0]).toBeLessThan(100_000);
    leave.abort();
    const error = await failed;
    expect(error).toBeInstanceOf(QueryFailed);
    expect((error as Error).message).toMatch(/client went away/);
    // the connection is free again (on PGlite the only one)
    const preview = await world.owner.api.call('POST', `/api/workspaces/${ws}/datasets/preview`, { query: 'SELECT 1 AS one' });
    expect(preview.body.rows).toEqual([{ one: 1 }]);
  });
});
