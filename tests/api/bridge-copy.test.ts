import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { storeDbOf } from '../../server/db/storeDatabase';
import { BridgeClient } from '../../server/plugins/bridgeClient';
import { createPipeline } from '../../server/repositories/pipelines';
import { enqueueJob } from '../../server/runner';
import { RunnerBridge } from '../../server/runner/bridge';
import { storeSchemaName } from '../../server/stores/defaultStore';
import { createTestDatabase, type TestDatabase } from '../support/server';

// The runner bridge's 'store.copy' (issue 39, item 1) from a client that is not our target-store:
// a job's processes are a stranger's code, and anything can speak the bridge with the job's token.
// Whatever it sends, the rows go into its stream's table only, or the batch is refused whole.

let database: TestDatabase;
let handle: Awaited<ReturnType<typeof openDatabase>>;
let bridge: RunnerBridge;
let client: BridgeClient;
const workspaceId = randomUUID();
const SCHEMA = { properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } } };

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
  await handle.db.insertInto('workspaces').values({ id: workspaceId, name: 'Bridge copy', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
  bridge = new RunnerBridge(handle.db);
  await bridge.listen();
  // a queued run of a pipeline: the batches it loads are counted in its job
  const pipeline = await createPipeline(handle.db, workspaceId, { name: 'copy', draft: false, script: 'true' });
  if (!pipeline.ok) throw new Error('pipeline not made');
  const queued = await enqueueJob(handle.db, pipeline.pipeline.id, { kind: 'MANUAL' });
  if (queued.status !== 'QUEUED') throw new Error(queued.status);
  client = new BridgeClient(bridge.socketPath, bridge.grant({ jobId: queued.job.id, workspaceId, pipelineId: pipeline.pipeline.id }));
  await client.request('store.prepare', { stream: 'people', schema: SCHEMA, keyProperties: ['id'] });
}, 60_000);
afterAll(async () => {
  client?.close();
  await bridge?.close();
  await handle?.close();
  await database?.dispose();
});

const rows = async () => (await sql<{ id: number; name: string | null }>`SELECT id::int AS id, name FROM ${sql.id(storeSchemaName(workspaceId), 'people')} ORDER BY id`.execute(storeDbOf(handle.db))).rows;
const copy = (payload: Record<string, unknown>, data?: string) => client.request('store.copy', payload, data === undefined ? undefined : Buffer.from(data));

describe("the bridge's store.copy", () => {
  it('refuses a batch without its rows, without a count, or for a stream that had no SCHEMA', async () => {
    await expect(copy({ stream: 'people', records: 1 })).rejects.toThrow('store.copy takes its rows as bytes after its line');
    for (const records of [-1, 1.5, '1', null, 100_001, 2 ** 53]) await expect(copy({ stream: 'people', records }, '1\tx\n')).rejects.toThrow('records must be a count of at most 100000');
    await expect(copy({ stream: 'nobody', records: 1 }, '1\tx\n')).rejects.toThrow('no SCHEMA for stream nobody');
    expect(await rows()).toEqual([]);
  });

  it('refuses rows that are not the table’s shape, and a batch that would write a key twice, keeping nothing of them', async () => {
    await expect(copy({ stream: 'people', records: 2 }, '1\tann\n2\tbob\textra\n')).rejects.toThrow();
    await expect(copy({ stream: 'people', records: 1 }, 'not a number\tann\n')).rejects.toThrow(/bigint/);
    await expect(copy({ stream: 'people', records: 1 }, '\\N\tno key\n')).rejects.toThrow(/null/);
    expect(await rows()).toEqual([]);
    // once the key is there the stream upserts; two rows of one key in one batch are refused whole
    await copy({ stream: 'people', records: 1 }, '1\tann\n');
    await copy({ stream: 'people', records: 1 }, '1\tAnn\n');
    await expect(copy({ stream: 'people', records: 2 }, '1\tx\n1\ty\n')).rejects.toThrow();
    expect(await rows()).toEqual([{ id: 1, name: 'Ann' }]);
  });

  it('reads SQL in the rows as text, never as a statement', async () => {
    const text = "x'); DROP TABLE people; --";
    await copy({ stream: 'people', records: 1 }, `2\t${text}\n`);
    expect(await rows()).toEqual([
      { id: 1, name: 'Ann' },
      { id: 2, name: text },
    ]);
  });
});

/** A raw connection to the bridge, as any process in any job's sandbox can open: what it is answered, and whether the bridge ended it. */
async function rawConnection(send: (socket: net.Socket) => void): Promise<{ replies: Array<{ ok: boolean; error?: string }>; ended: boolean }> {
  const socket = net.createConnection(bridge.socketPath);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const ended = new Promise<boolean>((resolve) => socket.once('end', () => resolve(true)));
  send(socket);
  const result = await Promise.race([ended, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
  socket.destroy();
  return { replies: text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { ok: boolean; error?: string }), ended: result };
}

describe('a connection to the runner bridge', () => {
  it('without a job token is answered once and ended, and may send no more than a token’s line before it', async () => {
    const noToken = await rawConnection((socket) => socket.write(`${JSON.stringify({ op: 'store.copy', stream: 'people', records: 1 })}\n`));
    expect(noToken).toEqual({ replies: [{ ok: false, error: 'unknown or expired job token' }], ended: true });
    const wrongToken = await rawConnection((socket) => socket.write(`${JSON.stringify({ token: 'f'.repeat(48) })}\n`));
    expect(wrongToken).toEqual({ replies: [{ ok: false, error: 'unknown or expired job token' }], ended: true });
    // a line past a token's length, or data, before a token is accepted: the framing ends the connection
    const long = await rawConnection((socket) => socket.write(`${JSON.stringify({ token: 'x'.repeat(5_000) })}\n`));
    expect(long).toEqual({ replies: [{ ok: false, error: 'request too large' }], ended: true });
    const data = await rawConnection((socket) => socket.write(`${JSON.stringify({ token: 'x', bytes: 1_000_000 })}\n${'1\tx\n'.repeat(10)}`));
    expect(data).toEqual({ replies: [{ ok: false, error: 'request too large' }], ended: true });
  });

  it('of a job that holds four already is refused, and a job may connect again once one closes', async () => {
    const pipeline = await createPipeline(handle.db, workspaceId, { name: 'many', draft: false, script: 'true' });
    if (!pipeline.ok) throw new Error('pipeline not made');
    const queued = await enqueueJob(handle.db, pipeline.pipeline.id, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    const token = bridge.grant({ jobId: queued.job.id, workspaceId, pipelineId: pipeline.pipeline.id });
    const clients = Array.from({ length: 4 }, () => new BridgeClient(bridge.socketPath, token));
    // no state saved: each connection is answered null
    for (const c of clients) expect(await c.request('state.get', { stateId: 's' })).toBeNull();
    const fifth = await rawConnection((socket) => socket.write(`${JSON.stringify({ token })}\n`));
    expect(fifth).toEqual({ replies: [{ ok: false, error: 'a job may hold at most 4 connections to the runner bridge' }], ended: true });
    clients[0]!.close();
    // the bridge learns of the close when its socket does: asked again until then (a loaded host)
    let again: BridgeClient | undefined;
    for (let tries = 0; again === undefined; tries++) {
      const client = new BridgeClient(bridge.socketPath, token);
      if ((await client.request('state.get', { stateId: 's' }).then(() => true, () => false)) || tries === 50) again = client;
      else {
        client.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(await again.request('state.get', { stateId: 's' })).toBeNull();
    for (const c of [...clients, again]) c.close();
  });
});
