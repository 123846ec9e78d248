import { describe, expect, it } from 'vitest';
import { createActor, toPromise, waitFor } from 'xstate';
import type { HalLike } from '../../domain/hal';
import { heldActors } from '../testing/deferred.fixture';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Comment, CommentsCollection, Dataset } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { commentThreadActors } from './commentThread.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import {
  commentThreadMachine,
  likedBy,
  selectBusyId,
  selectComments,
  selectConfirmOpen,
  selectError,
  selectHasMore,
  selectLoading,
  selectLoadingMore,
  selectPosting,
  type CommentInput,
  type CommentThreadInput,
  type CommentThreadSnapshot,
  type EditInput,
  type LikeInput,
  type PostInput,
} from './commentThread.machine';

const BASE = 'http://api.test/api';
const link = (href: string) => ({ href: `${BASE}${href}` });
const dataset: Dataset = { id: 'd1', title: 'Sales', _links: { self: link('/datasets/d1'), comments: link('/datasets/d1/comments'), 'new comment': link('/datasets/d1/comments') } };
const readOnly: Dataset = { ...dataset, _links: { self: link('/datasets/d1'), comments: link('/datasets/d1/comments') } };

const mine: Comment = {
  id: 'c1',
  datasetId: 'd1',
  message: 'Mine',
  likedByProfiles: [],
  _links: { self: link('/comments/c1'), 'update comment': link('/comments/c1'), 'delete comment': link('/comments/c1'), 'like comment': link('/comments/c1/like') },
};
const theirs: Comment = { id: 'c2', datasetId: 'd1', message: 'Theirs', likedByProfiles: [{ id: 'me' }], _links: { self: link('/comments/c2'), 'like comment': link('/comments/c2/like') } };
const page = (items: Comment[], next: boolean): CommentsCollection => ({
  _embedded: { datasetComments: items },
  _links: { self: link('/datasets/d1/comments'), ...(next ? { next: link('/datasets/d1/comments?page=1&size=6') } : {}) },
  page: { size: 6, totalElements: items.length + (next ? 6 : 0), totalPages: next ? 2 : 1, number: 0 },
});
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.loadFirst': [{ output: page([mine, theirs], true) }],
  'xstate.error.actor.loadFirst': [{ error: offline }],
  'xstate.done.actor.loadNext': [{ output: page([theirs, { ...mine, id: 'c3' }], false) }],
  'xstate.error.actor.loadNext': [{ error: offline }],
  'xstate.done.actor.post': [{ output: { ...mine, id: 'c9', message: 'New' } }],
  'xstate.error.actor.post': [{ error: offline }],
  'xstate.done.actor.edit': [{ output: { ...mine, message: 'Edited' } }],
  'xstate.error.actor.edit': [{ error: offline }],
  'xstate.done.actor.like': [{ output: { ...theirs, likedByProfiles: [] } }],
  'xstate.error.actor.like': [{ error: offline }],
  'xstate.done.actor.remove': [{ output: undefined }],
  'xstate.error.actor.remove': [{ error: offline }],
  // Blank text and comments without the link are offered too: the guards must refuse them.
  'user.post': [{ message: '  ' }, { message: 'Hello @max' }],
  'user.edit': [
    { comment: theirs, message: 'Hijack' },
    { comment: mine, message: '' },
    { comment: mine, message: 'Edited' },
  ],
  'user.delete': [{ comment: theirs }, { comment: mine }],
  'user.like': [{ comment: { ...theirs, _links: { self: link('/comments/c2') } } }, { comment: theirs }],
};

describe('the comment thread (model-based)', () => {
  const input = { parent: dataset, datasetId: 'd1', parentId: null, viewerId: 'me' };
  const stop = (s: CommentThreadSnapshot) => selectError(s) !== null || s.context.items.length > 3 || s.context.items.some((c) => c.message === 'Edited');
  const options = { input, events, stopWhen: stop };
  const paths = modelPaths(commentThreadMachine, options);

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(commentThreadMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(commentThreadMachine, paths, options)).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(commentThreadMachine, path, {
      input,
      states: {
        confirming: (s) => expect(selectConfirmOpen(s as CommentThreadSnapshot)).toBe(true),
        ready: (s) => {
          expect(selectConfirmOpen(s as CommentThreadSnapshot)).toBe(false);
          expect(selectBusyId(s as CommentThreadSnapshot)).toBeNull();
        },
        // Only what carries the link is acted on, and only with text.
        posting: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { message: string }).message).toBe('Hello @max'),
        saving: (_s, log: ReplayLog) => {
          const edit = log.invocations.at(-1)?.input as { comment: Comment; message: string };
          expect([edit.comment.id, edit.message]).toEqual(['c1', 'Edited']);
        },
        deleting: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { comment: Comment }).comment.id).toBe('c1'),
        // theirs is liked by the viewer already: the like takes it back.
        liking: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { like: boolean }).like).toBe(false),
      },
    });
  });

  it('a read-only parent (no new comment) never posts', () => {
    const snapshot = createActor(commentThreadMachine, { input: { ...input, parent: readOnly } }).getSnapshot();
    expect(snapshot.can({ type: 'user.post', message: 'hello' })).toBe(false);
  });
});

describe('comment thread scenarios', () => {
  it('likedBy reads likedByProfiles', () => {
    expect(likedBy(theirs, 'me')).toBe(true);
    expect(likedBy(mine, 'me')).toBe(false);
  });

  it('the real actors: lists, loads more, posts in two steps, likes, edits and deletes by the links', async () => {
    const fake = fakeFetch(
      { body: page([mine], true) },
      { body: page([mine, theirs], false) },
      { body: { id: 'c9', datasetId: 'd1', message: null, _links: { 'update comment': link('/comments/c9') } } },
      { status: 201, body: { ...mine, id: 'c9', message: 'Hi' } },
      { status: 204 },
      { body: { ...theirs, likedByProfiles: [] } },
      { body: { ...mine, message: 'Edited' } },
      { status: 204 },
    );
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(commentThreadMachine.provide({ actors: commentThreadActors(client) }), { input: { parent: dataset, datasetId: 'd1', parentId: null, viewerId: 'me' } }).start();
    const posted: string[] = [];
    actor.on('comment.posted', () => void posted.push('posted'));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(selectHasMore(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.loadMore' });
    await waitFor(actor, (s) => s.matches('ready') && !selectHasMore(s));
    expect(actor.getSnapshot().context.items.map((c) => c.id)).toEqual(['c1', 'c2']);
    actor.send({ type: 'user.post', message: 'Hi' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 3);
    expect(actor.getSnapshot().context.items[0]?.id).toBe('c9');
    actor.send({ type: 'user.like', comment: theirs });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.find((c) => c.id === 'c2')?.likedByProfiles?.length === 0);
    actor.send({ type: 'user.edit', comment: mine, message: 'Edited' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.some((c) => c.message === 'Edited'));
    actor.send({ type: 'user.delete', comment: mine });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('ready') && !s.context.items.some((c) => c.id === 'c1'));
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET ${BASE}/datasets/d1/comments`,
      `GET ${BASE}/datasets/d1/comments?page=1&size=6`,
      `POST ${BASE}/datasets/d1/comments`,
      `PUT ${BASE}/comments/c9`,
      `DELETE ${BASE}/comments/c2/like`,
      `GET ${BASE}/comments/c2`,
      `PUT ${BASE}/comments/c1`,
      `DELETE ${BASE}/comments/c1`,
    ]);
    expect(fake.calls[3]?.body).toEqual({ message: 'Hi', datasetId: 'd1' });
    expect(posted).toEqual(['posted']);
    actor.stop();
  });
});

describe('commentThread, checked by hand', () => {
  const UNABLE = 'We were unable to connect.';
  const onDataset: CommentThreadInput = { parent: dataset, datasetId: 'd1', parentId: null, viewerId: 'me' };
  const idsOf = (s: CommentThreadSnapshot) => selectComments(s).map((c) => c.id);

  /** The machine with actors the test answers; what it emits is recorded. */
  function start(input: CommentThreadInput = onDataset) {
    const { calls, held, answer, fail } = heldActors();
    const actors = {
      loadFirst: held<{ readonly parent: HalLike }, CommentsCollection>('loadFirst', ({ parent }) => (parent === dataset ? 'dataset' : 'another parent')),
      loadNext: held<{ readonly page: CommentsCollection }, CommentsCollection>('loadNext', () => 'next'),
      post: held<PostInput, Comment>('post', (i) => JSON.stringify(i.parentId === null ? { datasetId: i.datasetId, message: i.message } : { datasetId: i.datasetId, parentId: i.parentId, message: i.message })),
      edit: held<EditInput, Comment>('edit', (i) => `${i.comment.id} ${i.datasetId} ${i.message}`),
      like: held<LikeInput, Comment>('like', (i) => `${i.comment.id} ${i.like}`),
      remove: held<CommentInput, unknown>('remove', (i) => i.comment.id),
    };
    const actor = createActor(commentThreadMachine.provide({ actors }), { input }).start();
    const emitted: string[] = [];
    actor.on('*', (e) => void emitted.push(e.type === 'comment.saved' ? `${e.type} ${e.id}` : e.type));
    const snap = () => actor.getSnapshot();
    return { actor, calls, answer, fail, emitted, snap };
  }

  /** A thread with `items` listed (one page, no more). */
  async function listed(items: Comment[], input: CommentThreadInput = onDataset) {
    const started = start(input);
    await started.answer('loadFirst', 0, page(items, false));
    return started;
  }

  it('while the first page loads: loading, no comments, nothing busy; a failure says why and Retry reads again, the message gone', async () => {
    const { actor, calls, fail, answer, snap } = start();
    expect(selectLoading(snap())).toBe(true);
    expect(selectComments(snap())).toEqual([]);
    expect(selectBusyId(snap())).toBeNull();
    expect(selectError(snap())).toBeNull();
    await fail('loadFirst', 0, offline);
    expect(snap().value).toBe('failed');
    expect(selectLoading(snap())).toBe(false);
    expect(selectError(snap())).toBe(UNABLE);
    actor.send({ type: 'user.retry' });
    expect(selectLoading(snap())).toBe(true);
    expect(selectError(snap())).toBeNull();
    await answer('loadFirst', 1, page([mine, theirs], true));
    expect(idsOf(snap())).toEqual(['c1', 'c2']);
    expect(selectHasMore(snap())).toBe(true);
    expect(calls).toEqual(['loadFirst dataset', 'loadFirst dataset']);
    actor.stop();
  });

  it('a failed Load More keeps the thread and says why; the next Load More asks again with the message gone', async () => {
    const { actor, calls, fail, answer, snap } = start();
    await answer('loadFirst', 0, page([mine], true));
    actor.send({ type: 'user.loadMore' });
    expect(selectLoadingMore(snap())).toBe(true);
    await fail('loadNext', 0, offline);
    expect(selectLoadingMore(snap())).toBe(false);
    expect(selectError(snap())).toBe(UNABLE);
    expect(idsOf(snap())).toEqual(['c1']);
    actor.send({ type: 'user.loadMore' });
    expect(selectError(snap())).toBeNull();
    await answer('loadNext', 1, page([mine, theirs], false));
    expect(idsOf(snap())).toEqual(['c1', 'c2']);
    expect(selectHasMore(snap())).toBe(false);
    expect(calls.filter((c) => c.startsWith('loadNext'))).toHaveLength(2);
    actor.stop();
  });

  it('posts on a dataset newest first, with its datasetId and no parent, and says it was posted', async () => {
    const { actor, calls, answer, emitted, snap } = await listed([mine, theirs]);
    actor.send({ type: 'user.post', message: 'Hello' });
    expect(selectPosting(snap())).toBe(true);
    expect(calls.at(-1)).toBe('post {"datasetId":"d1","message":"Hello"}');
    await answer('post', 0, { ...mine, id: 'c9', message: 'Hello' });
    expect(selectPosting(snap())).toBe(false);
    expect(idsOf(snap())).toEqual(['c9', 'c1', 'c2']);
    expect(emitted).toEqual(['comment.posted']);
    actor.stop();
  });

  it('posts a reply last, under its parent comment', async () => {
    const parentComment: HalLike = { _links: { self: link('/comments/c1'), 'new comment': link('/comments/c1') } };
    const { actor, calls, answer, snap } = await listed([theirs], { parent: parentComment, datasetId: 'd1', parentId: 'c1', viewerId: 'me' });
    actor.send({ type: 'user.post', message: 'A reply' });
    expect(calls.at(-1)).toBe('post {"datasetId":"d1","parentId":"c1","message":"A reply"}');
    await answer('post', 0, { ...mine, id: 'c9', parentId: 'c1', message: 'A reply' });
    expect(idsOf(snap())).toEqual(['c2', 'c9']);
    actor.stop();
  });

  it('a failed post says why, keeps the thread, and the next action clears the message', async () => {
    const { actor, fail, emitted, snap } = await listed([mine]);
    actor.send({ type: 'user.post', message: 'Hello' });
    await fail('post', 0, offline);
    expect(snap().value).toBe('ready');
    expect(selectError(snap())).toBe(UNABLE);
    expect(idsOf(snap())).toEqual(['c1']);
    expect(emitted).toEqual([]);
    actor.send({ type: 'user.post', message: 'Again' });
    expect(selectError(snap())).toBeNull();
    actor.stop();
  });

  it('likes a comment the viewer has not liked, takes back one they have, and shows the answer; busy while it runs', async () => {
    const { actor, calls, answer, snap } = await listed([mine, theirs]);
    actor.send({ type: 'user.like', comment: mine });
    expect(selectBusyId(snap())).toBe('c1');
    expect(calls.at(-1)).toBe('like c1 true');
    const likedMine = { ...mine, likedByProfiles: [{ id: 'me' }] };
    await answer('like', 0, likedMine);
    expect(selectBusyId(snap())).toBeNull();
    expect(snap().context.target).toBeNull();
    expect(selectComments(snap())).toEqual([likedMine, theirs]);
    actor.send({ type: 'user.like', comment: theirs });
    expect(calls.at(-1)).toBe('like c2 false');
    actor.stop();
  });

  it('a comment with no likers at all is liked, not taken back', async () => {
    const { likedByProfiles: _none, ...noLikers } = mine;
    expect(likedBy(noLikers, 'me')).toBe(false);
    const { actor, calls } = await listed([noLikers]);
    actor.send({ type: 'user.like', comment: noLikers });
    expect(calls.at(-1)).toBe('like c1 true');
    actor.stop();
  });

  it('a comment others have liked, but not the viewer, is liked', async () => {
    const likedByOthers: Comment = { ...mine, likedByProfiles: [{ id: 'someone' }, { id: 'else' }] };
    expect(likedBy(likedByOthers, 'me')).toBe(false);
    const { actor, calls } = await listed([likedByOthers]);
    actor.send({ type: 'user.like', comment: likedByOthers });
    expect(calls.at(-1)).toBe('like c1 true');
    actor.stop();
  });

  it('a page without _embedded (Spring leaves it out when empty) lists no comments', async () => {
    const { actor, answer, snap } = start();
    await answer('loadFirst', 0, { _links: { self: link('/datasets/d1/comments') }, page: { size: 6, totalElements: 0, totalPages: 0, number: 0 } });
    expect(snap().value).toBe('ready');
    expect(selectComments(snap())).toEqual([]);
    actor.stop();
  });

  it("the real edit actor keeps a reply's parentId in the PUT body", async () => {
    const reply: Comment = { ...mine, id: 'r1', parentId: 'c1', _links: { self: link('/comments/r1'), 'update comment': link('/comments/r1') } };
    const fake = fakeFetch({ body: { ...reply, message: 'Edited' } });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const edited = await toPromise(createActor(commentThreadActors(client).edit, { input: { comment: reply, datasetId: 'd1', message: 'Edited' } }).start());
    expect(edited.message).toBe('Edited');
    expect(fake.calls.map((c) => [c.method, c.url, c.body])).toEqual([['PUT', `${BASE}/comments/r1`, { message: 'Edited', datasetId: 'd1', parentId: 'c1' }]]);
  });

  it('a failed like says why and leaves nothing busy', async () => {
    const { actor, fail, snap } = await listed([mine]);
    actor.send({ type: 'user.like', comment: mine });
    await fail('like', 0, offline);
    expect(snap().value).toBe('ready');
    expect(selectError(snap())).toBe(UNABLE);
    expect(snap().context.target).toBeNull();
    expect(selectComments(snap())).toEqual([mine]);
    actor.send({ type: 'user.like', comment: mine });
    expect(selectError(snap())).toBeNull();
    actor.stop();
  });

  it('saves an edit with its datasetId, replaces the comment and says which was saved; busy while it runs', async () => {
    const { actor, calls, answer, emitted, snap } = await listed([mine, theirs]);
    actor.send({ type: 'user.edit', comment: mine, message: 'Edited' });
    expect(selectBusyId(snap())).toBe('c1');
    expect(calls.at(-1)).toBe('edit c1 d1 Edited');
    const edited = { ...mine, message: 'Edited' };
    await answer('edit', 0, edited);
    expect(selectComments(snap())).toEqual([edited, theirs]);
    expect(snap().context.target).toBeNull();
    expect(selectBusyId(snap())).toBeNull();
    expect(emitted).toEqual(['comment.saved c1']);
    actor.stop();
  });

  it('a failed edit says why, keeps the comment as it was, and the next edit clears the message', async () => {
    const { actor, fail, emitted, snap } = await listed([mine]);
    actor.send({ type: 'user.edit', comment: mine, message: 'Edited' });
    await fail('edit', 0, offline);
    expect(snap().value).toBe('ready');
    expect(selectError(snap())).toBe(UNABLE);
    expect(snap().context.target).toBeNull();
    expect(selectComments(snap())).toEqual([mine]);
    expect(emitted).toEqual([]);
    actor.send({ type: 'user.edit', comment: mine, message: 'Edited' });
    expect(selectError(snap())).toBeNull();
    actor.stop();
  });

  it("asks 'Delete comment?' first: Cancel closes it with nothing deleted", async () => {
    const { actor, calls, snap } = await listed([mine, theirs]);
    actor.send({ type: 'user.delete', comment: mine });
    expect(snap().value).toBe('confirming');
    expect(selectConfirmOpen(snap())).toBe(true);
    expect(selectBusyId(snap())).toBeNull();
    actor.send({ type: 'user.cancel' });
    expect(snap().value).toBe('ready');
    expect(selectConfirmOpen(snap())).toBe(false);
    expect(snap().context.target).toBeNull();
    expect(calls).toEqual(['loadFirst dataset']);
    actor.stop();
  });

  it('deletes the confirmed comment only, the dialog open and the comment busy until it is done', async () => {
    const { actor, calls, answer, snap } = await listed([mine, theirs]);
    actor.send({ type: 'user.delete', comment: mine });
    actor.send({ type: 'user.confirm' });
    expect(selectConfirmOpen(snap())).toBe(true);
    expect(selectBusyId(snap())).toBe('c1');
    expect(calls.at(-1)).toBe('remove c1');
    await answer('remove', 0, undefined);
    expect(idsOf(snap())).toEqual(['c2']);
    expect(selectConfirmOpen(snap())).toBe(false);
    expect(snap().context.target).toBeNull();
    actor.stop();
  });

  it('a failed delete says why and keeps the comment', async () => {
    const { actor, fail, snap } = await listed([mine, theirs]);
    actor.send({ type: 'user.delete', comment: mine });
    actor.send({ type: 'user.confirm' });
    await fail('remove', 0, offline);
    expect(snap().value).toBe('ready');
    expect(selectError(snap())).toBe(UNABLE);
    expect(snap().context.target).toBeNull();
    expect(idsOf(snap())).toEqual(['c1', 'c2']);
    actor.send({ type: 'user.delete', comment: mine });
    expect(selectError(snap())).toBeNull();
    actor.stop();
  });

  it('refuses blank text and comments without their link', async () => {
    const { actor, calls, snap } = await listed([mine, theirs]);
    actor.send({ type: 'user.post', message: ' ' });
    actor.send({ type: 'user.edit', comment: mine, message: '' });
    actor.send({ type: 'user.edit', comment: theirs, message: 'Hijack' });
    actor.send({ type: 'user.delete', comment: theirs });
    actor.send({ type: 'user.like', comment: { ...theirs, _links: { self: link('/comments/c2') } } });
    expect(snap().value).toBe('ready');
    expect(calls).toEqual(['loadFirst dataset']);
    actor.stop();
  });

  it('cancels a read or a write of the comments when the thread is closed before it answers', async () => {
    const inputs = {
      loadFirst: { parent: dataset },
      loadNext: { page: page([mine], true) },
      post: { parent: dataset, datasetId: 'd1', parentId: null, message: 'Hi' },
      edit: { comment: mine, datasetId: 'd1', message: 'Edited' },
      like: { comment: theirs, like: true },
      remove: { comment: mine },
    };
    expect(await requestsCancelledOnStop(commentThreadActors, inputs)).toEqual({ loadFirst: true, loadNext: true, post: true, edit: true, like: true, remove: true });
    // taking a like back is two requests: the DELETE is cancelled like the rest
    expect(await requestsCancelledOnStop(commentThreadActors, { like: { comment: theirs, like: false } })).toEqual({ like: true });
  });
});
