import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO } from '../../server/seed';
import type * as SqlParser from '../../server/stores/sqlParser';
import { REL } from '../../src/domain/relations';
import { hasLink, linkOf } from './helpers/http';
import { makePipeline, runLoad, type StreamLoad } from './helpers/storeLoads';
import { login, startWorld, type World } from './helpers/world';

// Issue 18: one load of the dataset page parses its dataset's SQL once. Every call into the SQL
// parser (server/stores/sqlParser.ts: parse and scan) is counted while the page's requests run,
// in the order the page makes them: the dataset, its view, its data, and the side panel's
// comments, alerts and related datasets.

const calls = vi.hoisted(() => [] as { fn: 'parse' | 'scan'; text: string }[]);
vi.mock('../../server/stores/sqlParser', async (importOriginal) => {
  const real = await importOriginal<typeof SqlParser>();
  return {
    parse: (text: string) => (calls.push({ fn: 'parse', text }), real.parse(text)),
    scan: (text: string) => (calls.push({ fn: 'scan', text }), real.scan(text)),
  };
});

const ORDERS: StreamLoad = {
  stream: 'orders',
  key: ['id'],
  schema: { type: 'object', properties: { id: { type: ['string'] }, status: { type: ['string'] } } },
  records: [{ id: 'o1', status: 'completed' }, { id: 'o2', status: 'shipped' }],
};

let world: World;
let alias: string;
// Written straight into the table, so no publish or job end has parsed this text before the page does.
const query = `SELECT status, count(*) AS orders, '${randomUUID()}' AS marker FROM orders GROUP BY status ORDER BY status`;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  await runLoad(world, await makePipeline(world, 'Parse count loads'), [ORDERS]);
  alias = `parse-count-${randomUUID().slice(0, 8)}`;
  await world.server.db.insertInto('datasets').values({ id: randomUUID(), workspace_id: DEMO.workspaceId, title: 'Parse count', alias, query, description_content_type: 'text/markdown' }).execute();
}, 120_000);
afterAll(() => world?.close());

/** The requests of one dataset page load; the number of requests made. */
async function pageLoad(): Promise<number> {
  const api = world.member.api;
  const dataset = await api.get(`/api/workspaces/${DEMO.workspaceId}/datasets/${alias}`);
  expect(dataset.status).toBe(200);
  expect(dataset.body.freshness).toMatchObject({ tables: ['orders'], missingTables: [] });
  let requests = 1;
  expect((await api.call('PUT', linkOf(dataset.body, REL.viewDataset))).status).toBe(204);
  const data = await api.get(linkOf(dataset.body, REL.data));
  expect(data.status).toBe(200);
  expect(data.body).toHaveLength(2);
  requests += 2;
  for (const rel of [REL.comments, REL.alerts, REL.related]) {
    if (!hasLink(dataset.body, rel)) continue;
    expect((await api.get(linkOf(dataset.body, rel))).status).toBe(200);
    requests += 1;
  }
  return requests;
}

function tally() {
  const ofQuery = calls.filter((call) => call.text.includes(query));
  return {
    all: calls.length,
    parsesOfQuery: ofQuery.filter((call) => call.fn === 'parse').length,
    scansOfQuery: ofQuery.filter((call) => call.fn === 'scan').length,
    exactQueryParses: calls.filter((call) => call.fn === 'parse' && call.text === query).length,
  };
}

describe('one dataset page load', () => {
  it('parses the dataset’s SQL once, and a second load not at all', async () => {
    calls.length = 0;
    const requests = await pageLoad();
    const first = tally();
    calls.length = 0;
    await pageLoad();
    const second = tally();
    console.info(`dataset page load: ${requests} requests; first load ${JSON.stringify(first)}; second load ${JSON.stringify(second)}`);
    // The query itself at most once (a job ending meanwhile may have checked it first); the
    // runner's DECLARE around it once more, its own proof, also kept. Other datasets' parses (a
    // job's end checks them all) are not this page's, so only texts holding the query count.
    expect(first.exactQueryParses).toBeLessThanOrEqual(1);
    expect(first.scansOfQuery).toBeLessThanOrEqual(1);
    expect(first.parsesOfQuery).toBeLessThanOrEqual(2);
    expect(second.parsesOfQuery + second.scansOfQuery).toBe(0);
  });
});
