import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/repositories/ids';
import { recordLoad } from '../../server/repositories/freshness';
import { subscribe } from '../../server/repositories/subscriptions';
import { enqueueJob } from '../../server/runner';
import { startBench, waitFor, waitForStatus, type Bench } from './helpers';

// A pipeline run that fails raises an alert on every dataset whose query reads a table the
// pipeline loads, and tells the dataset's ALERTS watcher — through the real runner, end to end.

describe('a failed refresh raises a dataset alert', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await startBench();
    await bench.startRunner();
  });
  afterAll(() => bench.close());

  it('a run that ends ERROR (no retry left) alerts the datasets reading its tables and notifies an ALERTS watcher; not others', async () => {
    const { db, workspaceId } = bench;
    const pipeline = await bench.pipeline({ name: 'orders loader', script: 'echo loading; exit 2' });
    // An earlier run of this pipeline loaded `orders` (store_loads is what a run records).
    const earlier = await enqueueJob(db, pipeline.id, { kind: 'MANUAL' });
    if (earlier.status !== 'QUEUED') throw new Error(earlier.status);
    await waitForStatus(db, earlier.job.id, ['ERROR']);
    await recordLoad(db, { workspaceId, table: 'orders', jobId: earlier.job.id, pipelineId: pipeline.id, rows: 3 });

    const watcher = `auth0|${newId()}`;
    const bystander = `auth0|${newId()}`;
    for (const id of [watcher, bystander]) {
      await db.insertInto('profiles').values({ id, name: id, email: `${id.slice(6)}@example.com`, default_workspace_id: workspaceId, features_disabled: null, can_create_workspaces: false }).execute();
      await db.insertInto('workspace_members').values({ workspace_id: workspaceId, profile_id: id, role: 'member', handle: null }).execute();
    }
    const now = new Date();
    const dataset = { id: newId(), workspace_id: workspaceId, channel_id: null, alias: 'orders-by-day', title: 'Orders by day', description: null, description_content_type: 'text/markdown', questions: null, visualisation: null, metadata: null, raw_data: null, published: now, created: now, last_modified: now };
    await db.insertInto('datasets').values([
      { ...dataset, query: 'SELECT count(*) FROM orders' },
      { ...dataset, id: newId(), alias: 'customers', title: 'Customers', query: 'SELECT * FROM customers' },
    ]).execute();
    await subscribe(db, { column: 'dataset_id', id: dataset.id }, watcher, 'ALERTS');

    const queued = await enqueueJob(db, pipeline.id, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    await waitForStatus(db, queued.job.id, ['ERROR']);

    const alerts = await waitFor(async () => {
      const rows = await db.selectFrom('dataset_alerts').selectAll().where('job_id', '=', queued.job.id).execute();
      return rows.length > 0 ? rows : undefined;
    }, 'the alert');
    expect(alerts.map((a) => [a.dataset_id, a.detail])).toEqual([[dataset.id, 'Refresh failed: pipeline orders loader ended in error, so orders may be out of date. Affected: dataset Orders by day.']]);
    const told = await db.selectFrom('notifications').selectAll().where('type', '=', 'DATASET_ALERT').where('job_id', '=', queued.job.id).execute();
    expect(told.map((n) => [n.profile_id, n.dataset_id, n.workspace_id, n.resolved])).toEqual([[watcher, dataset.id, workspaceId, false]]);
  });
});
