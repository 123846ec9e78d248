import { assign, emit, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { storeState } from '../../domain/dataStores';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { DataStore, Workspace } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The 'Data Stores' list (spec 001 §2, §4 'Data stores', §6): Make default and Delete are offered
// by the store's links; make-default re-fetches the workspace and the stores, delete asks first
// and removes the store from the list. While a store's check runs the list is re-read every 5 s.

export const LIST_POLL_MS = 5000;

export type DataStoreListInput = { readonly workspace: Workspace };
export type DataStoreListContext = {
  readonly workspace: Workspace;
  readonly stores: readonly DataStore[] | null;
  readonly target: DataStore | null;
  readonly error: string | null;
};
export type DataStoreListEvent =
  | { readonly type: 'user.makeDefault'; readonly store: DataStore }
  | { readonly type: 'user.delete'; readonly store: DataStore }
  | { readonly type: 'user.confirm' }
  | { readonly type: 'user.cancel' }
  | { readonly type: 'user.retry' };
export type WorkspaceInput = { readonly workspace: Workspace };
export type TargetInput = { readonly store: DataStore };
export type DataStoreDeletedEmitted = { readonly type: 'datastore.deleted'; readonly message: string };

export const dataStoreListMachine = setup({
  types: { context: {} as DataStoreListContext, events: {} as DataStoreListEvent, input: {} as DataStoreListInput, emitted: {} as DataStoreDeletedEmitted },
  actors: {
    list: notProvidedActor<DataStore[], WorkspaceInput>('list'),
    makeDefault: notProvidedActor<unknown, TargetInput>('makeDefault'),
    refreshWorkspace: notProvidedActor<Workspace, WorkspaceInput>('refreshWorkspace'),
    remove: notProvidedActor<unknown, TargetInput>('remove'),
  },
  delays: { listPoll: LIST_POLL_MS },
  guards: {
    canMakeDefault: ({ event }) => event.type === 'user.makeDefault' && hasLink(event.store, REL.makeDefault),
    canDelete: ({ event }) => event.type === 'user.delete' && hasLink(event.store, REL.deleteDatastore),
    checking: ({ context }) => (context.stores ?? []).some((s) => storeState(s) === 'PROVISIONING'),
  },
}).createMachine({
  id: 'dataStoreList',
  context: ({ input }) => ({ workspace: input.workspace, stores: null, target: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'list',
        src: 'list',
        input: ({ context }) => ({ workspace: context.workspace }),
        onDone: { target: 'ready', actions: assign({ stores: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': { target: 'loading', actions: assign({ error: null }) } } },
    ready: {
      after: { listPoll: { guard: 'checking', target: 'loading' } },
      on: {
        'user.makeDefault': { guard: 'canMakeDefault', target: 'makingDefault', actions: assign({ target: ({ event }) => event.store, error: null }) },
        'user.delete': { guard: 'canDelete', target: 'confirming', actions: assign({ target: ({ event }) => event.store, error: null }) },
      },
    },
    makingDefault: {
      invoke: {
        id: 'makeDefault',
        src: 'makeDefault',
        input: ({ context }) => ({ store: context.target! }),
        onDone: 'refreshingWorkspace',
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
    refreshingWorkspace: {
      invoke: {
        id: 'refreshWorkspace',
        src: 'refreshWorkspace',
        input: ({ context }) => ({ workspace: context.workspace }),
        onDone: { target: 'loading', actions: assign({ workspace: ({ event }) => event.output, target: null }) },
        onError: { target: 'loading', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
    confirming: {
      on: {
        'user.confirm': 'deleting',
        'user.cancel': { target: 'ready', actions: assign({ target: null }) },
      },
    },
    deleting: {
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ store: context.target! }),
        onDone: {
          target: 'loading',
          actions: [
            emit(({ context }): DataStoreDeletedEmitted => ({ type: 'datastore.deleted', message: `${context.target?.name ?? ''} deleted` })),
            // Gone from the list at once; the re-read confirms it.
            assign(({ context }) => ({ stores: (context.stores ?? []).filter((s) => s.id !== context.target?.id), target: null })),
          ],
        },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
  },
});

export type DataStoreListSnapshot = SnapshotFrom<typeof dataStoreListMachine>;

export const selectConfirmOpen = (snapshot: DataStoreListSnapshot): boolean => snapshot.matches('confirming') || snapshot.matches('deleting');
