import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { NewsCollection, NewsItem } from '../../domain/library';
import type { PageInput } from '../pagedList/pagedList.machine';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import { newsActors } from './news.actors';
import { newsMachine, selectEmpty, selectHasMore, type NewsContext, type NewsFirst, type NewsInput, type NewsSnapshot } from './news.machine';

const API = 'http://api.test/api';
const item = (id: string, withDataset = true): NewsItem => ({
  id,
  type: 'DATASET_COMMENT',
  resolved: false,
  created: '2026-11-22T10:00:00Z',
  message: `news ${id}`,
  ...(withDataset ? { _embedded: { dataset: { id: `d-${id}`, title: `Dataset ${id}` } } } : {}),
});
const page = (items: NewsItem[], next: boolean): NewsCollection => ({
  _embedded: { notifications: items },
  _links: { self: { href: `${API}/self` }, ...(next ? { next: { href: `${API}/workspaces/w/news?page=1&size=10` } } : {}) },
  page: { size: 10, totalElements: 4, totalPages: next ? 2 : 1, number: 0 },
});
const FIRST = { page: page([item('a'), item('x', false), item('b')], true), channels: [{ id: 'c', name: 'Sales' }] };
const EMPTY = { page: { _links: {}, page: { size: 10, totalElements: 0, totalPages: 0, number: 0 } }, channels: [] };
const SECOND = page([item('b'), item('c')], false);
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.loadFirst': [{ output: FIRST }, { output: EMPTY }],
  'xstate.error.actor.loadFirst': [{ error: offline }],
  'xstate.done.actor.loadNext': [{ output: SECOND }],
  'xstate.error.actor.loadNext': [{ error: offline }],
};
const input = { workspaceId: 'w', q: 'in:sales' };
const paths = modelPaths(newsMachine, { input, events });

describe('news (model-based)', () => {
  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(newsMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(newsMachine, paths, { input, events })).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(newsMachine, path, {
      input,
      states: {
        '*': (s) => {
          const context = s.context as NewsContext;
          // never an item without its dataset, never one twice
          expect(context.items.every((i) => i._embedded?.dataset)).toBe(true);
          expect(new Set(context.items.map((i) => i.id)).size).toBe(context.items.length);
        },
        ready: (s) => expect(selectEmpty(s as NewsSnapshot)).toBe((s.context as NewsContext).items.length === 0),
        loadingMore: (s) => expect(selectHasMore(s as NewsSnapshot)).toBe(true),
      },
    });
  });
});

describe('news with the real actors', () => {
  it('asks for news in:{channel} and the chips, then follows next', async () => {
    const fake = fakeFetch({ body: FIRST.page }, { body: { _embedded: { channels: FIRST.channels } } }, { body: SECOND });
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(newsMachine.provide({ actors: newsActors(client) }), { input }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual(['a', 'b']);
    actor.send({ type: 'user.loadMore' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 3);
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    const first = new URL(fake.calls[0]?.url ?? '');
    expect(first.pathname).toBe('/api/workspaces/w/news');
    expect(first.searchParams.get('q')).toBe('in:sales');
    expect(new URL(fake.calls[1]?.url ?? '').pathname).toBe('/api/workspaces/w/news/channels');
    actor.stop();
  });
});

// Independent checks (issue 40): the test's own actors, expected lists written here from spec 002
// §2 News (channel chips, news with their dataset, Load More, reload).
describe('news, checked by hand', () => {
  function start() {
    const calls: string[] = [];
    const firsts: { resolve: (value: NewsFirst) => void; reject: (error: unknown) => void }[] = [];
    const actors = {
      loadFirst: fromPromise<NewsFirst, NewsInput>(({ input: asked }) => {
        calls.push(`first ${asked.workspaceId} ${asked.q}`);
        return new Promise((resolve, reject) => void firsts.push({ resolve, reject }));
      }),
      loadNext: fromPromise<NewsCollection, PageInput<NewsCollection>>(() => {
        calls.push('next');
        return Promise.resolve(SECOND);
      }),
    };
    const actor = createActor(newsMachine.provide({ actors }), { input }).start();
    return { actor, calls, firsts };
  }

  it('shows the channel chips the first answer brings and only news with a dataset', async () => {
    const { actor, firsts } = start();
    firsts[0]!.resolve(FIRST);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.channels).toEqual([{ id: 'c', name: 'Sales' }]);
    // 'x' has no dataset
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual(['a', 'b']);
    actor.stop();
  });

  it('reloads on request, keeping the list on screen until the fresh first page replaces it', async () => {
    const { actor, calls, firsts } = start();
    firsts[0]!.resolve(FIRST);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.reload' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(calls).toEqual(['first w in:sales', 'first w in:sales']);
    firsts[1]!.resolve({ page: page([item('z')], false), channels: [] });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual(['z']);
    expect(actor.getSnapshot().context.channels).toEqual([]);
    actor.stop();
  });

  it('cancels both first requests when the page is left before they answer', async () => {
    const signals: AbortSignal[] = [];
    const fake = fakeFetch({ hang: true }, { hang: true });
    const client = createApiClient({
      baseURL: API,
      getToken: () => Promise.resolve('t'),
      fetch: (url, init) => {
        if (init?.signal) signals.push(init.signal);
        return fake.fetch(url, init);
      },
      retryDelay: () => 0,
    });
    const actor = createActor(newsMachine.provide({ actors: newsActors(client) }), { input }).start();
    await vi.waitFor(() => expect(fake.calls).toHaveLength(2));
    actor.stop();
    expect(signals).toHaveLength(2);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });
});
