import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { REL } from '../../src/domain/relations';
import { subscriptionSchema, subscriptionsCollectionSchema } from '../../src/domain/resources';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type Person, type World } from './helpers/world';

// Subscriptions of the Matatika reference: the caller's own list, one subscription (read, change
// its type, remove), watching a channel and a whole workspace, the members' subscriptions for
// admins, and which subscription decides who hears of a dataset's event.

const W = DEMO.workspaceId;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
let world: World;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely and asserted field by field
async function read(who: Person, path: string): Promise<any> {
  const answer = await who.api.get(path);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const workspace = (who: Person) => read(who, `/api/workspaces/${W}`);
const sourceChannel = async () => {
  const row = await world.server.db.selectFrom('channels').select('id').where('workspace_id', '=', W).where('type', '=', 'SOURCE').orderBy('name').executeTakeFirstOrThrow();
  return row.id;
};
const datasetOf = (alias: string) => read(world.owner, `/api/workspaces/${W}/datasets/${alias}`);
const alertsTold = (who: Person, datasetId: string) =>
  world.server.db.selectFrom('notifications').select('message').where('profile_id', '=', who.subject).where('type', '=', 'DATASET_ALERT').where('dataset_id', '=', datasetId).execute();

/** Raises an alert by hand on the dataset as the owner (initialise, then 'create alert'). */
async function raiseAlert(datasetBody: { _links: Record<string, { href: string }> }, detail: string): Promise<void> {
  const draft = await world.owner.api.call('POST', linkOf(datasetBody, REL.newAlert));
  expect(draft.status).toBe(200);
  expect((await world.owner.api.call('PUT', linkOf(draft.body, REL.createAlert), { detail })).status).toBe(201);
}

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
}, 90_000);
afterAll(() => world?.close());

describe('watching a workspace', () => {
  it('offers every member the root\'s subscriptions and the workspace\'s subscribe, the member subscriptions to admins only', async () => {
    expect(hasLink(await read(world.member, '/api/'), REL.subscriptions)).toBe(true);
    const member = await workspace(world.member);
    const owner = await workspace(world.owner);
    expect(hasLink(member, REL.addSubscription)).toBe(true);
    expect(hasLink(member, REL.memberSubscriptions)).toBe(false);
    expect(hasLink(owner, REL.memberSubscriptions)).toBe(true);
    expectError(await world.member.api.get(`/api/workspaces/${W}/members/subscriptions`), 403);
    expectError(await world.outsider.api.call('POST', `/api/workspaces/${W}/subscriptions`), 404);
    expectError(await world.anonymous.call('POST', `/api/workspaces/${W}/subscriptions`), 401);
    expectError(await world.anonymous.get('/api/subscriptions'), 401);
  });

  it('subscribes with no body (ALL), lists it as the caller\'s, reads, changes and removes it through its own links', async () => {
    const member = await workspace(world.member);
    const added = await world.member.api.call('POST', linkOf(member, REL.addSubscription));
    expect(added.status).toBe(201);
    expect(subscriptionSchema.safeParse(added.body).success).toBe(true);
    expect(added.body).toMatchObject({ type: 'ALL', subject: { type: 'WORKSPACE', id: W, name: DEMO.workspaceName } });

    const mine = await read(world.member, linkOf(await read(world.member, '/api/'), REL.subscriptions));
    expect(subscriptionsCollectionSchema.safeParse(mine).success).toBe(true);
    expect(embedded(mine, 'subscriptions').map((s: { id: string }) => s.id)).toContain(added.body.id);
    // the owner's list is the owner's own
    expect(embedded(await read(world.owner, '/api/subscriptions'), 'subscriptions').map((s: { id: string }) => s.id)).not.toContain(added.body.id);

    const self = await read(world.member, linkOf(added.body, REL.self));
    expect(self.id).toBe(added.body.id);
    const silent = await world.member.api.call('PUT', linkOf(self, REL.updateSubscription), { type: 'NONE' });
    expect(silent.status).toBe(200);
    expect(silent.body.type).toBe('NONE');
    // subscribing again changes the type of the one subscription
    const again = await world.member.api.call('POST', linkOf(member, REL.addSubscription), { type: 'ALERTS' });
    expect(again.body).toMatchObject({ id: added.body.id, type: 'ALERTS' });

    expect((await world.member.api.call('DELETE', linkOf(self, REL.deleteSubscription))).status).toBe(204);
    expectError(await world.member.api.get(linkOf(self, REL.self)), 404);
  });

  it('refuses bad types and allMembers with field errors (400)', async () => {
    const member = await workspace(world.member);
    expectError(await world.member.api.call('POST', linkOf(member, REL.addSubscription), { type: 'NONE' }), 400, { type: /./ });
    expectError(await world.member.api.call('POST', `${linkOf(member, REL.addSubscription)}?allMembers=true`), 400, { allMembers: /each member subscribes/ });
    expectError(await world.member.api.call('POST', linkOf(member, REL.addSubscription), null), 400);
    const added = await world.member.api.call('POST', linkOf(member, REL.addSubscription), { type: 'ALL' });
    expectError(await world.member.api.call('PUT', linkOf(added.body, REL.updateSubscription), { type: 'LOUD' }), 400, { type: /ALERTS, ALL, NONE/ });
    expectError(await world.member.api.call('PUT', linkOf(added.body, REL.updateSubscription), {}), 400, { type: /./ });
    await world.member.api.call('DELETE', linkOf(added.body, REL.deleteSubscription));
  });

  it("offers nobody else a subscription: another member, another workspace's caller (404, as for no such id), no token (401), unknown (404)", async () => {
    const added = await world.member.api.call('POST', `/api/workspaces/${W}/subscriptions`);
    const href = linkOf(added.body, REL.self);
    for (const who of [world.owner, world.outsider]) {
      expectError(await who.api.get(href), 404);
      expectError(await who.api.call('PUT', href, { type: 'NONE' }), 404);
      expectError(await who.api.call('DELETE', href), 404);
    }
    expectError(await world.anonymous.get(href), 401);
    expectError(await world.member.api.get(`/api/subscriptions/${UNKNOWN}`), 404);
    expect((await read(world.member, href)).type).toBe('ALL');
    await world.member.api.call('DELETE', href);
  });
});

describe('watching a channel', () => {
  it('offers subscribe, then unsubscribe; each side refused (403) when not offered', async () => {
    const id = await sourceChannel();
    const before = await read(world.member, `/api/channels/${id}`);
    expect(hasLink(before, REL.addSubscription)).toBe(true);
    expect(hasLink(before, REL.deleteSubscription)).toBe(false);
    expectError(await world.member.api.call('DELETE', `/api/channels/${id}/subscriptions`), 403);

    const added = await world.member.api.call('POST', linkOf(before, REL.addSubscription), { type: 'ALERTS' });
    expect(added.status).toBe(201);
    expect(added.body.subject).toMatchObject({ type: 'CHANNEL', id });
    const watched = await read(world.member, `/api/channels/${id}`);
    expect(hasLink(watched, REL.addSubscription)).toBe(false);
    expectError(await world.member.api.call('POST', `/api/channels/${id}/subscriptions`), 403);
    expect((await world.member.api.call('DELETE', linkOf(watched, REL.deleteSubscription))).status).toBe(204);
    expect(hasLink(await read(world.member, `/api/channels/${id}`), REL.addSubscription)).toBe(true);

    expectError(await world.outsider.api.call('POST', `/api/channels/${id}/subscriptions`), 404);
    expectError(await world.anonymous.call('POST', `/api/channels/${id}/subscriptions`), 401);
    expectError(await world.member.api.call('POST', `/api/channels/${UNKNOWN}/subscriptions`), 404);
  });
});

describe('who hears of a dataset', () => {
  it('tells a workspace or channel watcher, and lets the most specific subscription decide', async () => {
    const body = await datasetOf((await world.server.db.selectFrom('datasets').select('alias').where('workspace_id', '=', W).where('channel_id', 'is not', null).orderBy('alias').executeTakeFirstOrThrow()).alias ?? '');
    const channelId = (await world.server.db.selectFrom('datasets').select('channel_id').where('id', '=', body.id).executeTakeFirstOrThrow()).channel_id ?? '';
    const count = async () => (await alertsTold(world.member, body.id)).length;

    const ws = await world.member.api.call('POST', `/api/workspaces/${W}/subscriptions`, { type: 'ALERTS' });
    await raiseAlert(body, 'Told through the workspace');
    expect(await count()).toBe(1);

    await world.member.api.call('PUT', linkOf(ws.body, REL.updateSubscription), { type: 'NONE' });
    await raiseAlert(body, 'Silenced');
    expect(await count()).toBe(1);

    // a channel holding the dataset speaks louder than the workspace
    const channel = await world.member.api.call('POST', `/api/channels/${channelId}/subscriptions`, { type: 'ALERTS' });
    await raiseAlert(body, 'Told through the channel');
    expect(await count()).toBe(2);

    // and the dataset's own subscription louder than both
    const own = await world.member.api.call('POST', `/api/datasets/${body.id}/subscriptions`, { type: 'ALERTS' });
    await world.member.api.call('PUT', linkOf(own.body, REL.updateSubscription), { type: 'NONE' });
    await raiseAlert(body, 'Silenced by the dataset');
    expect(await count()).toBe(2);
    expect((await alertsTold(world.member, body.id)).map((n) => n.message).sort()).toEqual(['Told through the channel', 'Told through the workspace']);

    for (const s of [ws.body, channel.body, own.body]) expect((await world.member.api.call('DELETE', linkOf(s, REL.deleteSubscription))).status).toBe(204);
  });
});

describe('who hears of a pipeline', () => {
  it("tells an admin who watches the workspace of the Lab's activity, and not a plain member", async () => {
    const setRole = (role: 'editor' | 'member') => world.server.db.updateTable('workspace_members').set({ role }).where('workspace_id', '=', W).where('profile_id', '=', world.member.subject).execute();
    const draft = await world.owner.api.call('POST', `/api/workspaces/${W}/pipelines`);
    const created = await world.owner.api.call('PUT', linkOf(draft.body, REL.createPipeline), { name: 'Watched through the workspace', dataComponents: ['extractors/tap-demo', 'loaders/target-store'] });
    expect(created.status).toBe(201);
    const activity = () => world.server.db.selectFrom('notifications').select('message').where('profile_id', '=', world.member.subject).where('type', '=', 'PIPELINE_ACTIVITY').where('pipeline_id', '=', String(created.body.id)).execute();
    const rename = async (name: string) => expect((await world.owner.api.call('PUT', linkOf(created.body, REL.updatePipeline), { ...created.body, name })).status).toBe(200);
    const ws = await world.member.api.call('POST', `/api/workspaces/${W}/subscriptions`);
    await setRole('editor');
    try {
      await rename('Renamed for an admin');
      expect((await activity()).map((n) => n.message)).toEqual([`${DEMO.owner.name} saved pipeline Renamed for an admin.`]);
    } finally {
      await setRole('member');
    }
    await rename('Renamed for a member');
    expect(await activity()).toHaveLength(1);
    await world.member.api.call('DELETE', linkOf(ws.body, REL.deleteSubscription));
  });
});

describe("the members' subscriptions", () => {
  it('lists to an admin whose subscription each is and what to, and refuses everyone else', async () => {
    const added = await world.member.api.call('POST', `/api/workspaces/${W}/subscriptions`);
    const list = await read(world.owner, linkOf(await workspace(world.owner), REL.memberSubscriptions));
    expect(subscriptionsCollectionSchema.safeParse(list).success).toBe(true);
    const theirs = embedded(list, 'subscriptions').find((s: { id: string }) => s.id === added.body.id);
    expect(theirs).toMatchObject({ type: 'ALL', subject: { type: 'WORKSPACE', id: W }, member: { id: world.member.subject, name: DEMO.member.name } });
    // the admin reads who watches what, but the subscription stays its owner's
    expect(hasLink(theirs, REL.updateSubscription)).toBe(false);
    expectError(await world.member.api.get(`/api/workspaces/${W}/members/subscriptions`), 403);
    expectError(await world.outsider.api.get(`/api/workspaces/${W}/members/subscriptions`), 404);
    expectError(await world.anonymous.get(`/api/workspaces/${W}/members/subscriptions`), 401);
    await world.member.api.call('DELETE', linkOf(added.body, REL.deleteSubscription));
  });
});
