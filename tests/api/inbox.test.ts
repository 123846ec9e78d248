import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { sendDueDigests } from '../../server/notifications/digest';
import { notify } from '../../server/notifications/notify';
import { DEMO } from '../../server/seed';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

// The inbox's writes (mark read, delete) and noise control (issue 12, Beyond).

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
});
afterAll(async () => {
  await world?.close();
});

const firstUnread = async (): Promise<{ id: string; _links: Record<string, { href: string }> }> => {
  const list: { id: string; _links: Record<string, { href: string }> }[] = embedded((await world.member.api.get('/api/notifications')).body, 'notifications');
  return list[0]!;
};

describe('mark read and delete', () => {
  it('offers the recipient resolve and delete; resolving drops the resolve link', async () => {
    const unread = await firstUnread();
    expect(hasLink(unread, REL.resolveNotification)).toBe(true);
    const read = await world.member.api.call('PUT', linkOf(unread, REL.resolveNotification));
    expect(read.status).toBe(200);
    expect(read.body.resolved).toBe(true);
    expect(hasLink(read.body, REL.resolveNotification)).toBe(false);
    expect(hasLink(read.body, REL.deleteNotification)).toBe(true);
    expectError(await world.member.api.call('PUT', linkOf(unread, REL.resolveNotification)), 403);
  });

  it("refuses anyone else's notification: other members, another workspace's people, no token", async () => {
    const unread = await firstUnread();
    for (const other of [world.owner, world.outsider]) {
      expectError(await other.api.get(`/api/notifications/${unread.id}`), 404);
      expectError(await other.api.call('PUT', `/api/notifications/${unread.id}/resolved`), 404);
      expectError(await other.api.call('DELETE', `/api/notifications/${unread.id}`), 404);
    }
    expectError(await world.anonymous.call('DELETE', `/api/notifications/${unread.id}`), 401);
    expectError(await world.member.api.call('DELETE', `/api/notifications/${crypto.randomUUID()}`), 404);
  });

  it('deletes one', async () => {
    const unread = await firstUnread();
    expect((await world.member.api.call('DELETE', linkOf(unread, REL.deleteNotification))).status).toBe(204);
    expectError(await world.member.api.get(`/api/notifications/${unread.id}`), 404);
  });
});

describe('noise control', () => {
  it('reads and replaces the settings; refuses bad bodies with field errors', async () => {
    const root = await world.member.api.get('/api/');
    const href = linkOf(root.body, REL.notificationSettings);
    const defaults = await world.member.api.get(href);
    expect(defaults.body).toMatchObject({ mentionsOnly: false, digest: false, routes: [] });
    expectError(await world.member.api.call('PUT', href, { mentionsOnly: 'yes', digest: false, routes: [] }), 400, { mentionsOnly: /true or false/ });
    expectError(await world.member.api.call('PUT', href, { mentionsOnly: false, digest: false, routes: [{ objectType: 'TABLE', objectId: 'x', level: 'ALL' }] }), 400);
    expectError(await world.anonymous.call('PUT', href, { mentionsOnly: false, digest: false, routes: [] }), 401);
  });

  it('applies mentions-only, per-object routes and the digest in notify; a digest is sent once by two checks at once', async () => {
    const dataset = await world.server.db.selectFrom('datasets').select('id').where('workspace_id', '=', DEMO.workspaceId).executeTakeFirstOrThrow();
    const href = linkOf((await world.outsider.api.get('/api/')).body, REL.updateNotificationSettings);
    const put = (body: object) => world.outsider.api.call('PUT', href, body);
    const event = { profileIds: [world.outsider.subject], workspaceId: DEMO.workspaceId, type: 'DATASET_ACTIVITY' as const, message: 'changed', actorName: null, datasetId: dataset.id };

    expect((await put({ mentionsOnly: true, digest: false, routes: [] })).status).toBe(200);
    expect(await notify(world.server.db, event)).toBe(0);
    expect(await notify(world.server.db, { ...event, directProfileIds: [world.outsider.subject] })).toBe(1);

    expect((await put({ mentionsOnly: true, digest: false, routes: [{ objectType: 'DATASET', objectId: dataset.id, level: 'ALL' }] })).body.routes).toHaveLength(1);
    expect(await notify(world.server.db, event)).toBe(1);
    await put({ mentionsOnly: false, digest: false, routes: [{ objectType: 'DATASET', objectId: dataset.id, level: 'ERRORS' }] });
    expect(await notify(world.server.db, event)).toBe(0);
    expect(await notify(world.server.db, { ...event, isError: true })).toBe(1);

    await put({ mentionsOnly: false, digest: true, routes: [] });
    expect(await notify(world.server.db, event)).toBe(0);
    expect(await notify(world.server.db, { ...event, message: 'changed again' })).toBe(0);
    const deps = { db: world.server.db, config: world.server.config, log: world.server.server.app.log };
    const sent = await Promise.all([sendDueDigests(deps), sendDueDigests(deps)]);
    expect(sent[0] + sent[1]).toBe(1);
    const digests = await world.server.db.selectFrom('outbox').selectAll().where('recipient', '=', world.outsider.email).where('subject', 'like', '%digest%').execute();
    expect(digests).toHaveLength(1);
    expect(digests[0]!.body).toContain('changed again');
    // Nothing is due again within the day.
    await notify(world.server.db, event);
    expect(await sendDueDigests(deps)).toBe(0);
    expect(await sendDueDigests({ ...deps, now: () => new Date(Date.now() + 25 * 3600_000) })).toBe(1);
  });
});
