import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDraftSchema, alertSchema } from '../../src/domain/alertRules';
import { DEMO } from '../../server/seed';
import { REL } from '../../src/domain/relations';
import { datasetMessageSchema, notificationsCollectionSchema, tagsCollectionSchema } from '../../src/domain/resources';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type Person, type World } from './helpers/world';

// The rest of the Matatika reference around datasets and workspaces: alerts raised by hand and
// read one by one, dataset messages, one tag and the news' tags, a workspace's notifications.

const W = DEMO.workspaceId;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
let world: World;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely and asserted field by field
let dataset: any;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely and asserted field by field
async function read(who: Person, path: string): Promise<any> {
  const answer = await who.api.get(path);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const notificationsOf = (who: Person, type: string) =>
  world.server.db.selectFrom('notifications').selectAll().where('profile_id', '=', who.subject).where('type', '=', type).where('dataset_id', '=', String(dataset.id)).orderBy('created').execute();

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  const row = await world.server.db.selectFrom('datasets').select('alias').where('workspace_id', '=', W).where('alias', 'is not', null).orderBy('alias').executeTakeFirstOrThrow();
  dataset = await read(world.owner, `/api/workspaces/${W}/datasets/${row.alias ?? ''}`);
}, 90_000);
afterAll(() => world?.close());

describe('alerts raised by hand', () => {
  it("offers 'new alert' to admins only; a member is refused (403)", async () => {
    const member = await read(world.member, `/api/datasets/${dataset.id}`);
    expect(hasLink(dataset, REL.newAlert)).toBe(true);
    expect(hasLink(member, REL.newAlert)).toBe(false);
    expectError(await world.member.api.call('POST', `/api/datasets/${dataset.id}/alerts`), 403);
    expectError(await world.member.api.call('PUT', `/api/datasets/${dataset.id}/alerts/${crypto.randomUUID()}`, { detail: 'x' }), 403);
    expectError(await world.outsider.api.call('POST', `/api/datasets/${dataset.id}/alerts`), 404);
    expectError(await world.anonymous.call('POST', `/api/datasets/${dataset.id}/alerts`), 401);
  });

  it('initialises, refuses a blank detail (400), raises once (201, then 409) and tells the watchers', async () => {
    await world.member.api.call('POST', linkOf(await read(world.member, `/api/datasets/${dataset.id}`), REL.addSubscription), { type: 'ALERTS' });
    const draft = await world.owner.api.call('POST', linkOf(dataset, REL.newAlert));
    expect(draft.status).toBe(200);
    expect(alertDraftSchema.safeParse(draft.body).success).toBe(true);
    const create = linkOf(draft.body, REL.createAlert);
    expectError(await world.owner.api.call('PUT', create, { detail: '  ' }), 400, { detail: 'Detail is mandatory' });
    expectError(await world.owner.api.call('PUT', create, {}), 400, { detail: 'Detail is mandatory' });
    expectError(await world.owner.api.call('PUT', create, { detail: 'x'.repeat(2_001) }), 400, { detail: /at most 2000/ });
    expectError(await world.owner.api.call('PUT', `/api/datasets/${dataset.id}/alerts/not-an-id`, { detail: 'x' }), 404);

    const raised = await world.owner.api.call('PUT', create, { detail: 'Figures look wrong since Monday' });
    expect(raised.status).toBe(201);
    expect(alertSchema.safeParse(raised.body).success).toBe(true);
    expect(raised.body).toMatchObject({ id: draft.body.id, detail: 'Figures look wrong since Monday', datasetId: dataset.id });
    expectError(await world.owner.api.call('PUT', create, { detail: 'again' }), 409);

    const told = await notificationsOf(world.member, 'DATASET_ALERT');
    expect(told.map((n) => [n.message, n.actor_name])).toEqual([['Figures look wrong since Monday', DEMO.owner.name]]);
    const listed = embedded(await read(world.member, linkOf(dataset, REL.alerts)), 'alerts');
    expect(listed.map((a: { id: string }) => a.id)).toContain(draft.body.id);
  });

  it('reads one alert for every member through its self link; others are refused', async () => {
    const listed = embedded(await read(world.member, linkOf(dataset, REL.alerts)), 'alerts');
    const one = await read(world.member, linkOf(listed[0], REL.self));
    expect(one.id).toBe(listed[0].id);
    expectError(await world.outsider.api.get(linkOf(listed[0], REL.self)), 404);
    expectError(await world.anonymous.get(linkOf(listed[0], REL.self)), 401);
    expectError(await world.member.api.get(`/api/alerts/${UNKNOWN}`), 404);
  });
});

describe('dataset messages', () => {
  it('initialises for every member, sends to a member as a DATASET_MESSAGE sharing its id, and lets its sender change it', async () => {
    const member = await read(world.member, `/api/datasets/${dataset.id}`);
    const draft = await world.member.api.call('POST', linkOf(member, REL.newMessage));
    expect(draft.status).toBe(200);
    expect(datasetMessageSchema.safeParse(draft.body).success).toBe(true);
    const create = linkOf(draft.body, REL.createMessage);

    const sent = await world.member.api.call('PUT', create, { recipientId: world.owner.subject, message: 'Can you check the March figures?' });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ id: draft.body.id, datasetId: dataset.id, recipientId: world.owner.subject, message: 'Can you check the March figures?' });
    let told = await notificationsOf(world.owner, 'DATASET_MESSAGE');
    expect(told.map((n) => n.id)).toEqual([draft.body.id]);
    expect(told[0]!.message).toContain('Can you check the March figures?');
    const inbox = await read(world.owner, `/api/notifications/${draft.body.id}`);
    expect(inbox.type).toBe('DATASET_MESSAGE');

    const changed = await world.member.api.call('PUT', linkOf(sent.body, REL.createMessage), { recipientId: world.owner.subject, message: 'Sorry: the April figures' });
    expect(changed.status).toBe(200);
    told = await notificationsOf(world.owner, 'DATASET_MESSAGE');
    expect(told.map((n) => [n.id, n.resolved])).toEqual([[draft.body.id, false]]);
    expect(told[0]!.message).toContain('April');

    // the message is its sender's: the recipient may not take its id
    expectError(await world.owner.api.call('PUT', create, { recipientId: world.member.subject, message: 'mine now' }), 409);
  });

  it('refuses a recipient outside the workspace and blank fields (400), and callers outside it', async () => {
    const draft = await world.member.api.call('POST', `/api/datasets/${dataset.id}/messages`);
    const create = linkOf(draft.body, REL.createMessage);
    expectError(await world.member.api.call('PUT', create, { recipientId: world.outsider.subject, message: 'hi' }), 400, { recipientId: 'is not a member of this workspace' });
    expectError(await world.member.api.call('PUT', create, { message: 'hi' }), 400, { recipientId: 'Recipient is mandatory' });
    expectError(await world.member.api.call('PUT', create, { recipientId: world.owner.subject, message: '' }), 400, { message: 'Message is mandatory' });
    expectError(await world.member.api.call('PUT', `/api/datasets/${dataset.id}/messages/not-an-id`, { recipientId: world.owner.subject, message: 'hi' }), 404);
    expectError(await world.outsider.api.call('POST', `/api/datasets/${dataset.id}/messages`), 404);
    expectError(await world.outsider.api.call('PUT', create, { recipientId: world.owner.subject, message: 'hi' }), 404);
    expectError(await world.anonymous.call('POST', `/api/datasets/${dataset.id}/messages`), 401);
    expect(await world.server.db.selectFrom('dataset_messages').select('id').where('id', '=', String(draft.body.id)).execute()).toEqual([]);
  });
});

describe('tags', () => {
  it('reads one tag through the list item\'s self link; unknown ids are 404, other workspaces 403', async () => {
    const list = await read(world.member, linkOf(await read(world.member, `/api/workspaces/${W}`), REL.tags));
    expect(tagsCollectionSchema.safeParse(list).success).toBe(true);
    const first = embedded(list, 'tags')[0];
    const one = await read(world.member, linkOf(first, REL.self));
    expect(one).toMatchObject({ id: first.id, name: first.name, usage: first.usage });
    expectError(await world.member.api.get(`/api/workspaces/${W}/tags/${UNKNOWN}`), 404);
    expectError(await world.outsider.api.get(linkOf(first, REL.self)), 404);
    expectError(await world.anonymous.get(linkOf(first, REL.self)), 401);
  });

  it("lists the tags of the caller's news, each a tag of the workspace", async () => {
    const workspace = await read(world.owner, `/api/workspaces/${W}`);
    const all = new Set(embedded(await read(world.owner, linkOf(workspace, REL.tags)), 'tags').map((t: { name: string }) => t.name));
    const news = await read(world.owner, linkOf(workspace, REL.newsTags));
    expect(tagsCollectionSchema.safeParse(news).success).toBe(true);
    const tags = embedded(news, 'tags');
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(all.has(tag.name), tag.name).toBe(true);
    // the outsider has no news here and may not ask
    expectError(await world.outsider.api.get(linkOf(workspace, REL.newsTags)), 404);
  });
});

describe("a workspace's notifications", () => {
  it("lists the caller's own notifications of this workspace only, with the inbox's filters", async () => {
    const link = linkOf(await read(world.owner, `/api/workspaces/${W}`), REL.notifications);
    const page = await read(world.owner, `${link}?all=true&size=100`);
    expect(notificationsCollectionSchema.safeParse(page).success).toBe(true);
    const ids = embedded(page, 'notifications').map((n: { id: string }) => n.id);
    const rows = await world.server.db.selectFrom('notifications').select('id').where('profile_id', '=', world.owner.subject).where('workspace_id', '=', W).execute();
    expect(ids.sort()).toEqual(rows.map((r) => r.id).sort().slice(0, 100));
    const future = await read(world.owner, `${link}?all=true&since=2999-01-01T00:00:00Z`);
    expect(future.page.totalElements).toBe(0);
    expectError(await world.owner.api.get(`${link}?since=yesterday`), 400, { since: 'must be an ISO 8601 timestamp' });
    expectError(await world.outsider.api.get(link), 404);
    expectError(await world.anonymous.get(link), 401);
  });
});
