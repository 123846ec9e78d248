import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import type { HalLike } from '../../domain/hal';
import type { Dataset, DatasetsCollection } from '../../domain/resources';
import { notProvidedActor } from '../notProvided';
import { failedFirstContext, firstPageContext, loadMoreRule, type PagedContext, type PageInput } from '../pagedList/pagedList.machine';

// A paged list of datasets (feed, search; spec 002 Feed and Explore): the first page, then
// 'Load More' following the page's `next` link until there is none (the paged list's Load More
// rule, composed in: this list also holds its placeholder for a minimum time, says when loading is
// slow, and checks for new datasets). Which list it is (feed or search, which workspace, which
// text) is the input's source, handed to the loadFirst actor; the machine only pages.

export { NEXT, selectEmpty, selectError, selectHasMore, selectLoadingMore, selectMoreError } from '../pagedList/pagedList.machine';

/** Which list: the workspace's feed, or a search of it (`q` as read from the URL; quotes are stripped by the API call). */
export type FeedSource =
  | { readonly kind: 'feed'; readonly workspaceId: string }
  | { readonly kind: 'search'; readonly workspaceId: string; readonly q: string }
  // Starred (spec 002): the caller's starred datasets; a library channel's datasets by its 'datasets' link
  | { readonly kind: 'liked'; readonly workspaceId: string }
  | { readonly kind: 'channel'; readonly channel: HalLike };

export type LoadFirstInput = { readonly source: FeedSource };

/** A first page and how long the server took to answer it (the summary's fetch time). */
export type FirstPage = { readonly page: DatasetsCollection; readonly fetchMs: number };

export type FeedInput = {
  readonly source: FeedSource;
  /** After this long without a first page the view says loading is taking longer (APP_PLACEHOLDER_LOAD_TIMEOUT). */
  readonly loadTimeoutMs: number;
  /** The placeholder shows at least this long, so a fast answer does not flash (APP_PLACEHOLDER_MINIMUM_LOAD). */
  readonly minimumLoadMs?: number;
  /** How often the first page is asked for again to notice new datasets ('New Insights'); 0 never. */
  readonly newInsightsPollMs?: number;
};

export type FeedContext = PagedContext<DatasetsCollection, Dataset> & {
  readonly source: FeedSource;
  readonly loadTimeoutMs: number;
  readonly minimumLoadMs: number;
  readonly newInsightsPollMs: number;
  /** How long the last first page took; null before one arrived. */
  readonly fetchMs: number | null;
  /** The first page arrived before the placeholder's minimum time: held here until it is up. */
  readonly pending: FirstPage | null;
  /** A dataset newer than the list shown has been published: the 'New Insights' banner. */
  readonly newInsights: boolean;
};

export type FeedEvent = { readonly type: 'user.loadMore' } | { readonly type: 'user.reload' } | { readonly type: 'user.retry' };

/** True when the fresh first page leads with a dataset the list does not hold: something new arrived. */
export function hasNewInsights(items: readonly Dataset[], fresh: DatasetsCollection): boolean {
  const first = itemsOf(fresh)[0];
  return first !== undefined && !items.some((item) => item.id === first.id);
}

export type LoadNextInput = PageInput<DatasetsCollection>;

const itemsOf = (page: DatasetsCollection): Dataset[] => page._embedded?.datasets ?? [];

// A dataset published while the user reads shifts every later page by one: the rule lists it once.
const loadMore = loadMoreRule<FeedContext, FeedEvent, DatasetsCollection, Dataset>(itemsOf);

export const feedMachine = setup({
  types: {
    context: {} as FeedContext,
    events: {} as FeedEvent,
    input: {} as FeedInput,
  },
  actors: {
    loadFirst: notProvidedActor<FirstPage, LoadFirstInput>('loadFirst'),
    loadNext: notProvidedActor<DatasetsCollection, LoadNextInput>('loadNext'),
    checkNew: notProvidedActor<FirstPage, LoadFirstInput>('checkNew'),
  },
  delays: {
    loadTimeout: ({ context }) => context.loadTimeoutMs,
    minimumLeft: ({ context }) => Math.max(0, context.minimumLoadMs - (context.pending?.fetchMs ?? 0)),
    newInsightsPoll: ({ context }) => context.newInsightsPollMs,
  },
  guards: {
    polls: ({ context }) => context.newInsightsPollMs > 0,
    belowMinimum: ({ context, event }) => (event as unknown as { output: FirstPage }).output.fetchMs < context.minimumLoadMs,
  },
  actions: {
    show: assign(({ context }) => {
      const first = context.pending;
      if (first === null) return {};
      return { ...firstPageContext(first.page, itemsOf), fetchMs: first.fetchMs, pending: null, newInsights: false };
    }),
  },
}).createMachine({
  id: 'feed',
  context: ({ input }) => ({
    source: input.source,
    loadTimeoutMs: input.loadTimeoutMs,
    minimumLoadMs: input.minimumLoadMs ?? 0,
    newInsightsPollMs: input.newInsightsPollMs ?? 0,
    fetchMs: null,
    pending: null,
    newInsights: false,
    items: [],
    lastPage: null,
    error: null,
    moreError: null,
  }),
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
        onDone: [
          // Too fast: the placeholder stays until its minimum time is up.
          { guard: 'belowMinimum', target: 'settling', actions: assign({ pending: ({ event }) => event.output }) },
          { target: 'ready', actions: [assign({ pending: ({ event }) => event.output }), 'show'] },
        ],
        onError: {
          target: 'failed',
          actions: assign(({ event }) => failedFirstContext(event.error)),
        },
      },
    },
    settling: {
      after: { minimumLeft: { target: 'ready', actions: 'show' } },
    },
    failed: {
      on: { 'user.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        'user.loadMore': loadMore.transition,
        // The list shown stays until the fresh first page replaces it.
        'user.reload': { target: 'loading', actions: assign({ moreError: null }) },
      },
      // Now and then the first page again: a dataset it leads with that the list lacks is new.
      initial: 'watching',
      states: {
        watching: {
          always: { guard: ({ context }) => context.newInsights, target: 'noticed' },
          after: { newInsightsPoll: { guard: 'polls', target: 'checking' } },
        },
        checking: {
          invoke: {
            id: 'checkNew',
            src: 'checkNew',
            input: ({ context }) => ({ source: context.source }),
            onDone: [
              { guard: ({ context, event }) => hasNewInsights(context.items, event.output.page), target: 'noticed', actions: assign({ newInsights: true }) },
              { target: 'watching' },
            ],
            // A failed check says nothing about new datasets: the next one tries again.
            onError: { target: 'watching' },
          },
        },
        // The banner shows until the user reloads; no more checks are needed.
        noticed: {},
      },
    },
    loadingMore: loadMore.state,
  },
});

export type FeedSnapshot = SnapshotFrom<typeof feedMachine>;

/** The server's count of all matches (page.totalElements); the items shown when it sent no page. */
export function selectTotal(snapshot: FeedSnapshot): number {
  return snapshot.context.lastPage?.page?.totalElements ?? snapshot.context.items.length;
}

/** Nothing to show yet: the first page is on its way and no earlier list is on screen. */
export function selectFirstLoad(snapshot: FeedSnapshot): boolean {
  return (snapshot.matches('loading') || snapshot.matches('settling')) && snapshot.context.items.length === 0;
}

export function selectSlow(snapshot: FeedSnapshot): boolean {
  return snapshot.matches({ loading: 'slow' });
}

/** The 'New Insights' banner shows while the list on screen is older than the feed. */
export function selectNewInsights(snapshot: FeedSnapshot): boolean {
  return snapshot.context.newInsights && !snapshot.matches('loading');
}

/** The summary's fetch time: 'less than one second' up to 1000 ms, then whole seconds. */
export function fetchTimeText(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return null;
  if (ms <= 1000) return 'less than one second';
  const seconds = Math.round(ms / 1000);
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}
