import { setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { newsWithDatasets, type NewsCollection, type NewsItem } from '../../domain/library';
import type { Channel } from '../../domain/resources';
import { notProvidedActor } from '../notProvided';
import { pagedList, type PagedContext, type PageInput } from '../pagedList/pagedList.machine';

// The news (spec 002 §2 News): the caller's channel chips and the first page of their news
// (optionally `in:{channel}`), then Load More following the page's `next` link (the paged list).
// Items without an embedded dataset are dropped; an item seen on an earlier page is listed once.

export { NEXT, selectEmpty, selectError, selectFirstLoad, selectHasMore, selectLoadingMore, selectMoreError } from '../pagedList/pagedList.machine';

export type NewsInput = { readonly workspaceId: string; readonly q: string };
export type NewsFirst = { readonly page: NewsCollection; readonly channels: readonly Channel[] };

export type NewsContext = PagedContext<NewsCollection, NewsItem> & {
  readonly workspaceId: string;
  readonly q: string;
  readonly channels: readonly Channel[];
};

export type NewsEvent = { readonly type: 'user.loadMore' } | { readonly type: 'user.reload' } | { readonly type: 'user.retry' };

export const newsMachine = setup({
  types: { context: {} as NewsContext, events: {} as NewsEvent, input: {} as NewsInput },
  actors: {
    loadFirst: notProvidedActor<NewsFirst, NewsInput>('loadFirst'),
    loadNext: notProvidedActor<NewsCollection, PageInput<NewsCollection>>('loadNext'),
  },
}).createMachine({
  id: 'news',
  context: ({ input }) => ({ workspaceId: input.workspaceId, q: input.q, items: [], channels: [], lastPage: null, error: null, moreError: null }),
  ...pagedList<NewsContext, NewsEvent, NewsInput, NewsFirst, NewsCollection, NewsItem>({
    inputOf: (context) => ({ workspaceId: context.workspaceId, q: context.q }),
    pageOf: (first) => first.page,
    itemsOf: newsWithDatasets,
    withFirst: (first) => ({ channels: first.channels }),
    reload: true,
  }),
});

export type NewsSnapshot = SnapshotFrom<typeof newsMachine>;
