import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { REL } from '../../src/domain/relations';
import { embedded, linkOf } from './helpers/http';
import { makePipeline, runLoad, type StreamLoad } from './helpers/storeLoads';
import { login, startWorld, type World } from './helpers/world';

// A failed run's alerts name what it reaches downstream (issue 41, item 3): the pipeline's own
// ERROR notification and each dataset alert list the datasets reading its tables and the
// dashboard showing them — the list GET /api/pipelines/{id}/lineage serves — and reach watchers
// through their subscriptions as before; another workspace's caller hears none of it.

const W = DEMO.workspaceId;
let world: World;
let pipelineId: string;
let datasetIds: string[];

const SALES: StreamLoad = {
  stream: 'impact_sales',
  key: ['id'],
  schema: { type: 'object', properties: { id: { type: ['integer'] }, amount: { type: ['number'] } } },
  records: [
    { id: 1, amount: 10 },
    { id: 2, amount: 4 },
  ],
};

interface NotificationBody {
  type: string;
  message: string;
}

async function notificationsOf(who: 'owner' | 'member' | 'outsider'): Promise<NotificationBody[]> {
  const answer = await world[who].api.get('/api/notifications?size=100');
  expect(answer.status).toBe(200);
  return embedded(answer.body, 'notifications') as NotificationBody[];
}

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  pipelineId = await makePipeline(world, 'Impact shop');
  await runLoad(world, pipelineId, [SALES]);
  const tables = (await world.owner.api.get(`/api/workspaces/${W}/tables`)).body.tables as { name: string; lastLoad: { pipelineId: string } | null }[];
  const sales = tables.find((t) => t.lastLoad?.pipelineId === pipelineId && t.name.endsWith('impact_sales'))!.name;
  datasetIds = [];
  for (const [title, alias, query] of [
    ['Impact sales total', 'impact-total', `SELECT sum(amount) AS total FROM ${sales}`],
    ['Impact sales rows', 'impact-rows', `SELECT id, amount FROM ${sales} ORDER BY id`],
  ] as const) {
    const published = await world.owner.api.call('POST', `/api/workspaces/${W}/datasets`, { title, alias, query });
    expect(published.status).toBe(201);
    datasetIds.push(String(published.body.id));
  }
  // the workspace's dashboard shows the first of them
  const workspace = await world.server.db.selectFrom('workspaces').select('app_properties').where('id', '=', W).executeTakeFirstOrThrow();
  const properties = { ...workspace.app_properties, DASHBOARD_PAGE_TITLE: 'Impact board', DASHBOARD_CONTENT: '# Sales\n\n<DatasetChart alias="impact-total" />\n' };
  await world.server.db.updateTable('workspaces').set({ app_properties: JSON.stringify(properties) }).where('id', '=', W).execute();
  // the owner watches the pipeline's errors, the member the first dataset's alerts
  const pipeline = await world.owner.api.get(`/api/pipelines/${pipelineId}`);
  expect((await world.owner.api.call('POST', linkOf(pipeline.body, REL.addSubscription), { type: 'ALERTS' })).status).toBeLessThan(300);
  const dataset = await world.member.api.get(`/api/datasets/${datasetIds[0]!}`);
  expect((await world.member.api.call('POST', linkOf(dataset.body, REL.addSubscription), { type: 'ALERTS' })).status).toBeLessThan(300);
}, 120_000);
afterAll(() => world?.close());

describe("a failed run's alert names its downstream datasets and dashboards", () => {
  it('the pipeline ERROR notification and the dataset alerts name them, as the lineage resource lists them', async () => {
    const impact = (await world.owner.api.get(`/api/pipelines/${pipelineId}/lineage`)).body as { datasets: { title: string }[]; dashboards: { title: string }[] };
    expect(impact.datasets.map((d) => d.title)).toEqual(['Impact sales rows', 'Impact sales total']);
    expect(impact.dashboards.map((d) => d.title)).toEqual(['Impact board']);

    const failed = await runLoad(world, pipelineId, [], 1);
    const affected = 'Affected: datasets Impact sales rows, Impact sales total; dashboard Impact board.';

    const owner = await notificationsOf('owner');
    expect(owner.filter((n) => n.type === 'JOB_ENDED' && n.message.startsWith('Job of Impact shop ended ERROR')).map((n) => n.message)).toEqual([`Job of Impact shop ended ERROR. ${affected}`]);

    const member = await notificationsOf('member');
    const alerts = member.filter((n) => n.type === 'DATASET_ALERT').map((n) => n.message);
    expect(alerts).toEqual([expect.stringMatching(/^Refresh failed: pipeline Impact shop ended in error, so \S*impact_sales may be out of date\. /)]);
    expect(alerts[0]).toContain(affected);

    // each dataset reading the table has the alert, tied to the failed run
    for (const id of datasetIds) {
      const rows = await world.server.db.selectFrom('dataset_alerts').select(['detail', 'job_id']).where('dataset_id', '=', id).execute();
      expect(rows).toEqual([{ detail: expect.stringContaining(affected), job_id: failed }]);
    }
    // another workspace's caller hears nothing of it
    expect((await notificationsOf('outsider')).filter((n) => n.message.includes('Impact'))).toEqual([]);
  });

  it('a run that completes names nothing downstream', async () => {
    await runLoad(world, pipelineId, [SALES]);
    const owner = await notificationsOf('owner');
    expect(owner.filter((n) => n.message.includes('Affected:')).length).toBe(1);
  });
});
