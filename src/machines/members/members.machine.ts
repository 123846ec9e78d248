import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { embeddedList, hasLink, type HalLike } from '../../domain/hal';
import { appendMembers } from '../../domain/members';
import type { Member, MembersCollection } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The members page (issue 20): the first page of the workspace's 'members' link, then Load More
// following each page's 'next' link. A failed first page can be retried; a failed later page keeps
// what is listed and says why beside Load More.

export const NEXT = 'next';

export type MembersInput = { readonly workspace: HalLike };
export type MembersContext = {
  readonly workspace: HalLike;
  readonly members: readonly Member[];
  /** the last page read: its 'next' link says whether there is more */
  readonly lastPage: MembersCollection | null;
  readonly error: string | null;
  readonly moreError: string | null;
};
export type MembersEvent = { readonly type: 'user.loadMore' } | { readonly type: 'user.retry' };
export type PageInput = { readonly page: MembersCollection };

export const membersMachine = setup({
  types: { context: {} as MembersContext, events: {} as MembersEvent, input: {} as MembersInput },
  actors: {
    loadFirst: notProvidedActor<MembersCollection, MembersInput>('loadFirst'),
    loadNext: notProvidedActor<MembersCollection, PageInput>('loadNext'),
  },
  guards: { hasNext: ({ context }) => hasLink(context.lastPage, NEXT) },
}).createMachine({
  id: 'members',
  context: ({ input }) => ({ workspace: input.workspace, members: [], lastPage: null, error: null, moreError: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadFirst',
        src: 'loadFirst',
        input: ({ context }) => ({ workspace: context.workspace }),
        onDone: { target: 'ready', actions: assign({ members: ({ event }) => appendMembers([], embeddedList(event.output, 'members')), lastPage: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ members: [], lastPage: null, error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': { target: 'loading', actions: assign({ error: null }) } } },
    ready: { on: { 'user.loadMore': { guard: 'hasNext', target: 'loadingMore', actions: assign({ moreError: null }) } } },
    loadingMore: {
      invoke: {
        id: 'loadNext',
        src: 'loadNext',
        input: ({ context }) => {
          if (context.lastPage === null) throw new Error('loadNext without a page');
          return { page: context.lastPage };
        },
        onDone: { target: 'ready', actions: assign({ members: ({ context, event }) => appendMembers(context.members, embeddedList(event.output, 'members')), lastPage: ({ event }) => event.output }) },
        onError: { target: 'ready', actions: assign({ moreError: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type MembersSnapshot = SnapshotFrom<typeof membersMachine>;

export const selectFirstLoad = (s: MembersSnapshot): boolean => s.matches('loading');
export const selectEmpty = (s: MembersSnapshot): boolean => s.matches('ready') && s.context.members.length === 0;
export const selectHasMore = (s: MembersSnapshot): boolean => (s.matches('ready') || s.matches('loadingMore')) && hasLink(s.context.lastPage, NEXT);
export const selectError = (s: MembersSnapshot): string | null => (s.matches('failed') ? s.context.error : null);
