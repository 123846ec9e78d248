import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Member, MembersCollection } from '../../domain/resources';
import type { PageInput } from '../pagedList/pagedList.machine';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { membersActors } from './members.actors';
import { membersMachine, selectEmpty, selectError, selectFirstLoad, selectHasMore, type MembersContext, type MembersInput, type MembersSnapshot } from './members.machine';

const API = 'http://api.test/api';
const workspace = { _links: { self: { href: `${API}/workspaces/w` }, members: { href: `${API}/workspaces/w/members` } } };
const person = (id: string, administrator = false): Member => ({ id, name: `Person ${id}`, handle: `@${id}`, administrator });
const page = (members: Member[], number: number, next: boolean): MembersCollection => ({
  _embedded: { members },
  _links: { self: { href: `${API}/workspaces/w/members?page=${number}&size=2` }, ...(next ? { next: { href: `${API}/workspaces/w/members?page=${number + 1}&size=2` } } : {}) },
  page: { size: 2, totalElements: 5, totalPages: 3, number },
});
const FIRST = page([person('a', true), person('b')], 0, true);
// a member who joined meanwhile shifts the pages: 'b' comes again and is listed once
const SECOND = page([person('b'), person('c')], 1, true);
const LAST = page([person('d')], 2, false);
const EMPTY: MembersCollection = { _links: { self: { href: `${API}/workspaces/w/members` } }, page: { size: 2, totalElements: 0, totalPages: 0, number: 0 } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.loadFirst': [{ output: FIRST }, { output: EMPTY }],
  'xstate.error.actor.loadFirst': [{ error: offline }],
  'xstate.done.actor.loadNext': [{ output: SECOND }, { output: LAST }],
  'xstate.error.actor.loadNext': [{ error: offline }],
  'user.loadMore': [{}],
  'user.retry': [{}],
};
const input = { workspace };
const options = { input, events };
const paths = modelPaths(membersMachine, options);

describe('members (model-based)', () => {
  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(membersMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(membersMachine, paths, options)).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    // what the pages read along the path add up to: each member once, where first seen
    const read = path.steps.flatMap(({ event }) => (event.type.startsWith('xstate.done.actor.') ? ((event as unknown as { output: MembersCollection }).output._embedded?.members ?? []) : []));
    const expected = [...new Set(read.map((m) => m.id))];
    await replayPath(membersMachine, path, {
      input,
      states: {
        '*': (s) => {
          const snapshot = s as MembersSnapshot;
          const context = s.context as MembersContext;
          // every member once; the first load is the only spinner; an error only when failed
          expect(new Set(context.items.map((m) => m.id)).size).toBe(context.items.length);
          expect(selectFirstLoad(snapshot)).toBe(s.matches('loading'));
          expect(selectError(snapshot) !== null).toBe(s.matches('failed'));
        },
        loading: (s, log: ReplayLog) => {
          expect(log.invocations.at(-1)).toMatchObject({ src: 'loadFirst', input: { workspace } });
          expect((s.context as MembersContext).items).toEqual([]);
        },
        failed: (s) => expect((s as MembersSnapshot).context.error).toBe('We were unable to connect.'),
        ready: (s) => {
          const snapshot = s as MembersSnapshot;
          expect(selectEmpty(snapshot)).toBe(snapshot.context.items.length === 0);
          // Load More is offered exactly while the last page read has a next link
          expect(selectHasMore(snapshot)).toBe(snapshot.context.lastPage?._links?.next !== undefined);
        },
        loadingMore: (s, log: ReplayLog) => {
          expect(selectHasMore(s as MembersSnapshot)).toBe(true);
          // it follows the last page read, never a page it built itself
          expect(log.invocations.at(-1)).toMatchObject({ src: 'loadNext', input: { page: (s.context as MembersContext).lastPage } });
          expect((s.context as MembersContext).moreError).toBeNull();
        },
      },
    });
    if (!path.state.matches('failed')) expect((path.state.context as MembersContext).items.map((m) => m.id)).toEqual(expected);
  });
});

describe('members with the real actors', () => {
  it("follows the workspace's members link, then each page's next link, until there is none", async () => {
    const fake = fakeFetch({ body: FIRST }, { body: SECOND }, { body: LAST });
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(membersMachine.provide({ actors: membersActors(client) }), { input }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.loadMore' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 3);
    actor.send({ type: 'user.loadMore' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 4);
    expect(selectHasMore(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.items.map((m) => m.administrator)).toEqual([true, false, false, false]);
    expect(fake.calls.map((c) => c.url)).toEqual([`${API}/workspaces/w/members?size=50`, `${API}/workspaces/w/members?page=1&size=2`, `${API}/workspaces/w/members?page=2&size=2`]);
    actor.stop();
  });
});

// Independent checks (issue 40): the test's own actors and the lists written out here.
describe('members, checked by hand', () => {
  it('lists the members the first page embeds, then each member of the next page not listed yet', async () => {
    const asked: unknown[] = [];
    const actors = {
      loadFirst: fromPromise<MembersCollection, MembersInput>(({ input: first }) => {
        asked.push(first);
        return Promise.resolve(FIRST);
      }),
      loadNext: fromPromise<MembersCollection, PageInput<MembersCollection>>(({ input: next }) => {
        asked.push(next.page);
        return Promise.resolve(SECOND);
      }),
    };
    const actor = createActor(membersMachine.provide({ actors }), { input }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.items.map((m) => m.id)).toEqual(['a', 'b']);
    actor.send({ type: 'user.loadMore' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length > 2);
    expect(actor.getSnapshot().context.items.map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(asked).toEqual([{ workspace }, FIRST]);
    actor.stop();
  });

  it('cancels the request for members when the page is left before it answers', async () => {
    const signals: AbortSignal[] = [];
    const fake = fakeFetch({ body: FIRST }, { hang: true }, { hang: true });
    const client = createApiClient({
      baseURL: API,
      getToken: () => Promise.resolve('t'),
      fetch: (url, init) => {
        if (init?.signal) signals.push(init.signal);
        return fake.fetch(url, init);
      },
      retryDelay: () => 0,
    });
    const first = createActor(membersMachine.provide({ actors: membersActors(client) }), { input }).start();
    await waitFor(first, (s) => s.matches('ready'));
    first.send({ type: 'user.loadMore' });
    await vi.waitFor(() => expect(fake.calls).toHaveLength(2));
    first.stop();
    // a second visit leaves while the first page is on its way
    const second = createActor(membersMachine.provide({ actors: membersActors(client) }), { input }).start();
    await vi.waitFor(() => expect(fake.calls).toHaveLength(3));
    second.stop();
    expect(signals).toHaveLength(3);
    expect(signals.slice(1).every((s) => s.aborted)).toBe(true);
  });
});
