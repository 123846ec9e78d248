import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasLink, type HalLike } from '../../domain/hal';
import type { Dataset, DatasetsCollection } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// A paged list of datasets (feed, search; spec 002 Feed and Explore): the first page, then
// 'Load More' following the page's `next` link until there is none. Which list it is (feed or
// search, which workspace, which text) is the input's source, handed to the loadFirst actor; the
// machine only pages.

/** Spring HAL paging relation; not one of the spec's named relations. */
export const NEXT = 'next';

/** Which list: the workspace's feed, or a search of it (`q` as read from the URL; quotes are stripped by the API call). */
export type FeedSource =
  | { readonly kind: 'feed'; readonly workspaceId: string }
  | { readonly kind: 'search'; readonly workspaceId: string; readonly q: string }
  // Starred (spec 002): the caller's starred datasets; a library channel's datasets by its 'datasets' link
  | { readonly kind: 'liked'; readonly workspaceId: string }
  | { readonly kind: 'channel'; readonly channel: HalLike };

export type LoadFirstInput = { readonly source: FeedSource };

export type FeedInput = {
  readonly source: FeedSource;
  /** After this long without a first page the view says loading is taking longer (APP_PLACEHOLDER_LOAD_TIMEOUT). */
  readonly loadTimeoutMs: number;
};

export type FeedContext = {
  readonly source: FeedSource;
  readonly loadTimeoutMs: number;
  readonly items: readonly Dataset[];
  /** The last page received: its `next` link is the way to more. */
  readonly lastPage: DatasetsCollection | null;
  /** Why the first page failed; the list is replaced by the message. */
  readonly error: string | null;
  /** Why a further page failed; the list already shown stays. */
  readonly moreError: string | null;
};

export type FeedEvent = { readonly type: 'user.loadMore' } | { readonly type: 'user.reload' } | { readonly type: 'user.retry' };

export type LoadNextInput = { readonly page: DatasetsCollection };

const itemsOf = (page: DatasetsCollection): Dataset[] => page._embedded?.datasets ?? [];

/**
 * A dataset published while the user reads shifts every later page by one, so the next page can
 * repeat the last item already shown: it is listed once.
 */
export function appendNew(items: readonly Dataset[], more: readonly Dataset[]): Dataset[] {
  const seen = new Set(items.map((item) => item.id));
  const added: Dataset[] = [];
  for (const item of more) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    added.push(item);
  }
  return [...items, ...added];
}

export const feedMachine = setup({
  types: {
    context: {} as FeedContext,
    events: {} as FeedEvent,
    input: {} as FeedInput,
  },
  actors: {
    loadFirst: notProvidedActor<DatasetsCollection, LoadFirstInput>('loadFirst'),
    loadNext: notProvidedActor<DatasetsCollection, LoadNextInput>('loadNext'),
  },
  delays: {
    loadTimeout: ({ context }) => context.loadTimeoutMs,
  },
  guards: {
    hasNext: ({ context }) => hasLink(context.lastPage, NEXT),
  },
}).createMachine({
  id: 'feed',
  context: ({ input }) => ({ source: input.source, loadTimeoutMs: input.loadTimeoutMs, items: [], lastPage: null, error: null, moreError: null }),
  initial: 'loading',
  states: {
    loading: {
      initial: 'waiting',
      states: {
        waiting: { after: { loadTimeout: 'slow' } },
        slow: {},
      },
      invoke: {
        id: 'loadFirst',
        src: 'loadFirst',
        input: ({ context }) => ({ source: context.source }),
        onDone: {
          target: 'ready',
          actions: assign({ items: ({ event }) => appendNew([], itemsOf(event.output)), lastPage: ({ event }) => event.output }),
        },
        onError: {
          target: 'failed',
          actions: assign({ items: [], lastPage: null, error: ({ event }) => failureText(event.error) }),
        },
      },
    },
    failed: {
      on: { 'user.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        'user.loadMore': { guard: 'hasNext', target: 'loadingMore', actions: assign({ moreError: null }) },
        // The list shown stays until the fresh first page replaces it.
        'user.reload': { target: 'loading', actions: assign({ moreError: null }) },
      },
    },
    loadingMore: {
      invoke: {
        id: 'loadNext',
        src: 'loadNext',
        input: ({ context }) => {
          // Entered only through hasNext, so a page is there; the check keeps the type honest.
          if (context.lastPage === null) throw new Error('loadNext without a page');
          return { page: context.lastPage };
        },
        onDone: {
          target: 'ready',
          actions: assign({ items: ({ context, event }) => appendNew(context.items, itemsOf(event.output)), lastPage: ({ event }) => event.output }),
        },
        // lastPage is kept, so Load More tries the same page again.
        onError: { target: 'ready', actions: assign({ moreError: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type FeedSnapshot = SnapshotFrom<typeof feedMachine>;

/** Load More shows while there is a next page (and the first page has arrived). */
export function selectHasMore(snapshot: FeedSnapshot): boolean {
  return (snapshot.matches('ready') || snapshot.matches('loadingMore')) && hasLink(snapshot.context.lastPage, NEXT);
}

/** The server's count of all matches (page.totalElements); the items shown when it sent no page. */
export function selectTotal(snapshot: FeedSnapshot): number {
  return snapshot.context.lastPage?.page?.totalElements ?? snapshot.context.items.length;
}

/** Nothing to show yet: the first page is on its way and no earlier list is on screen. */
export function selectFirstLoad(snapshot: FeedSnapshot): boolean {
  return snapshot.matches('loading') && snapshot.context.items.length === 0;
}

export function selectSlow(snapshot: FeedSnapshot): boolean {
  return snapshot.matches({ loading: 'slow' });
}

/** An answered query with nothing in it: the view's empty state. */
export function selectEmpty(snapshot: FeedSnapshot): boolean {
  return snapshot.matches('ready') && snapshot.context.items.length === 0;
}
