import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { RunnerBridge } from './bridge';

// The bridge's bound on what one job may have sent and not yet had answered (2 × 64 MB): a job's
// process is a stranger's, and one that writes batches without reading its answers must be read no
// further, or the server would hold every byte it sends. Here the database is a double that holds
// its answers until the test lets them go, so nothing but that bound can stop the reading.

const MB = 1024 * 1024;
const BATCH = 48 * MB;

/** A database whose every `state.get` answers only when `release()` is called. */
function heldDatabase(): { db: Db; asked: () => number; release: () => void } {
  let asked = 0;
  let release!: () => void;
  const held = new Promise<undefined>((resolve) => (release = () => resolve(undefined)));
  const query = { select: () => query, where: () => query, executeTakeFirst: () => ((asked += 1), held) };
  return { db: { selectFrom: () => query } as unknown as Db, asked: () => asked, release };
}

let bridge: RunnerBridge | undefined;
let client: net.Socket | undefined;
afterEach(async () => {
  // the bridge closes once its connections have
  client?.destroy();
  await bridge?.close();
  bridge = client = undefined;
});

/** Resolves once `check` holds, looked at on each turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('a job that sends without reading its answers', () => {
  it('is read no further past 128 MB unanswered, and read again as its answers go out', async () => {
    const database = heldDatabase();
    bridge = new RunnerBridge(database.db, 1_000);
    await bridge.listen();
    let served: net.Socket | undefined;
    (Reflect.get(bridge, 'server') as net.Server).on('connection', (socket) => (served = socket));
    const token = bridge.grant({ jobId: 'job', workspaceId: 'workspace', pipelineId: 'pipeline' });

    client = net.createConnection(bridge.socketPath);
    const replies: unknown[] = [];
    let text = '';
    client.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const lines = text.split('\n');
      text = lines.pop()!;
      replies.push(...lines.map((line) => JSON.parse(line) as unknown));
    });
    client.write(`${JSON.stringify({ token })}\n`);
    await until(() => replies.length === 1);
    expect(replies).toEqual([{ ok: true, result: { jobId: 'job' } }]);

    // five batches of 48 MB, written without waiting: three of them (144 MB) pass the bound
    const batch = Buffer.alloc(BATCH, 0x61);
    for (let i = 0; i < 5; i++) {
      client.write(`${JSON.stringify({ op: 'state.get', stateId: 's', bytes: BATCH })}\n`);
      client.write(batch);
    }
    await until(() => (served?.bytesRead ?? 0) >= 3 * BATCH);
    expect(served!.isPaused()).toBe(true);
    // the first batch is being answered; the rest wait, and nothing past the third was taken whole
    expect(database.asked()).toBe(1);
    expect(served!.bytesRead).toBeLessThan(4 * BATCH);

    database.release();
    await until(() => replies.length === 6);
    expect(replies.slice(1)).toEqual(Array.from({ length: 5 }, () => ({ ok: true, result: null })));
    expect(served!.bytesRead).toBeGreaterThan(5 * BATCH);
    expect(served!.isPaused()).toBe(false);
  }, 60_000);
});
