import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/repositories/ids';
import { subscribe } from '../../server/repositories/subscriptions';
import { enqueueJob } from '../../server/runner';
import { datasetLineage, pipelineLineage } from '../../server/services/lineage';
import { logOf, startBench, waitForStatus, type Bench } from './helpers';

// Issue 41, Done when: "A runner test shows a failed run marking its downstream datasets and
// dashboards." Through the real runner: tap-demo → target-store loads orders and customers; a
// dataset reads both and the workspace's dashboard shows it; a later run of the same pipeline
// fails (a tap setting it refuses). Then the pipeline's lineage and the dataset's mark the dataset
// and the dashboard failed downstream, and the alerts delivered to the watchers name them.

describe('a failed run marks its downstream datasets and dashboards', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await startBench();
    await bench.startRunner();
    await bench.component({ name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: 'builtin' });
    await bench.component({ name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' });
  });
  afterAll(() => bench.close());

  const run = async (pipelineId: string) => {
    const queued = await enqueueJob(bench.db, pipelineId, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 60_000);
    return { job, log: (await logOf(bench.db, job.id)).join('\n') };
  };

  async function person(workspaceId: string): Promise<string> {
    const id = `auth0|${newId()}`;
    await bench.db.insertInto('profiles').values({ id, name: id, email: `${id.slice(6)}@example.com`, default_workspace_id: workspaceId, features_disabled: null, can_create_workspaces: false }).execute();
    await bench.db.insertInto('workspace_members').values({ workspace_id: workspaceId, profile_id: id, role: 'member', handle: null }).execute();
    return id;
  }

  it('the pipeline and dataset lineage mark the dataset and dashboard failed, and the alerts name them', async () => {
    const { db, workspaceId } = bench;
    const properties = { 'tap-demo.start_date': '2026-10-01T00:00:00Z', 'tap-demo.end_date': '2026-10-05T00:00:00Z', 'tap-demo.seed': 4 };
    const pipeline = await bench.pipeline({ name: 'demo shop', dataComponents: ['tap-demo', 'target-store'], properties });
    const loaded = await run(pipeline.id);
    expect(loaded.job.status, loaded.log).toBe('COMPLETE');

    // a dataset reads two of its tables; another reads nothing it loads; the dashboard shows the first
    const now = new Date();
    const row = { workspace_id: workspaceId, channel_id: null, description: null, description_content_type: 'text/markdown', questions: null, visualisation: null, metadata: null, raw_data: null, published: now, created: now, last_modified: now };
    const revenue = { ...row, id: newId(), alias: 'revenue-by-customer', title: 'Revenue by customer', query: 'SELECT c.id, sum(o.amount) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id' };
    const unrelated = { ...row, id: newId(), alias: 'constant', title: 'A constant', query: 'SELECT 1 AS one' };
    await db.insertInto('datasets').values([revenue, unrelated]).execute();
    const app = { DASHBOARD_PAGE_TITLE: 'Shop board', DASHBOARD_CONTENT: '# Shop\n\n<DatasetChart alias="revenue-by-customer" />\n\n<DatasetData alias="constant" />\n' };
    await db.updateTable('workspaces').set({ app_properties: JSON.stringify(app) }).where('id', '=', workspaceId).execute();
    const workspace = await db.selectFrom('workspaces').select(['id', 'app_properties']).where('id', '=', workspaceId).executeTakeFirstOrThrow();

    // before the failure: fresh all the way down
    const before = await pipelineLineage(db, workspace, pipeline.id);
    expect(before.datasets.map((d) => [d.title, d.status])).toEqual([['Revenue by customer', 'fresh']]);
    expect(before.dashboards.map((d) => [d.title, d.status])).toEqual([['Shop board', 'fresh']]);

    const pipelineWatcher = await person(workspaceId);
    const datasetWatcher = await person(workspaceId);
    await subscribe(db, { column: 'pipeline_id', id: pipeline.id }, pipelineWatcher, 'ALERTS');
    await subscribe(db, { column: 'dataset_id', id: revenue.id }, datasetWatcher, 'ALERTS');

    // a later run fails: the tap refuses its start date
    await db.updateTable('pipelines').set({ properties: JSON.stringify({ ...properties, 'tap-demo.start_date': 'not a date' }) }).where('id', '=', pipeline.id).execute();
    const failed = await run(pipeline.id);
    expect(failed.job.status, failed.log).toBe('ERROR');
    expect(failed.log).toContain('start_date is not a date');

    const after = await pipelineLineage(db, workspace, pipeline.id);
    expect(after.status).toBe('failed');
    expect(after.pipeline?.latest).toMatchObject({ id: failed.job.id, status: 'ERROR' });
    expect(after.tables.map((t) => [t.name, t.status])).toEqual([['customers', 'failed'], ['orders', 'failed'], ['web_sessions', 'failed']]);
    expect(after.datasets.map((d) => [d.title, d.status, d.tables])).toEqual([['Revenue by customer', 'failed', ['customers', 'orders']]]);
    // the dashboard names the downstream dataset it shows (the constant it also shows is not this pipeline's)
    expect(after.dashboards).toEqual([{ title: 'Shop board', status: 'failed', datasets: ['revenue-by-customer'] }]);

    const dataset = await datasetLineage(db, workspace, revenue);
    expect(dataset.status).toBe('failed');
    expect(dataset.tables.map((t) => [t.name, t.status, t.pipeline?.latest?.id])).toEqual([['customers', 'failed', failed.job.id], ['orders', 'failed', failed.job.id]]);
    expect(dataset.columns.map((c) => [c.name, c.status])).toEqual([['id', 'failed'], ['revenue', 'failed']]);
    expect(dataset.dashboards).toEqual([{ title: 'Shop board', status: 'failed', datasets: ['revenue-by-customer'] }]);
    // a dataset reading none of its tables is untouched
    expect((await datasetLineage(db, workspace, unrelated)).status).toBe('fresh');

    // the alerts delivered name the dataset and the dashboard, each to its own watcher
    const affected = 'Affected: dataset Revenue by customer; dashboard Shop board.';
    const told = await db.selectFrom('notifications').select(['profile_id', 'type', 'message', 'dataset_id', 'pipeline_id']).where('job_id', '=', failed.job.id).orderBy('type').execute();
    expect(told).toEqual([
      { profile_id: datasetWatcher, type: 'DATASET_ALERT', message: `Refresh failed: pipeline demo shop ended in error, so customers, orders may be out of date. ${affected}`, dataset_id: revenue.id, pipeline_id: null },
      { profile_id: pipelineWatcher, type: 'JOB_ENDED', message: `Job of demo shop ended ERROR. ${affected}`, dataset_id: null, pipeline_id: pipeline.id },
    ]);
    const alerts = await db.selectFrom('dataset_alerts').select(['dataset_id', 'detail']).where('job_id', '=', failed.job.id).execute();
    expect(alerts).toEqual([{ dataset_id: revenue.id, detail: expect.stringContaining(affected) }]);
  });
});
