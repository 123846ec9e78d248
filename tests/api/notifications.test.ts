import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { notificationsCollectionSchema } from '../../src/domain/resources';
import { DEMO } from '../../server/seed';
import { embedded, expectError, linkOf } from './helpers/http';
import { login, startWorld, type Person, type World } from './helpers/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
});
afterAll(async () => {
  await world?.close();
});

const unreadCount = async (person: Person): Promise<number> => {
  const answer = await person.api.get('/api/notifications?size=1');
  expect(answer.status).toBe(200);
  return answer.body.page.totalElements as number;
};

describe('GET /api/notifications', () => {
  it("lists the caller's unread notifications newest first; page.totalElements is the unread count", async () => {
    const answer = await world.member.api.get('/api/notifications');
    expect(answer.status).toBe(200);
    expect(notificationsCollectionSchema.safeParse(answer.body).success).toBe(true);
    const items = answer.body._embedded.notifications as { type: string; resolved: boolean; created: string; actor: { name: string }; message: string }[];
    expect(items.length).toBe(2);
    expect(items.every((n) => !n.resolved)).toBe(true);
    expect(Date.parse(items[0]!.created)).toBeGreaterThan(Date.parse(items[1]!.created));
    expect(items[0]).toMatchObject({ type: 'DATASET_COMMENT', actor: { name: DEMO.owner.name } });
    expect(answer.body._embedded.notifications[0]._embedded.dataset).toMatchObject({ alias: 'marketing/website-sessions', workspaceId: DEMO.workspaceId });
    expect(await unreadCount(world.member)).toBe(2);
  });

  it('all=true includes the read ones; before and since bound the creation time', async () => {
    const all = await world.member.api.get('/api/notifications?all=true');
    expect(all.body.page.totalElements).toBe(3);
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000).toISOString();
    const since = await world.member.api.get(`/api/notifications?since=${encodeURIComponent(twoDaysAgo)}`);
    expect(embedded(since.body, 'notifications').map((n: { type: string }) => n.type)).toEqual(['DATASET_COMMENT']);
    const before = await world.member.api.get(`/api/notifications?before=${encodeURIComponent(twoDaysAgo)}`);
    expect(embedded(before.body, 'notifications').map((n: { type: string }) => n.type)).toEqual(['DATASET_ACTIVITY']);
  });

  it("never shows another profile's notifications, and refuses reading one (404, as for none)", async () => {
    const owners = await world.owner.api.get('/api/notifications?all=true');
    const memberIds = embedded((await world.member.api.get('/api/notifications?all=true')).body, 'notifications').map((n: { id: string }) => n.id);
    const ownerIds = embedded(owners.body, 'notifications').map((n: { id: string }) => n.id);
    expect(ownerIds.some((id) => memberIds.includes(id))).toBe(false);
    const mine = await world.member.api.get(`/api/notifications/${memberIds[0]}`);
    expect(mine.status).toBe(200);
    expect(linkOf(mine.body, REL.self)).toBe(`${world.baseUrl}/api/notifications/${memberIds[0]}`);
    expectError(await world.owner.api.get(`/api/notifications/${memberIds[0]}`), 404);
    expectError(await world.owner.api.get(`/api/notifications/${crypto.randomUUID()}`), 404);
  });

  it('rises when an invitation is sent to someone with a profile', async () => {
    expect(await unreadCount(world.outsider)).toBe(0);
    const invited = await world.owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/invitations`, { email: world.outsider.email });
    expect(invited.status).toBe(201);
    expect(await unreadCount(world.outsider)).toBe(1);
    const list = await world.outsider.api.get('/api/notifications');
    expect(list.body._embedded.notifications[0]).toMatchObject({
      type: 'WORKSPACE_INVITATION',
      actor: { name: DEMO.owner.name },
      message: expect.stringContaining(DEMO.workspaceName),
    });
  });

  it('markAsResolved=true marks the returned page read (the page still shows it as it was)', async () => {
    const marked = await world.owner.api.get('/api/notifications?markAsResolved=true&size=1');
    expect(marked.status).toBe(200);
    expect(marked.body._embedded.notifications[0].resolved).toBe(false);
    const before = marked.body.page.totalElements as number;
    expect(await unreadCount(world.owner)).toBe(before - 1);
    const read = await world.owner.api.get(`/api/notifications/${marked.body._embedded.notifications[0].id}`);
    expect(read.body.resolved).toBe(true);
  });

  it('rejects invalid parameters with field errors, and answers 401 without a token', async () => {
    expectError(await world.member.api.get('/api/notifications?before=yesterday'), 400, { before: /ISO 8601/ });
    expectError(await world.member.api.get('/api/notifications?since=2024-13-45T99:00:00Z'), 400, { since: /ISO 8601/ });
    expectError(await world.member.api.get('/api/notifications?all=maybe'), 400, { all: /.+/ });
    expectError(await world.member.api.get('/api/notifications?size=0'), 400, { size: /.+/ });
    expectError(await world.anonymous.get('/api/notifications'), 401);
  });
});

describe('PUT /api/notifications (mark all read, as Matatika\'s "refresh notifications")', () => {
  it('marks read what was created at or before lastReadAt, answers the unread that remain, and touches no one else', async () => {
    const owner = world.owner.subject;
    const db = world.server.db;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const make = (minutesAgo: number) => ({ id: randomUUID(), profile_id: owner, workspace_id: null, type: 'DATASET_LIKE', message: 'mark-all', resolved: false, actor_name: null, dataset_id: null, job_id: null, created: at(minutesAgo), last_modified: at(minutesAgo) });
    const [old, newer] = [make(30), make(1)];
    await db.insertInto('notifications').values([old, newer]).execute();
    const memberUnread = await unreadCount(world.member);

    const cut = at(10).toISOString();
    const answer = await world.owner.api.call('PUT', `/api/notifications?read=true&lastReadAt=${encodeURIComponent(cut)}`);
    expect(answer.status).toBe(200);
    expect(notificationsCollectionSchema.safeParse(answer.body).success).toBe(true);
    const remaining = (answer.body._embedded?.notifications ?? []) as { id: string; resolved: boolean; created: string }[];
    // everything created after the cut is still unread and listed; nothing before it is
    expect(remaining.map((n) => n.id)).toContain(newer.id);
    expect(remaining.every((n) => !n.resolved && Date.parse(n.created) > Date.parse(cut))).toBe(true);
    expect((await world.owner.api.get(`/api/notifications/${old.id}`)).body.resolved).toBe(true);
    expect(await unreadCount(world.owner)).toBe(remaining.length);
    // another person's inbox is untouched
    expect(await unreadCount(world.member)).toBe(memberUnread);

    // without lastReadAt: everything up to now
    const all = await world.owner.api.call('PUT', '/api/notifications');
    expect(all.status).toBe(200);
    expect(all.body.page.totalElements).toBe(0);
    expect(await unreadCount(world.owner)).toBe(0);
  });

  it('read=false marks nothing; bad parameters are field errors; no token is 401', async () => {
    const before = await unreadCount(world.member);
    const answer = await world.member.api.call('PUT', '/api/notifications?read=false');
    expect(answer.status).toBe(200);
    expect(answer.body.page.totalElements).toBe(before);
    expect(await unreadCount(world.member)).toBe(before);
    expectError(await world.member.api.call('PUT', '/api/notifications?lastReadAt=yesterday'), 400, { lastReadAt: /ISO 8601/ });
    expectError(await world.member.api.call('PUT', '/api/notifications?read=maybe'), 400, { read: /.+/ });
    expectError(await world.anonymous.call('PUT', '/api/notifications'), 401);
    expect(await unreadCount(world.member)).toBe(before);
  });
});
