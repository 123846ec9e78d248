import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { REL } from '../../src/domain/relations';
import { commentSchema, commentsCollectionSchema } from '../../src/domain/resources';
import { hostileString, wellFormed } from '../../src/domain/hostile.fixture';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type Person, type World } from './helpers/world';

// Comments through their links (spec 002 §4-§7): initialise then create, replies, edit with
// history, delete, likes, paging by six and ?parentId=; the read-only switch; notifications of
// watchers, parent authors, likes and mentions; another workspace's caller reaches nothing.

let world: World;
const W = DEMO.workspaceId;
let datasetId: string;
let dataset: Record<string, unknown>;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  const answer = await world.member.api.get(`/api/workspaces/${W}/datasets/top-customers`);
  dataset = answer.body;
  datasetId = String(answer.body.id);
}, 120_000);
afterAll(() => world?.close());

/** Initialise through 'new comment', then create through 'update comment'. */
async function post(who: Person, on: Record<string, unknown>, message: string, parentId?: string) {
  const draft = await who.api.call('POST', linkOf(on, REL.newComment));
  expect(draft.status).toBe(200);
  expect(hasLink(draft.body, REL.self)).toBe(false);
  const onDataset = String(on.datasetId ?? on.id);
  const created = await who.api.call('PUT', linkOf(draft.body, REL.updateComment), { message, datasetId: onDataset, ...(parentId ? { parentId } : {}) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(commentSchema.safeParse(created.body).success).toBe(true);
  return created.body as Record<string, unknown> & { id: string; message: string; parentId: string | null; likeCount: number };
}

const notificationsOf = (who: Person, type: string) =>
  world.server.db.selectFrom('notifications').selectAll().where('profile_id', '=', who.subject).where('type', '=', type).orderBy('created', 'desc').execute();

describe('links', () => {
  it('offers every member comments and new comment on a dataset', () => {
    expect(hasLink(dataset, REL.comments)).toBe(true);
    expect(hasLink(dataset, REL.newComment)).toBe(true);
  });

  it('offers the author update and delete, others only like, reply, history; an admin deletes too', async () => {
    const mine = await post(world.member, dataset, 'Member comment');
    for (const rel of [REL.self, REL.updateComment, REL.deleteComment, REL.likeComment, REL.newComment, REL.comments, REL.history]) expect(hasLink(mine, rel), rel).toBe(true);
    const asOwner = await world.owner.api.get(linkOf(mine, REL.self));
    expect(hasLink(asOwner.body, REL.updateComment)).toBe(false);
    expect(hasLink(asOwner.body, REL.deleteComment)).toBe(true);
    const theirs = await post(world.owner, dataset, 'Owner comment');
    const asMember = await world.member.api.get(linkOf(theirs, REL.self));
    expect(hasLink(asMember.body, REL.updateComment)).toBe(false);
    expect(hasLink(asMember.body, REL.deleteComment)).toBe(false);
    // absent → 403
    expectError(await world.member.api.call('PUT', linkOf(theirs, REL.self), { message: 'hijack', datasetId }), 403);
    expectError(await world.member.api.call('DELETE', linkOf(theirs, REL.self)), 403);
    // offered → allowed
    expect((await world.owner.api.call('DELETE', linkOf(mine, REL.self))).status).toBe(204);
    expect((await world.member.api.call('GET', linkOf(mine, REL.self))).status).toBe(404);
  });

  it('keeps an initialised comment its author’s: 404 to others, never listed, not counted', async () => {
    const draft = await world.member.api.call('POST', linkOf(dataset, REL.newComment));
    expect((await world.owner.api.call('GET', `/api/comments/${draft.body.id}`)).status).toBe(404);
    expect((await world.owner.api.call('PUT', `/api/comments/${draft.body.id}`, { message: 'x', datasetId })).status).toBe(404);
    const list = await world.member.api.get(`${linkOf(dataset, REL.comments)}?size=100`);
    expect(embedded(list.body, 'datasetComments').some((c: { id: string }) => c.id === draft.body.id)).toBe(false);
  });

  it('replies one level deep: a reply offers neither new comment nor comments', async () => {
    const top = await post(world.owner, dataset, 'Top');
    const reply = await post(world.member, top, 'Reply', String(top.id));
    expect(reply.parentId).toBe(top.id);
    expect(hasLink(reply, REL.newComment)).toBe(false);
    expect(hasLink(reply, REL.comments)).toBe(false);
    expectError(await world.member.api.call('POST', linkOf(reply, REL.self)), 403);
    const replies = await world.owner.api.get(linkOf(top, REL.comments));
    expect(embedded(replies.body, 'datasetComments').map((c: { id: string }) => c.id)).toEqual([reply.id]);
    expect((await world.owner.api.get(linkOf(top, REL.self))).body.commentCount).toBe(1);
  });
});

describe('read-only workspaces', () => {
  it('MEMBER_COMMENTS_READ_ONLY=true takes writing from members, not from admins', async () => {
    const own = await post(world.member, dataset, 'Before read-only');
    await world.server.db.updateTable('workspaces').set({ app_properties: JSON.stringify({ MEMBER_COMMENTS_READ_ONLY: 'true' }) }).where('id', '=', W).execute();
    try {
      const asMember = (await world.member.api.get(`/api/datasets/${datasetId}`)).body;
      expect(hasLink(asMember, REL.newComment)).toBe(false);
      expect(hasLink(asMember, REL.comments)).toBe(true);
      expectError(await world.member.api.call('POST', `/api/datasets/${datasetId}/comments`), 403);
      const ownNow = (await world.member.api.get(linkOf(own, REL.self))).body;
      expect(hasLink(ownNow, REL.updateComment)).toBe(false);
      expect(hasLink(ownNow, REL.newComment)).toBe(false);
      expect(hasLink(ownNow, REL.likeComment)).toBe(true);
      expectError(await world.member.api.call('PUT', linkOf(own, REL.self), { message: 'edit', datasetId }), 403);
      expect(hasLink((await world.owner.api.get(`/api/datasets/${datasetId}`)).body, REL.newComment)).toBe(true);
      // the feed reads the workspace's flag once for its page: the same answer for each of its datasets
      const feedOf = async (who: typeof world.member): Promise<unknown[]> => {
        const datasets: unknown[] = embedded((await who.api.get(`/api/workspaces/${W}/feed?size=50`)).body, 'datasets');
        return datasets;
      };
      const membersFeed = await feedOf(world.member);
      expect(membersFeed.length).toBeGreaterThan(0);
      expect(membersFeed.some((d) => hasLink(d, REL.newComment))).toBe(false);
      expect((await feedOf(world.owner)).every((d) => hasLink(d, REL.newComment))).toBe(true);
    } finally {
      await world.server.db.updateTable('workspaces').set({ app_properties: '{}' }).where('id', '=', W).execute();
    }
  });

  it('takes deleting their own comment from a member too; an admin still deletes it (issue 40)', async () => {
    const own = await post(world.member, dataset, 'Mine to keep while read-only');
    expect(hasLink(own, REL.deleteComment)).toBe(true);
    await world.server.db.updateTable('workspaces').set({ app_properties: JSON.stringify({ MEMBER_COMMENTS_READ_ONLY: 'true' }) }).where('id', '=', W).execute();
    try {
      const ownNow = (await world.member.api.get(linkOf(own, REL.self))).body;
      expect(hasLink(ownNow, REL.deleteComment)).toBe(false);
      expectError(await world.member.api.call('DELETE', linkOf(own, REL.self)), 403);
      expect((await world.member.api.get(linkOf(own, REL.self))).body.message).toBe('Mine to keep while read-only');
      const asOwner = (await world.owner.api.get(linkOf(own, REL.self))).body;
      expect((await world.owner.api.call('DELETE', linkOf(asOwner, REL.deleteComment))).status).toBe(204);
      expect((await world.member.api.call('GET', linkOf(own, REL.self))).status).toBe(404);
    } finally {
      await world.server.db.updateTable('workspaces').set({ app_properties: '{}' }).where('id', '=', W).execute();
    }
  });
});

describe('bad input', () => {
  it('400 with field errors for a blank message, a wrong dataset or parent, a bad parentId', async () => {
    const draft = await world.member.api.call('POST', linkOf(dataset, REL.newComment));
    const href = linkOf(draft.body, REL.updateComment);
    expectError(await world.member.api.call('PUT', href, { message: '   ', datasetId }), 400, { message: 'Message is required' });
    expectError(await world.member.api.call('PUT', href, { datasetId }), 400, { message: 'Message is required' });
    expectError(await world.member.api.call('PUT', href, { message: 'x'.repeat(10_001), datasetId }), 400, { message: /at most/ });
    expectError(await world.member.api.call('PUT', href, { message: 'ok' }), 400, { datasetId: /./ });
    expectError(await world.member.api.call('PUT', href, { message: 'ok', datasetId: W }), 400, { datasetId: 'must be the dataset of the comment' });
    expectError(await world.member.api.call('PUT', href, { message: 'ok', datasetId, parentId: W }), 400, { parentId: 'must be the parent of the comment' });
    expectError(await world.member.api.call('GET', `/api/datasets/${datasetId}/comments?parentId=nope`), 400, { parentId: /./ });
    expect((await world.member.api.call('GET', `/api/datasets/${datasetId}/comments?parentId=${W}`)).status).toBe(404);
  });

  it('stores hostile text exactly as sent and answers it as JSON text', async () => {
    await fc.assert(
      fc.asyncProperty(hostileString.filter((s) => s.trim() !== '' && !s.includes('\u0000') && s.length <= 10_000), async (message) => {
        const created = await post(world.member, dataset, message);
        // A lone surrogate cannot travel in UTF-8 JSON: it arrives as U+FFFD.
        expect(created.message).toBe(wellFormed(message));
        await world.member.api.call('DELETE', linkOf(created, REL.deleteComment));
      }),
      { numRuns: 15 },
    );
    const draft = await world.member.api.call('POST', linkOf(dataset, REL.newComment));
    expectError(await world.member.api.call('PUT', linkOf(draft.body, REL.updateComment), { message: 'a\u0000b', datasetId }), 400, { message: /NUL/ });
  });
});

describe('another workspace', () => {
  it('refuses the outsider every comment route (404, as for no such id)', async () => {
    const c = await post(world.owner, dataset, 'Private to the workspace');
    for (const [method, path, body] of [
      ['GET', `/api/datasets/${datasetId}/comments`, undefined],
      ['POST', `/api/datasets/${datasetId}/comments`, undefined],
      ['GET', `/api/comments/${c.id}`, undefined],
      ['POST', `/api/comments/${c.id}`, undefined],
      ['PUT', `/api/comments/${c.id}`, { message: 'x', datasetId }],
      ['DELETE', `/api/comments/${c.id}`, undefined],
      ['PUT', `/api/comments/${c.id}/like`, undefined],
      ['DELETE', `/api/comments/${c.id}/like`, undefined],
      ['GET', `/api/comments/${c.id}/history`, undefined],
    ] as const) {
      const answer = await world.outsider.api.call(method, path, body);
      expectError(answer, 404);
      expect(JSON.stringify(answer.body)).not.toContain('Private to the workspace');
    }
  });
});

describe('edit, history, likes, paging', () => {
  it('edits keep the earlier text in the history, latest first', async () => {
    const c = await post(world.member, dataset, 'first');
    const second = await world.member.api.call('PUT', linkOf(c, REL.updateComment), { message: 'second', datasetId });
    expect(second.status).toBe(200);
    await world.member.api.call('PUT', linkOf(c, REL.updateComment), { message: 'third', datasetId });
    const history = await world.owner.api.get(linkOf(c, REL.history));
    expect((history.body._embedded.comments as { message: string }[]).map((e) => e.message)).toEqual(['second', 'first']);
    expect((await world.owner.api.get(linkOf(c, REL.self))).body.message).toBe('third');
  });

  it('likes and unlikes idempotently; the author hears of the first like only', async () => {
    const c = await post(world.member, dataset, 'Like me');
    const before = (await notificationsOf(world.member, 'DATASET_LIKE')).length;
    const liked = await world.owner.api.call('PUT', linkOf(c, REL.likeComment));
    expect(liked.status).toBe(200);
    expect(liked.body.likeCount).toBe(1);
    expect(liked.body.likedByProfiles[0].id).toBe(world.owner.subject);
    await world.owner.api.call('PUT', linkOf(c, REL.likeComment));
    const likes = await notificationsOf(world.member, 'DATASET_LIKE');
    expect(likes.length).toBe(before + 1);
    expect(likes[0]).toMatchObject({ dataset_id: datasetId, actor_name: DEMO.owner.name });
    expect((await world.owner.api.call('DELETE', linkOf(c, REL.likeComment))).status).toBe(204);
    expect((await world.owner.api.call('DELETE', linkOf(c, REL.likeComment))).status).toBe(204);
    expect((await world.owner.api.get(linkOf(c, REL.self))).body.likeCount).toBe(0);
  });

  it('pages six at a time, newest first, with next; the dataset counts its comments', async () => {
    const other = (await world.member.api.get(`/api/workspaces/${W}/datasets/newsletter-growth`)).body;
    const made: string[] = [];
    for (let i = 0; i < 8; i += 1) made.push(String((await post(world.member, other, `Comment ${i}`)).id));
    const first = await world.member.api.get(linkOf(other, REL.comments));
    expect(commentsCollectionSchema.safeParse(first.body).success).toBe(true);
    expect(embedded(first.body, 'datasetComments').map((c: { message: string }) => c.message)).toEqual(['Comment 7', 'Comment 6', 'Comment 5', 'Comment 4', 'Comment 3', 'Comment 2']);
    const second = await world.member.api.get(first.body._links.next.href);
    expect(embedded(second.body, 'datasetComments').map((c: { message: string }) => c.message)).toEqual(['Comment 1', 'Comment 0']);
    expect(second.body._links.next).toBeUndefined();
    expect((await world.member.api.get(`/api/datasets/${String(other.id)}`)).body.commentCount).toBe(8);
  });
});

describe('notifications', () => {
  it('tells ALL watchers of a comment (not ALERTS ones, not the author), the parent author of a reply, and the mentioned member', async () => {
    const target = (await world.owner.api.get(`/api/workspaces/${W}/datasets/support-tickets`)).body;
    await world.owner.api.call('POST', linkOf(target, REL.addSubscription), { type: 'ALL' });
    await world.member.api.call('POST', linkOf((await world.member.api.get(`/api/datasets/${String(target.id)}`)).body, REL.addSubscription), { type: 'ALERTS' });
    const ownerBefore = (await notificationsOf(world.owner, 'DATASET_COMMENT')).length;
    const memberBefore = (await notificationsOf(world.member, 'DATASET_COMMENT')).length;
    const top = await post(world.member, target, 'Looks off #revenue');
    expect((await notificationsOf(world.owner, 'DATASET_COMMENT')).length).toBe(ownerBefore + 1);
    expect((await notificationsOf(world.member, 'DATASET_COMMENT')).length).toBe(memberBefore);
    expect((await notificationsOf(world.owner, 'DATASET_COMMENT'))[0]).toMatchObject({ dataset_id: String(target.id), workspace_id: W });

    // A reply by the owner tells the member (the parent's author), not the owner.
    await post(world.owner, top, 'Agreed', String(top.id));
    expect((await notificationsOf(world.member, 'DATASET_COMMENT')).length).toBe(memberBefore + 1);

    // @max is the member's handle: mentioned once on create, not again on an edit that keeps it.
    const mentionsBefore = (await notificationsOf(world.member, 'DATASET_MESSAGE')).length;
    const mention = await post(world.owner, target, 'Can you check, @max?');
    expect((await notificationsOf(world.member, 'DATASET_MESSAGE')).length).toBe(mentionsBefore + 1);
    // the notification names the member as the thread does, not the raw handle (issue 38)
    expect((await notificationsOf(world.member, 'DATASET_MESSAGE'))[0]?.message).toBe(`${world.owner.name} mentioned you: Can you check, ${world.member.name}?`);
    await world.owner.api.call('PUT', linkOf(mention, REL.updateComment), { message: 'Can you check again, @max?', datasetId: String(target.id) });
    expect((await notificationsOf(world.member, 'DATASET_MESSAGE')).length).toBe(mentionsBefore + 1);
  });

  it('delivers a mention to a member in mentions-only digest mode at once, while dropping their reply notice', async () => {
    const settings = linkOf((await world.member.api.get('/api/')).body, REL.updateNotificationSettings);
    expect((await world.member.api.call('PUT', settings, { mentionsOnly: true, digest: true, routes: [] })).status).toBe(200);
    try {
      const top = await post(world.member, dataset, 'Quiet mode on');
      const repliesBefore = (await notificationsOf(world.member, 'DATASET_COMMENT')).length;
      const mentionsBefore = (await notificationsOf(world.member, 'DATASET_MESSAGE')).length;
      await post(world.owner, top, 'Replying without a mention', String(top.id));
      await post(world.owner, dataset, 'Still needed here, @max');
      expect((await notificationsOf(world.member, 'DATASET_COMMENT')).length).toBe(repliesBefore);
      const mentions = await notificationsOf(world.member, 'DATASET_MESSAGE');
      expect(mentions.length).toBe(mentionsBefore + 1);
      expect(mentions[0]).toMatchObject({ dataset_id: datasetId, resolved: false });
    } finally {
      await world.member.api.call('PUT', settings, { mentionsOnly: false, digest: false, routes: [] });
    }
  });

  it('resolves mentions only to members of the workspace', async () => {
    const outsiderBefore = (await notificationsOf(world.outsider, 'DATASET_MESSAGE')).length;
    const handle = `@${world.outsider.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    await post(world.owner, dataset, `Hello ${handle} and @olivia`);
    expect((await notificationsOf(world.outsider, 'DATASET_MESSAGE')).length).toBe(outsiderBefore);
  });
});
