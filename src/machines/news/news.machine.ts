import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasLink } from '../../domain/hal';
import { newsWithDatasets, type NewsCollection, type NewsItem } from '../../domain/library';
import type { Channel } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The news (spec 002 §2 News): the caller's channel chips and the first page of their news
// (optionally `in:{channel}`), then Load More following the page's `next` link. Items without an
// embedded dataset are dropped; an item seen on an earlier page is listed once.

export const NEXT = 'next';

export type NewsInput = { readonly workspaceId: string; readonly q: string };
export type NewsFirst = { readonly page: NewsCollection; readonly channels: readonly Channel[] };

export type NewsContext = {
  readonly workspaceId: string;
  readonly q: string;
  readonly items: readonly NewsItem[];
  readonly channels: readonly Channel[];
  readonly lastPage: NewsCollection | null;
  readonly error: string | null;
  readonly moreError: string | null;
};

export type NewsEvent = { readonly type: 'user.loadMore' } | { readonly type: 'user.reload' } | { readonly type: 'user.retry' };

function appendNew(items: readonly NewsItem[], page: NewsCollection): NewsItem[] {
  const seen = new Set(items.map((item) => item.id));
  return [...items, ...newsWithDatasets(page).filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id)))];
}

export const newsMachine = setup({
  types: { context: {} as NewsContext, events: {} as NewsEvent, input: {} as NewsInput },
  actors: {
    loadFirst: notProvidedActor<NewsFirst, NewsInput>('loadFirst'),
    loadNext: notProvidedActor<NewsCollection, { readonly page: NewsCollection }>('loadNext'),
  },
  guards: { hasNext: ({ context }) => hasLink(context.lastPage, NEXT) },
}).createMachine({
  id: 'news',
  context: ({ input }) => ({ workspaceId: input.workspaceId, q: input.q, items: [], channels: [], lastPage: null, error: null, moreError: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadFirst',
        src: 'loadFirst',
        input: ({ context }) => ({ workspaceId: context.workspaceId, q: context.q }),
        onDone: {
          target: 'ready',
          actions: assign({ items: ({ event }) => appendNew([], event.output.page), channels: ({ event }) => event.output.channels, lastPage: ({ event }) => event.output.page }),
        },
        onError: { target: 'failed', actions: assign({ items: [], lastPage: null, error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': { target: 'loading', actions: assign({ error: null }) } } },
    ready: {
      on: {
        'user.loadMore': { guard: 'hasNext', target: 'loadingMore', actions: assign({ moreError: null }) },
        'user.reload': { target: 'loading', actions: assign({ moreError: null }) },
      },
    },
    loadingMore: {
      invoke: {
        id: 'loadNext',
        src: 'loadNext',
        input: ({ context }) => {
          if (context.lastPage === null) throw new Error('loadNext without a page');
          return { page: context.lastPage };
        },
        onDone: { target: 'ready', actions: assign({ items: ({ context, event }) => appendNew(context.items, event.output), lastPage: ({ event }) => event.output }) },
        onError: { target: 'ready', actions: assign({ moreError: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type NewsSnapshot = SnapshotFrom<typeof newsMachine>;

export const selectHasMore = (s: NewsSnapshot): boolean => (s.matches('ready') || s.matches('loadingMore')) && hasLink(s.context.lastPage, NEXT);
export const selectEmpty = (s: NewsSnapshot): boolean => s.matches('ready') && s.context.items.length === 0;
export const selectFirstLoad = (s: NewsSnapshot): boolean => s.matches('loading') && s.context.items.length === 0;
