import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { REL } from '../../src/domain/relations';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { makePipeline, runLoad, type StreamLoad } from './helpers/storeLoads';
import { login, startWorld, type World } from './helpers/world';

// A dataset's alerts and threshold rules: raised by a failed refresh and by a rule crossing its
// threshold after a successful one, told to watchers; both sides of every link; other workspaces.

const W = DEMO.workspaceId;
let world: World;
let pipelineId: string;

const METRICS = (value: number): StreamLoad => ({
  stream: 'alert_metrics',
  key: ['id'],
  schema: { type: 'object', properties: { id: { type: ['integer'] }, total: { type: ['number'] } } },
  records: [
    { id: 1, total: 10 },
    { id: 2, total: value },
  ],
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely and asserted field by field
async function dataset(who: 'owner' | 'member', alias: string): Promise<any> {
  const answer = await world[who].api.get(`/api/workspaces/${W}/datasets/${alias}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The notifications of this type about the alert-metrics dataset (the seed has news of its own). */
async function notificationsOf(who: 'owner' | 'member', type: string) {
  const { id } = await dataset('owner', 'alert-metrics');
  const rows = await world.server.db.selectFrom('notifications').selectAll().where('profile_id', '=', world[who].subject).where('type', '=', type).where('dataset_id', '=', id).orderBy('created').execute();
  return rows;
}

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  pipelineId = await makePipeline(world, 'Alert metrics');
  await runLoad(world, pipelineId, [METRICS(20)]);
  const published = await world.owner.api.call('POST', `/api/workspaces/${W}/datasets`, { title: 'Alert metrics total', alias: 'alert-metrics', query: 'SELECT id, total FROM alert_metrics ORDER BY id' });
  expect(published.status).toBe(201);
}, 90_000);
afterAll(() => world?.close());

describe('links', () => {
  it('offers alerts and alert rules to every member, and rule editing to admins only', async () => {
    const owner = await dataset('owner', 'alert-metrics');
    const member = await dataset('member', 'alert-metrics');
    for (const body of [owner, member]) {
      expect(hasLink(body, REL.alerts)).toBe(true);
      expect(hasLink(body, REL.alertRules)).toBe(true);
    }
    expect(hasLink(owner, REL.updateAlertRules)).toBe(true);
    expect(hasLink(member, REL.updateAlertRules)).toBe(false);
    const rules = await world.member.api.get(linkOf(member, REL.alertRules));
    expect(rules.status).toBe(200);
    expect(embedded(rules.body, 'alertRules')).toEqual([]);
    expect(hasLink(rules.body, REL.updateAlertRules)).toBe(false);
    expectError(await world.member.api.call('PUT', `/api/datasets/${member.id}/alert-rules`, { rules: [] }), 403);
  });

  it('offers no rules on a dataset without a query (nothing refreshes it), and refuses them (403)', async () => {
    const raw = await world.owner.api.call('POST', `/api/workspaces/${W}/datasets`, { title: 'Raw rows', alias: 'alert-raw', rawData: '[{"a":1}]' });
    expect(raw.status).toBe(201);
    expect(hasLink(raw.body, REL.alerts)).toBe(true);
    expect(hasLink(raw.body, REL.alertRules)).toBe(false);
    expect(hasLink(raw.body, REL.updateAlertRules)).toBe(false);
    expectError(await world.owner.api.call('PUT', `/api/datasets/${raw.body.id}/alert-rules`, { rules: [] }), 403);
    expectError(await world.owner.api.get(`/api/datasets/${raw.body.id}/alert-rules`), 403);
    const alerts = await world.member.api.get(linkOf(raw.body, REL.alerts));
    expect(embedded(alerts.body, 'alerts')).toEqual([]);
  });

  it("refuses another workspace's caller the alerts and the rules (404, as for no such id), and unknown datasets (404)", async () => {
    const { id } = await dataset('owner', 'alert-metrics');
    expectError(await world.outsider.api.get(`/api/datasets/${id}/alerts`), 404);
    expectError(await world.outsider.api.get(`/api/datasets/${id}/alert-rules`), 404);
    expectError(await world.outsider.api.call('PUT', `/api/datasets/${id}/alert-rules`, { rules: [] }), 404);
    expectError(await world.owner.api.get('/api/datasets/00000000-0000-4000-8000-000000000000/alerts'), 404);
  });
});

describe('rules', () => {
  it('refuses bad rules with field errors (400) and saves nothing', async () => {
    const body = await dataset('owner', 'alert-metrics');
    const href = linkOf(body, REL.updateAlertRules);
    expectError(await world.owner.api.call('PUT', href, { rules: [{ column: '', operator: '>', threshold: 1 }] }), 400, { 'rules.0.column': 'Column is mandatory' });
    expectError(await world.owner.api.call('PUT', href, { rules: [{ column: 'total', operator: '=>', threshold: 1 }] }), 400, { 'rules.0.operator': /must be one of/ });
    expectError(await world.owner.api.call('PUT', href, { rules: [{ column: 'total', operator: '>', threshold: '1; DROP TABLE x' }] }), 400, { 'rules.0.threshold': 'Threshold must be a number' });
    expectError(await world.owner.api.call('PUT', href, { rules: Array.from({ length: 11 }, () => ({ column: 'total', operator: '>', threshold: 1 })) }), 400, { rules: /at most 10/ });
    expectError(await world.owner.api.call('PUT', href, null), 400);
    const rules = await world.owner.api.get(linkOf(body, REL.alertRules));
    expect(embedded(rules.body, 'alertRules')).toEqual([]);
  });

  it('raises one alert when a refresh makes total cross the threshold, tells ALERTS watchers, and re-arms when it falls back', async () => {
    const body = await dataset('owner', 'alert-metrics');
    const saved = await world.owner.api.call('PUT', linkOf(body, REL.updateAlertRules), { rules: [{ column: 'total', operator: '>', threshold: 100 }] });
    expect(saved.status).toBe(200);
    expect(embedded(saved.body, 'alertRules')).toMatchObject([{ column: 'total', operator: '>', threshold: 100, breached: false }]);
    const watched = await world.member.api.call('POST', linkOf(body, REL.addSubscription), { type: 'ALERTS' });
    expect(watched.status).toBeLessThan(300);

    await runLoad(world, pipelineId, [METRICS(50)]);
    let alerts = await world.member.api.get(linkOf(body, REL.alerts));
    expect(embedded(alerts.body, 'alerts')).toEqual([]);

    await runLoad(world, pipelineId, [METRICS(250)]);
    await runLoad(world, pipelineId, [METRICS(300)]);
    alerts = await world.member.api.get(linkOf(body, REL.alerts));
    const raised = embedded(alerts.body, 'alerts');
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ id: expect.any(String), raised: expect.any(String), detail: 'Rule total > 100 crossed: total is 250.' });
    const told = await notificationsOf('member', 'DATASET_ALERT');
    expect(told.map((n) => [n.message, n.dataset_id])).toEqual([['Rule total > 100 crossed: total is 250.', body.id]]);
    // ALERTS watchers hear no refresh activity
    expect(await notificationsOf('member', 'DATASET_ACTIVITY')).toEqual([]);

    await runLoad(world, pipelineId, [METRICS(5)]);
    await runLoad(world, pipelineId, [METRICS(101)]);
    alerts = await world.member.api.get(linkOf(body, REL.alerts));
    expect(embedded(alerts.body, 'alerts').map((a: { detail: string }) => a.detail)).toEqual(['Rule total > 100 crossed: total is 101.', 'Rule total > 100 crossed: total is 250.']);
  });

  it('a failed refresh raises an alert on the datasets reading its tables; ALL watchers also hear refreshes', async () => {
    const body = await dataset('owner', 'alert-metrics');
    const watched = await world.owner.api.call('POST', linkOf(body, REL.addSubscription), { type: 'ALL' });
    expect(watched.status).toBeLessThan(300);
    await runLoad(world, pipelineId, [METRICS(1)]);
    const activity = await notificationsOf('owner', 'DATASET_ACTIVITY');
    expect(activity.map((n) => [n.message, n.dataset_id])).toEqual([['Alert metrics total was refreshed by pipeline Alert metrics.', body.id]]);

    await runLoad(world, pipelineId, [], 3);
    const alerts = await world.owner.api.get(linkOf(body, REL.alerts));
    expect(embedded(alerts.body, 'alerts')[0]).toMatchObject({ detail: 'Refresh failed: pipeline Alert metrics ended in error, so alert_metrics may be out of date. Affected: dataset Alert metrics total.' });
    expect((await notificationsOf('owner', 'DATASET_ALERT')).map((n) => n.message)).toContain('Refresh failed: pipeline Alert metrics ended in error, so alert_metrics may be out of date. Affected: dataset Alert metrics total.');
    expect((await notificationsOf('member', 'DATASET_ALERT')).map((n) => n.message)).toContain('Refresh failed: pipeline Alert metrics ended in error, so alert_metrics may be out of date. Affected: dataset Alert metrics total.');
  });

  it("an 'Errors only' route on the dataset drops its refreshes but still delivers its alerts", async () => {
    const body = await dataset('owner', 'alert-metrics');
    const settings = linkOf((await world.owner.api.get('/api/')).body, REL.updateNotificationSettings);
    const routes = [{ objectType: 'DATASET', objectId: body.id, level: 'ERRORS' }];
    expect((await world.owner.api.call('PUT', settings, { mentionsOnly: true, digest: false, routes })).status).toBe(200);
    try {
      const activityBefore = (await notificationsOf('owner', 'DATASET_ACTIVITY')).length;
      const alertsBefore = (await notificationsOf('owner', 'DATASET_ALERT')).length;
      await runLoad(world, pipelineId, [METRICS(2)]);
      expect((await notificationsOf('owner', 'DATASET_ACTIVITY')).length).toBe(activityBefore);
      await runLoad(world, pipelineId, [], 3);
      const alerts = await notificationsOf('owner', 'DATASET_ALERT');
      expect(alerts.length).toBe(alertsBefore + 1);
      expect(alerts.at(-1)?.message).toMatch(/^Refresh failed: pipeline Alert metrics ended in error/);
    } finally {
      await world.owner.api.call('PUT', settings, { mentionsOnly: false, digest: false, routes: [] });
    }
  });
});
