import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_STORE_PLUGIN } from '../../src/domain/dataStores';
import { createDataStore, getDataStore, makeDefaultStore } from '../../server/repositories/dataStores';
import { enqueueJob, enqueueStoreCheck, type RunnerLog } from '../../server/runner';
import { parseAllowList, type AllowList } from '../../server/security/netPolicy';
import { STORE_UNREACHABLE } from '../../server/stores/postgresStore';
import { freePort } from '../support/server';
import { logOf, quiet, startBench, waitForStatus, type Bench } from './helpers';

// A data-store check is the server connecting somewhere a workspace admin chose. Tried as a port
// scan of the host: a store at 127.0.0.1 on a port with a listener and on a closed port must end
// the same way, with the same words, and the listener must never see a connection.

const allow = (text: string): AllowList => {
  const parsed = parseAllowList(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.list;
};

/** A TCP listener that counts connections and hangs up on each (what a non-PostgreSQL service looks like to a client). */
async function listener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Scan {
  bench: Bench;
  warnings: Array<Record<string, unknown>>;
}

async function scanBench(allowedHosts: AllowList | undefined): Promise<Scan> {
  const bench = await startBench();
  const warnings: Array<Record<string, unknown>> = [];
  const log: RunnerLog = { ...quiet, warn: (obj) => void warnings.push(obj as Record<string, unknown>) };
  await bench.startRunner({ log, ...(allowedHosts ? { storeAllowedHosts: allowedHosts } : {}) });
  return { bench, warnings };
}

let names = 0;
async function check(bench: Bench, host: string, port: number) {
  const created = await createDataStore(bench.db, bench.workspaceId, {
    name: `scan ${++names}`,
    dataPlugin: POSTGRES_STORE_PLUGIN,
    properties: { host, port, database: 'postgres', user: 'postgres', password: 'pw' },
    draft: false,
  });
  if (!created.ok) throw new Error('store name taken');
  const queued = await enqueueStoreCheck(bench.db, created.store, null);
  const job = await waitForStatus(bench.db, queued!.id, ['COMPLETE', 'ERROR', 'STOPPED'], 30_000);
  const store = (await getDataStore(bench.db, created.store.id))!;
  // What the user can see of the check: the job's status, the store's state and message, and the log without its first
  // line (which runner ran it) and the echo of the settings they typed themselves.
  const log = (await logOf(bench.db, job.id)).filter((line) => !line.startsWith('Job started on') && !line.startsWith('Checking data store') && !line.startsWith('Connecting to'));
  return { job: job.status, state: store.status, message: store.status_message, log, storeId: store.id };
}

describe('a data-store check is no port scanner (nothing allowed: the default)', () => {
  let scan: Scan;
  let open: Awaited<ReturnType<typeof listener>>;
  beforeAll(async () => {
    scan = await scanBench(undefined);
    open = await listener();
  });
  afterAll(async () => {
    await open?.close();
    await scan?.bench.close();
  });

  it('answers a listening and a closed loopback port alike, and never connects', async () => {
    const closed = await freePort();
    const listening = await check(scan.bench, '127.0.0.1', open.port);
    const shut = await check(scan.bench, '127.0.0.1', closed);
    const expected = { job: 'ERROR', state: 'FAILED', message: STORE_UNREACHABLE, log: [`Connection check failed: ${STORE_UNREACHABLE}`, 'Job ended ERROR (exit code 1).'] };
    expect(listening).toMatchObject(expected);
    expect(shut).toMatchObject(expected);
    expect(open.connections()).toBe(0);
    // The server's log has the reason.
    expect(scan.warnings.find((w) => w.dataStoreId === listening.storeId)?.reason).toMatch(/refused by the network policy: 127\.0\.0\.1 is a loopback address/);
  });

  it('refuses the other spellings of the host and the private and metadata ranges the same way', async () => {
    for (const host of ['localhost', '0x7f.1', '2130706433', '[::ffff:127.0.0.1]', '::1', '0.0.0.0', '169.254.169.254', '10.0.0.1']) {
      expect(await check(scan.bench, host, open.port), host).toMatchObject({ job: 'ERROR', message: STORE_UNREACHABLE, log: [`Connection check failed: ${STORE_UNREACHABLE}`, 'Job ended ERROR (exit code 1).'] });
    }
    expect(open.connections()).toBe(0);
  });

  it('ends a pipeline that would load into a refused default store before it starts, with the same neutral line', async () => {
    const { bench } = scan;
    const created = await createDataStore(bench.db, bench.workspaceId, {
      name: 'loopback default',
      dataPlugin: POSTGRES_STORE_PLUGIN,
      properties: { host: '127.0.0.1', port: open.port, database: 'postgres', user: 'postgres', password: 'pw' },
      draft: false,
    });
    if (!created.ok) throw new Error('store name taken');
    await makeDefaultStore(bench.db, created.store);
    await bench.component({ name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: 'builtin' });
    await bench.component({ name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' });
    const pipeline = await bench.pipeline({ name: 'into a loopback store', dataComponents: ['tap-demo', 'target-store'] });
    const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 30_000);
    const log = await logOf(bench.db, job.id);
    expect(job.status).toBe('ERROR');
    expect(log).toContain(`${STORE_UNREACHABLE} The run cannot load into loopback default.`);
    expect(log.some((line) => line.includes('tap-demo |') || line.includes('meltano |'))).toBe(false);
    expect(open.connections()).toBe(0);
    expect(scan.warnings.some((w) => w.jobId === job.id && /loopback/.test(String(w.reason)))).toBe(true);
  });
});

describe('a data-store check to an allowed host says one thing of every failure', () => {
  let scan: Scan;
  let open: Awaited<ReturnType<typeof listener>>;
  beforeAll(async () => {
    scan = await scanBench(allow('127.0.0.1'));
    open = await listener();
  });
  afterAll(async () => {
    await open?.close();
    await scan?.bench.close();
  });

  it('a listener that hangs up and a closed port read the same; only the server log tells them apart', async () => {
    const closed = await freePort();
    const listening = await check(scan.bench, '127.0.0.1', open.port);
    const shut = await check(scan.bench, '127.0.0.1', closed);
    expect(open.connections()).toBe(1);
    const expected = { job: 'ERROR', state: 'FAILED', message: STORE_UNREACHABLE, log: [`Connection check failed: ${STORE_UNREACHABLE}`, 'Job ended ERROR (exit code 1).'] };
    expect(listening).toMatchObject(expected);
    expect(shut).toMatchObject(expected);
    expect(scan.warnings.find((w) => w.dataStoreId === listening.storeId)?.reason).toMatch(/terminated|closed|ECONNRESET/i);
    expect(scan.warnings.find((w) => w.dataStoreId === shut.storeId)?.reason).toMatch(/ECONNREFUSED/);
  });
});
