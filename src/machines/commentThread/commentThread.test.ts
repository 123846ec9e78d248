import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Comment, CommentsCollection, Dataset } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { commentThreadActors } from './commentThread.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { commentThreadMachine, likedBy, selectBusyId, selectConfirmOpen, selectError, selectHasMore, type CommentThreadSnapshot } from './commentThread.machine';

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
  it('cancels a read of the comments when the thread is closed before it answers', async () => {
    const inputs = { loadFirst: { parent: dataset }, loadNext: { page: page([mine], true) } };
    expect(await requestsCancelledOnStop(commentThreadActors, inputs)).toEqual({ loadFirst: true, loadNext: true });
  });
});
