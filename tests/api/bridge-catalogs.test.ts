import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { BridgeClient } from '../../server/plugins/bridgeClient';
import { catalogsOf } from '../../server/repositories/streamCatalogs';
import { RunnerBridge } from '../../server/runner/bridge';
import { createTestDatabase, type TestDatabase } from '../support/server';

// The runner bridge's 'catalog.save' (issue 37, item 6): a job keeps a discovered catalog only for
// the extractors its verify grant names, under the key the runner computed and in its own
// workspace; what is not a catalog, or too big a one, is refused and nothing is kept.

let database: TestDatabase;
let handle: Awaited<ReturnType<typeof openDatabase>>;
let bridge: RunnerBridge;
const workspaceId = randomUUID();
const CATALOG = { streams: [{ tap_stream_id: 'orders', key_properties: ['id'], schema: { properties: { id: { type: 'integer' }, total: { type: 'number' } } } }] };

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
  await handle.db.insertInto('workspaces').values({ id: workspaceId, name: 'Bridge catalogs', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
  bridge = new RunnerBridge(handle.db);
  await bridge.listen();
}, 60_000);
afterAll(async () => {
  await bridge?.close();
  await handle?.close();
  await database?.dispose();
});

async function save(grant: Parameters<RunnerBridge['grant']>[0], component: string, catalog: unknown): Promise<unknown> {
  const client = new BridgeClient(bridge.socketPath, bridge.grant(grant));
  try {
    return await client.request('catalog.save', { component, catalog });
  } finally {
    client.close();
  }
}

const job = (catalogKeys?: Record<string, string>) => ({ jobId: randomUUID(), workspaceId, pipelineId: randomUUID(), ...(catalogKeys ? { catalogKeys } : {}) });

describe("the bridge's catalog.save", () => {
  it("keeps a granted extractor's streams under the runner's key, in the job's workspace", async () => {
    expect(await save(job({ 'tap-a': 'key-a' }), 'tap-a', CATALOG)).toEqual({ streams: 1 });
    const [kept] = await catalogsOf(handle.db, workspaceId, ['key-a']);
    expect(kept?.streams).toEqual([{ name: 'orders', properties: [{ name: 'id', type: 'integer', automatic: true }, { name: 'total', type: 'number', automatic: false }] }]);
  });

  it('refuses a job without that grant: a run, or a verify of other extractors', async () => {
    await expect(save(job(), 'tap-a', CATALOG)).rejects.toThrow('does not discover the streams of tap-a');
    await expect(save(job({ 'tap-a': 'key-b' }), 'tap-b', CATALOG)).rejects.toThrow('does not discover the streams of tap-b');
    await expect(save(job({ 'tap-a': 'key-c' }), '__proto__', CATALOG)).rejects.toThrow('does not discover');
    expect(await catalogsOf(handle.db, workspaceId, ['key-b', 'key-c'])).toEqual([]);
  });

  it('refuses what is not a catalog, and keeps nothing of it', async () => {
    await expect(save(job({ 'tap-a': 'key-d' }), 'tap-a', { streams: 'all of them' })).rejects.toThrow('not a Singer catalog');
    await expect(save(job({ 'tap-a': 'key-d' }), 'tap-a', { streams: [{ schema: {} }] })).rejects.toThrow('no tap_stream_id');
    expect(await catalogsOf(handle.db, workspaceId, ['key-d'])).toEqual([]);
  });
});
