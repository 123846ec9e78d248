import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, jobMetrics } from '../../server/runner';
import { storeSchemaName, storeTables } from '../../server/stores/defaultStore';
import { startBench, logOf, waitForStatus, type Bench } from './helpers';
import { loadMeltanoSettings } from '../../server/runner/meltano/settings';
import { storeDbOf } from '../../server/db/storeDatabase';
import { pipelineStreamsOf } from '../../server/services/pipelineStreams';

describe('built-in plugins through the default script', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await startBench();
    // no package index here: a Python plugin's pipeline ends at provisioning Meltano (meltano.test.ts runs them for real)
    await bench.startRunner({ meltano: loadMeltanoSettings(bench.dataDir, { RUNNER_PACKAGE_INDEX_URL: 'http://127.0.0.1:9/simple' }) });
    await bench.component({ name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: 'builtin' });
    await bench.component({ name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' });
    await bench.component({ name: 'tap-github', pluginType: 'EXTRACTOR', pluginName: 'tap-github', variant: 'meltanolabs' });
    // Meltano's tap-postgres shares the built-in's name: its variant says which one runs.
    await bench.component({ name: 'pg-meltano', pluginType: 'EXTRACTOR', pluginName: 'tap-postgres', variant: 'meltanolabs' });
  });
  afterAll(() => bench.close());

  const runPipeline = async (pipelineId: string) => {
    const queued = await enqueueJob(bench.db, pipelineId, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    return waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 40_000);
  };

  it('tap-demo → target-store loads rows into the default store, and the second run is incremental', async () => {
    const pipeline = await bench.pipeline({
      name: 'demo to store',
      dataComponents: ['tap-demo', 'target-store'],
      properties: { 'tap-demo.start_date': '2026-10-01T00:00:00Z', 'tap-demo.end_date': '2026-10-20T00:00:00Z', 'tap-demo.seed': 7 },
    });
    const first = await runPipeline(pipeline.id);
    const log = await logOf(bench.db, first.id);
    expect(first.status, log.join('\n')).toBe('COMPLETE');
    expect(log.join('\n')).toContain(`full run (no state for tap-demo-to-target-store:${pipeline.id})`);
    expect(await storeTables(bench.db, bench.workspaceId)).toEqual(['customers', 'orders', 'web_sessions']);
    const schema = storeSchemaName(bench.workspaceId);
    const count = async (table: string) => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.id(schema, table)}`.execute(storeDbOf(bench.db))).rows[0]!.n);
    const orders = await count('orders');
    expect(orders).toBeGreaterThan(50);
    expect(Number(first.rows_loaded)).toBeGreaterThanOrEqual(orders + (await count('web_sessions')));
    // rows per stream: every stream the tap sent, summing to the job's total
    const byStream = first.rows_by_stream;
    expect(Object.keys(byStream).sort()).toEqual(['customers', 'orders', 'web_sessions']);
    expect(Object.values(byStream).reduce((sum, n) => sum + Number(n), 0)).toBe(Number(first.rows_loaded));
    expect(Number(byStream.orders)).toBeGreaterThanOrEqual(orders);
    expect(Number(byStream.customers)).toBeGreaterThan(0);
    const state = await bench.db.selectFrom('pipeline_states').selectAll().where('pipeline_id', '=', pipeline.id).executeTakeFirstOrThrow();
    expect(state.state_id).toBe(`tap-demo-to-target-store:${pipeline.id}`);
    expect(Object.keys((state.value as { bookmarks: object }).bookmarks).sort()).toEqual(['customers', 'orders', 'web_sessions']);

    const second = await runPipeline(pipeline.id);
    expect(second.status).toBe('COMPLETE');
    expect((await logOf(bench.db, second.id)).join('\n')).toContain('incremental run from the state');
    expect(Number(second.rows_loaded)).toBe(0);
    expect(second.rows_by_stream).toEqual({});
    expect(await count('orders')).toBe(orders);
    const metrics = await jobMetrics(bench.db, pipeline.id);
    expect(metrics.map((m) => m.rowsLoaded)).toEqual([0, Number(first.rows_loaded)]);
  });

  it("a second tap-demo pipeline loads into tables of its own prefix: the first pipeline's rows and freshness stay as they were", async () => {
    const schema = storeSchemaName(bench.workspaceId);
    const snapshot = async (table: string) => (await sql<{ n: number; total: string }>`SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS total FROM ${sql.id(schema, table)}`.execute(storeDbOf(bench.db))).rows[0];
    const before = await snapshot('orders');
    const loadedBy = async (table: string) => (await bench.db.selectFrom('store_loads').select('pipeline_id').where('workspace_id', '=', bench.workspaceId).where('table_name', '=', table).executeTakeFirst())?.pipeline_id;
    const firstLoader = await loadedBy('orders');
    const second = await bench.pipeline({
      name: 'second demo',
      dataComponents: ['tap-demo', 'target-store'],
      properties: { 'target-store.table_prefix': 'second_demo_', 'tap-demo.start_date': '2026-10-01T00:00:00Z', 'tap-demo.end_date': '2026-10-20T00:00:00Z', 'tap-demo.seed': 8 },
    });
    const job = await runPipeline(second.id);
    const log = (await logOf(bench.db, job.id)).join('\n');
    expect(job.status, log).toBe('COMPLETE');
    expect(log).toContain('stream orders → table second_demo_orders');
    expect(await storeTables(bench.db, bench.workspaceId)).toEqual(['customers', 'orders', 'second_demo_customers', 'second_demo_orders', 'second_demo_web_sessions', 'web_sessions']);
    expect(await snapshot('orders')).toEqual(before);
    expect((await snapshot('second_demo_orders'))!.n).toBeGreaterThan(50);
    expect(await loadedBy('orders')).toBe(firstLoader);
    expect(await loadedBy('second_demo_orders')).toBe(second.id);

    const bad = await bench.pipeline({ name: 'bad prefix', dataComponents: ['tap-demo', 'target-store'], properties: { 'target-store.table_prefix': 'x; drop table orders' } });
    const refused = await runPipeline(bad.id);
    expect(refused.status).toBe('ERROR');
    expect((await logOf(bench.db, refused.id)).join('\n')).toContain('invalid config: table_prefix must be lower-case letters');
    expect(await snapshot('orders')).toEqual(before);
  });

  it('a Python plugin ends ERROR with a log line saying exactly why when the package index cannot be reached', async () => {
    const pipeline = await bench.pipeline({ name: 'github', dataComponents: ['tap-github', 'target-store'] });
    const job = await runPipeline(pipeline.id);
    expect(job.status).toBe('ERROR');
    expect((await logOf(bench.db, job.id)).join('\n')).toContain('Meltano 4.4.1 could not be installed: the package index http://127.0.0.1:9/simple could not be reached');
  });

  it("another variant of a built-in's name is the Python plugin, not the built-in", async () => {
    const pipeline = await bench.pipeline({ name: 'postgres meltanolabs', dataComponents: ['pg-meltano', 'target-store'] });
    const job = await runPipeline(pipeline.id);
    expect(job.status).toBe('ERROR');
    // it goes to Meltano, which needs the package index, instead of running the built-in tap-postgres
    expect((await logOf(bench.db, job.id)).join('\n')).toContain('Meltano 4.4.1 could not be installed');
  });

  it('a malformed Singer line ends the load with a clear message and a non-zero exit', async () => {
    const pipeline = await bench.pipeline({ name: 'bad lines', script: 'printf \'{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}\\nnot json\\n\' | target-store' });
    const job = await runPipeline(pipeline.id);
    expect(job.status).toBe('ERROR');
    expect(job.exit_code).toBe(2);
    expect((await logOf(bench.db, job.id)).join('\n')).toContain('target-store | ERROR line 2 is not a valid Singer message (not JSON): not json');
  });

  it("a verify job keeps the streams tap-demo's discovery lists; select rules then choose the streams and columns a run loads", async () => {
    const properties = { 'tap-demo.start_date': '2026-10-01T00:00:00Z', 'tap-demo.end_date': '2026-10-05T00:00:00Z', 'tap-demo.seed': 9, 'target-store.table_prefix': 'picked_' };
    const pipeline = await bench.pipeline({ name: 'demo streams picked', dataComponents: ['tap-demo', 'target-store'], properties });
    expect((await pipelineStreamsOf(bench.db, pipeline))[0]).toMatchObject({ discovered: null, streams: null });

    const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' }, 'PIPELINE_VERIFY');
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    const verified = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 40_000);
    const verifyLog = (await logOf(bench.db, verified.id)).join('\n');
    expect(verified.status, verifyLog).toBe('COMPLETE');
    expect(verifyLog).toContain('tap-demo: 3 streams discovered');
    const [extractor] = await pipelineStreamsOf(bench.db, pipeline);
    expect(extractor?.streams?.map((s) => s.name)).toEqual(['customers', 'orders', 'web_sessions']);
    expect(extractor?.streams?.[0]?.properties.slice(0, 3)).toEqual([
      { name: 'id', type: 'integer', automatic: true },
      { name: 'name', type: 'string', automatic: false },
      { name: 'email', type: 'string', automatic: false },
    ]);

    // orders whole, customers without their email, no web sessions
    const select = ['orders.*', 'customers.name', 'customers.country'];
    const picked = await bench.pipeline({ name: 'demo streams loaded', dataComponents: ['tap-demo', 'target-store'], properties: { ...properties, 'tap-demo._select': JSON.stringify(select) } });
    const run = await runPipeline(picked.id);
    const runLog = (await logOf(bench.db, run.id)).join('\n');
    expect(run.status, runLog).toBe('COMPLETE');
    expect(runLog).toContain('tap-demo runs with the streams its select rules choose');
    expect(Object.keys(run.rows_by_stream).sort()).toEqual(['customers', 'orders']);
    const schema = storeSchemaName(bench.workspaceId);
    const columns = async (table: string) =>
      (await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns WHERE table_schema = ${schema} AND table_name = ${table} ORDER BY ordinal_position`.execute(storeDbOf(bench.db))).rows.map((r) => r.column_name);
    const customers = await columns('picked_customers');
    expect(customers).toEqual(expect.arrayContaining(['id', 'name', 'country']));
    expect(customers).not.toContain('email');
    expect(customers).not.toContain('segment');
    expect(await columns('picked_orders')).toEqual(expect.arrayContaining(['id', 'customer_id', 'amount', 'ordered_at']));
    expect(await columns('picked_web_sessions')).toEqual([]);
  });
});
