import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import type { DataRow } from '../../api/datasets';
import { DELETED_REDIRECT_MS, isLikedBy, needsRows, watchState, type Viewer } from '../../domain/datasetPage';
import { CONTINUOUS_POLL_MS } from '../../domain/visualisation/messages';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Dataset, SubscriptionType } from '../../domain/resources';
import { apiErrorOf } from '../apiError';
import { failureText } from '../failureText';
import { notProvided, notProvidedActor } from '../notProvided';

// The dataset page over time (spec 002 §2, §4, §7, §9). Loading by workspace and id or alias
// (404 → notFound, no error popup); once loaded three regions run side by side: the rows of the
// 'data' link (polled every 5 s when continuousPoll), the actions (like, watch, delete), and the
// description editor. Every change is followed by reading the dataset again, so the links (and
// with them what the page offers) are always the server's.

export type DatasetPageInput = { readonly workspaceId: string; readonly idOrAlias: string; readonly viewer: Viewer };

export type DatasetPageContext = DatasetPageInput & {
  readonly dataset: Dataset | null;
  /** undefined while the first rows load; [] when there is no data */
  readonly rows: readonly DataRow[] | undefined;
  readonly rowsError: string | null;
  /** why the dataset did not load (not a 404) */
  readonly loadError: string | null;
  /** why the last action failed */
  readonly error: string | null;
  readonly draft: string;
  readonly descriptionError: string | null;
};

export type DatasetPageEvent =
  | { readonly type: 'user.retry' }
  | { readonly type: 'user.reloadRows' }
  | { readonly type: 'user.like' }
  | { readonly type: 'user.watch' }
  | { readonly type: 'user.choose'; readonly subscription: SubscriptionType }
  | { readonly type: 'user.unwatch' }
  | { readonly type: 'user.delete' }
  | { readonly type: 'user.confirm' }
  | { readonly type: 'user.cancel' }
  | { readonly type: 'user.dismiss' }
  | { readonly type: 'user.edit' }
  | { readonly type: 'user.change'; readonly text: string }
  | { readonly type: 'user.save' }
  | { readonly type: 'user.cancelEdit' };

export type LoadInput = { readonly workspaceId: string; readonly idOrAlias: string };
export type DatasetInput = { readonly dataset: Dataset };
export type LikeInput = { readonly dataset: Dataset; readonly liked: boolean };
export type SubscribeInput = { readonly dataset: Dataset; readonly subscription: SubscriptionType };
export type SaveDescriptionInput = { readonly dataset: Dataset; readonly description: string };

const loaded = (context: DatasetPageContext): Dataset => {
  if (context.dataset === null) throw new Error('datasetPage: no dataset loaded');
  return context.dataset;
};

export function isNotFound(error: unknown): boolean {
  const apiError = apiErrorOf(error);
  return apiError.kind === 'response' && apiError.status === 404;
}

export const datasetPageMachine = setup({
  types: { context: {} as DatasetPageContext, events: {} as DatasetPageEvent, input: {} as DatasetPageInput },
  actors: {
    load: notProvidedActor<Dataset, LoadInput>('load'),
    rows: notProvidedActor<DataRow[], DatasetInput>('rows'),
    like: notProvidedActor<unknown, LikeInput>('like'),
    subscribe: notProvidedActor<unknown, SubscribeInput>('subscribe'),
    unsubscribe: notProvidedActor<unknown, DatasetInput>('unsubscribe'),
    reload: notProvidedActor<Dataset, DatasetInput>('reload'),
    remove: notProvidedActor<unknown, DatasetInput>('remove'),
    saveDescription: notProvidedActor<Dataset, SaveDescriptionInput>('saveDescription'),
  },
  actions: {
    /** PUT 'view dataset', fire and forget (a 404 is ignored by the call). */
    recordView: (_, _params: DatasetInput) => notProvided('recordView')(),
    /** Back to where the reader came from, after a delete. */
    goBack: (_, _params: { readonly workspaceId: string }) => notProvided('goBack')(),
    clearError: assign({ error: null }),
    keepError: assign({ error: ({ event }) => failureText((event as { error?: unknown }).error) }),
    keepDataset: assign({ dataset: ({ event }) => (event as unknown as { output: Dataset }).output }),
  },
  delays: { POLL: CONTINUOUS_POLL_MS, GO_BACK: DELETED_REDIRECT_MS },
  guards: {
    notFound: ({ event }) => isNotFound((event as { error?: unknown }).error),
    hasData: ({ context }) => context.dataset !== null && needsRows(context.dataset),
    polls: ({ context }) => context.dataset?.continuousPoll === true,
    canLike: ({ context }) => hasLink(context.dataset, REL.likeDataset),
    canWatch: ({ context }) => watchState(context.dataset) === 'notWatching',
    watching: ({ context }) => watchState(context.dataset) === 'watching',
    canDelete: ({ context }) => hasLink(context.dataset, REL.deleteDataset),
    canEdit: ({ context }) => hasLink(context.dataset, REL.editDataset),
    hasError: ({ context }) => context.error !== null,
  },
}).createMachine({
  id: 'datasetPage',
  context: ({ input }) => ({
    ...input,
    dataset: null,
    rows: undefined,
    rowsError: null,
    loadError: null,
    error: null,
    draft: '',
    descriptionError: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ workspaceId: context.workspaceId, idOrAlias: context.idOrAlias }),
        onDone: {
          target: 'ready',
          actions: ['keepDataset', { type: 'recordView', params: ({ event }) => ({ dataset: event.output }) }],
        },
        onError: [
          { guard: 'notFound', target: 'notFound' },
          { target: 'failed', actions: assign({ loadError: ({ event }) => failureText(event.error) }) },
        ],
      },
    },
    notFound: {},
    failed: { on: { 'user.retry': { target: 'loading', actions: assign({ loadError: null }) } } },
    ready: {
      type: 'parallel',
      states: {
        rows: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'hasData', target: 'loading' }, { target: 'none' }] },
            none: { entry: assign({ rows: [] }) },
            loading: {
              invoke: {
                id: 'rows',
                src: 'rows',
                input: ({ context }) => ({ dataset: loaded(context) }),
                onDone: { target: 'shown', actions: assign({ rows: ({ event }) => event.output, rowsError: null }) },
                onError: { target: 'failed', actions: assign({ rowsError: ({ event }) => failureText(event.error) }) },
              },
            },
            shown: {
              after: { POLL: { guard: 'polls', target: 'loading' } },
              on: { 'user.reloadRows': 'loading' },
            },
            failed: { on: { 'user.reloadRows': 'loading' } },
          },
        },
        actions: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'user.like': { guard: 'canLike', target: 'liking', actions: 'clearError' },
                'user.watch': { guard: 'canWatch', target: 'choosingWatch', actions: 'clearError' },
                'user.unwatch': { guard: 'watching', target: 'unsubscribing', actions: 'clearError' },
                'user.delete': { guard: 'canDelete', target: 'confirmingDelete', actions: 'clearError' },
                'user.dismiss': { guard: 'hasError', actions: 'clearError' },
              },
            },
            liking: {
              invoke: {
                id: 'like',
                src: 'like',
                input: ({ context }) => ({ dataset: loaded(context), liked: !isLikedBy(loaded(context), context.viewer) }),
                onDone: 'reloading',
                onError: { target: 'idle', actions: 'keepError' },
              },
            },
            choosingWatch: {
              on: {
                'user.choose': { target: 'subscribing', actions: 'clearError' },
                'user.cancel': 'idle',
              },
            },
            subscribing: {
              invoke: {
                id: 'subscribe',
                src: 'subscribe',
                input: ({ context, event }) => ({
                  dataset: loaded(context),
                  subscription: (event as Extract<DatasetPageEvent, { type: 'user.choose' }>).subscription,
                }),
                onDone: 'reloading',
                onError: { target: 'choosingWatch', actions: 'keepError' },
              },
            },
            unsubscribing: {
              invoke: {
                id: 'unsubscribe',
                src: 'unsubscribe',
                input: ({ context }) => ({ dataset: loaded(context) }),
                onDone: 'reloading',
                onError: { target: 'idle', actions: 'keepError' },
              },
            },
            reloading: {
              invoke: {
                id: 'reload',
                src: 'reload',
                input: ({ context }) => ({ dataset: loaded(context) }),
                onDone: { target: 'idle', actions: 'keepDataset' },
                onError: { target: 'idle', actions: 'keepError' },
              },
            },
            confirmingDelete: {
              on: {
                'user.confirm': { target: 'deleting', actions: 'clearError' },
                'user.cancel': 'idle',
              },
            },
            deleting: {
              invoke: {
                id: 'remove',
                src: 'remove',
                input: ({ context }) => ({ dataset: loaded(context) }),
                onDone: '#datasetPage.deleted',
                onError: { target: 'confirmingDelete', actions: 'keepError' },
              },
            },
          },
        },
        description: {
          initial: 'display',
          states: {
            display: {
              on: {
                'user.edit': {
                  guard: 'canEdit',
                  target: 'editing',
                  actions: assign({ draft: ({ context }) => context.dataset?.description ?? '', descriptionError: null }),
                },
              },
            },
            editing: {
              on: {
                'user.change': { actions: assign({ draft: ({ event }) => event.text }) },
                'user.save': { target: 'saving', actions: assign({ descriptionError: null }) },
                'user.cancelEdit': { target: 'display', actions: assign({ draft: '', descriptionError: null }) },
              },
            },
            saving: {
              invoke: {
                id: 'saveDescription',
                src: 'saveDescription',
                input: ({ context }) => ({ dataset: loaded(context), description: context.draft }),
                onDone: { target: 'display', actions: ['keepDataset', assign({ draft: '' })] },
                onError: { target: 'editing', actions: assign({ descriptionError: ({ event }) => failureText(event.error) }) },
              },
            },
          },
        },
      },
    },
    /** 'Dataset deleted successfully.', then back after 2 s. */
    deleted: { after: { GO_BACK: 'gone' } },
    gone: { type: 'final', entry: { type: 'goBack', params: ({ context }) => ({ workspaceId: context.workspaceId }) } },
  },
});

export type DatasetPageSnapshot = SnapshotFrom<typeof datasetPageMachine>;

export const selectIsLiked = (s: DatasetPageSnapshot): boolean => s.context.dataset !== null && isLikedBy(s.context.dataset, s.context.viewer);
export const selectBusy = (s: DatasetPageSnapshot): boolean =>
  ['liking', 'subscribing', 'unsubscribing', 'reloading', 'deleting'].some((state) => s.matches({ ready: { actions: state } } as never));
