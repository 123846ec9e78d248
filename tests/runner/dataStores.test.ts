import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunnerSettings } from '../../server/runner/config';
import { POSTGRES_STORE_PLUGIN } from '../../src/domain/dataStores';
import { createDataStore, getDataStore, makeDefaultStore } from '../../server/repositories/dataStores';
import { enqueueJob, enqueueStoreCheck } from '../../server/runner';
import { parseAllowList } from '../../server/security/netPolicy';
import { ensureDefaultStore } from '../../server/stores/defaultStore';
import { STORE_UNREACHABLE } from '../../server/stores/postgresStore';
import { freePort } from '../support/server';
import { logOf, startBench, waitFor, waitForStatus, type Bench } from './helpers';

// A data store's connection check runs as a DATASTORE_VERIFY job of the real runner, and a
// PostgreSQL default store receives the rows of pipelines whose loader is target-store. The
// checks that need a PostgreSQL server use the one TEST_DATABASE_URL names (127.0.0.1:5432 in CI).

const adminUrl = process.env.TEST_DATABASE_URL;
const postgres = Boolean(adminUrl);

/** The connection settings of the test server's PostgreSQL, loading into `schema`. */
function settingsFor(schema: string): Record<string, unknown> {
  const url = new URL(adminUrl!);
  return { host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1) || 'postgres', user: decodeURIComponent(url.username), ...(url.password ? { password: decodeURIComponent(url.password) } : {}), schema };
}

describe('data store checks and loads', () => {
  let bench: Bench;
  const schema = `ds_runner_${Date.now().toString(36)}`;
  beforeAll(async () => {
    bench = await startBench();
    await ensureDefaultStore(bench.db, bench.workspaceId);
    // The test's PostgreSQL is on this machine: a private host the operator allows (STORE_ALLOWED_HOSTS).
    const allowed = parseAllowList(['127.0.0.1', adminUrl ? new URL(adminUrl).hostname : ''].join(','));
    if (!allowed.ok) throw new Error(allowed.error);
    // The job sandbox never reaches the host's loopback, where this test's PostgreSQL listens: the
    // loads here run unsandboxed (RUNNER_SANDBOX=off), as a trusted single-team install would; the
    // sandbox's own refusals are tested in sandbox.test.ts.
    await bench.startRunner({ storeAllowedHosts: allowed.list, sandbox: loadRunnerSettings({ RUNNER_SANDBOX: 'off' }).sandbox });
  });
  afterAll(async () => {
    await bench?.close();
    if (adminUrl) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });

  const check = async (name: string, properties: Record<string, unknown>) => {
    const created = await createDataStore(bench.db, bench.workspaceId, { name, dataPlugin: POSTGRES_STORE_PLUGIN, properties, draft: false });
    if (!created.ok) throw new Error('store name taken');
    const job = await enqueueStoreCheck(bench.db, created.store, null);
    expect(job?.type).toBe('DATASTORE_VERIFY');
    const ended = await waitForStatus(bench.db, job!.id, ['COMPLETE', 'ERROR', 'STOPPED'], 30_000);
    return { job: ended, store: (await getDataStore(bench.db, created.store.id))!, log: await logOf(bench.db, job!.id) };
  };

  it('ends FAILED, saying only that it could not connect (never why), against a closed port', async () => {
    const port = await freePort();
    const { job, store, log } = await check('Closed port', { host: '127.0.0.1', port, database: 'test', user: 'postgres', password: 'pw' });
    expect(job.status, log.join('\n')).toBe('ERROR');
    expect(store.status).toBe('FAILED');
    expect(store.status_message).toBe(STORE_UNREACHABLE);
    expect(log).toContain(`Connection check failed: ${STORE_UNREACHABLE}`);
    expect(log.join('\n')).not.toMatch(/ECONNREFUSED|pw/);
  });

  it.runIf(postgres)('ends READY against the local PostgreSQL, creating the store schema', async () => {
    const { job, store, log } = await check('Local PostgreSQL', settingsFor(schema));
    expect(job.status, log.join('\n')).toBe('COMPLETE');
    expect(store.status).toBe('READY');
    expect(log.join('\n')).toContain(`Schema ${schema} is ready for tables.`);
  });

  it.runIf(postgres)('a wrong password ends FAILED like an unreachable store: a login failure would tell a PostgreSQL listens there', async () => {
    const { store } = await check('Wrong password', { ...settingsFor(schema), user: 'no_such_user_here', password: 'nope' });
    expect(store.status).toBe('FAILED');
    expect(store.status_message).toBe(STORE_UNREACHABLE);
  });

  it.runIf(postgres)('a pipeline into target-store loads into the PostgreSQL default store with target-postgres', async () => {
    const stored = await bench.db.selectFrom('data_stores').selectAll().where('workspace_id', '=', bench.workspaceId).where('name', '=', 'Local PostgreSQL').executeTakeFirstOrThrow();
    await makeDefaultStore(bench.db, stored);
    await bench.component({ name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: 'builtin' });
    await bench.component({ name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin', properties: { batch_size: 50 } });
    const pipeline = await bench.pipeline({
      name: 'demo to postgres',
      dataComponents: ['tap-demo', 'target-store'],
      properties: { 'tap-demo.start_date': '2026-10-01T00:00:00Z', 'tap-demo.end_date': '2026-10-10T00:00:00Z', 'tap-demo.seed': 3 },
    });
    const run = async () => {
      const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
      if (queued.status !== 'QUEUED') throw new Error(queued.status);
      const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 60_000);
      return { job, log: (await logOf(bench.db, job.id)).join('\n') };
    };
    const first = await run();
    expect(first.job.status, first.log).toBe('COMPLETE');
    expect(first.log).toContain('target-store loads into it with target-postgres');
    expect(first.log).toMatch(/target-postgres \| loaded \d+ rows/);

    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const count = async (table: string) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."${table}"`)).rows[0]!.n);
      const tables = (await client.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1', [schema])).rows.map((r) => r.table_name);
      expect(tables).toEqual(['customers', 'orders', 'web_sessions']);
      const orders = await count('orders');
      expect(orders).toBeGreaterThan(10);
      // The second run upserts on the key: state and keys keep the tables free of duplicates.
      const second = await run();
      expect(second.job.status, second.log).toBe('COMPLETE');
      expect(await count('orders')).toBe(orders);
      const state = await waitFor(() => bench.db.selectFrom('pipeline_states').selectAll().where('pipeline_id', '=', pipeline.id).executeTakeFirst(), 'the run state');
      expect(JSON.stringify(state.value)).toContain('orders');
    } finally {
      await client.end();
    }
  });
});
