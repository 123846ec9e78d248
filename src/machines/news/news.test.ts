import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { NewsCollection, NewsItem } from '../../domain/library';
import { modelPaths, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
import { newsActors } from './news.actors';
import { newsMachine, selectEmpty, selectHasMore, type NewsContext, type NewsSnapshot } from './news.machine';

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

  it.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
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
