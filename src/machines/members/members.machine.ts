import { setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { embeddedList, type HalLike } from '../../domain/hal';
import type { Member, MembersCollection } from '../../domain/resources';
import { notProvidedActor } from '../notProvided';
import { pagedList, type PagedContext, type PageInput } from '../pagedList/pagedList.machine';

// The members page (issue 20): the first page of the workspace's 'members' link, then Load More
// following each page's 'next' link (the paged list: a member listed on an earlier page is listed
// once; a failed first page can be retried; a failed later page keeps what is listed).

export { NEXT, selectEmpty, selectError, selectFirstLoad, selectHasMore, selectLoadingMore, selectMoreError } from '../pagedList/pagedList.machine';

export type MembersInput = { readonly workspace: HalLike };
export type MembersContext = PagedContext<MembersCollection, Member> & { readonly workspace: HalLike };
export type MembersEvent = { readonly type: 'user.loadMore' } | { readonly type: 'user.retry' };

export const membersMachine = setup({
  types: { context: {} as MembersContext, events: {} as MembersEvent, input: {} as MembersInput },
  actors: {
    loadFirst: notProvidedActor<MembersCollection, MembersInput>('loadFirst'),
    loadNext: notProvidedActor<MembersCollection, PageInput<MembersCollection>>('loadNext'),
  },
}).createMachine({
  id: 'members',
  context: ({ input }) => ({ workspace: input.workspace, items: [], lastPage: null, error: null, moreError: null }),
  ...pagedList<MembersContext, MembersEvent, MembersInput, MembersCollection, MembersCollection, Member>({
    inputOf: (context) => ({ workspace: context.workspace }),
    pageOf: (page) => page,
    itemsOf: (page) => embeddedList(page, 'members'),
    reload: false,
  }),
});

export type MembersSnapshot = SnapshotFrom<typeof membersMachine>;
