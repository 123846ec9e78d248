import { assign, emit, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { DATA_STORE_TEXTS, storeState } from '../../domain/dataStores';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { DataPlugin, DataStore, Workspace } from '../../domain/resources';
import { apiErrorOf } from '../apiError';
import { failureText } from '../failureText';
import { notProvided, notProvidedActor } from '../notProvided';

// The data store edit page (spec 001 §2 'Data stores', §4, §5 'Data store form', §8): loads the
// store (or, new, the plugin named by ?dataplugin), saves through 'new datastore' or 'update
// datastore', deletes after a confirmation. ?validate=true saves once on load to show the
// server's field errors. While the store's connection check runs it is re-read every 5 s.

export const STORE_POLL_MS = 5000;

export type DataStoreFormInput = {
  readonly workspaceId: string;
  readonly workspace: Workspace;
  readonly datastoreId: string | null;
  readonly dataPluginId: string | null;
  readonly validate: boolean;
};

export type LoadedStore = { readonly store: DataStore | null; readonly plugin: DataPlugin | null };

export type DataStoreFormContext = DataStoreFormInput & {
  readonly store: DataStore | null;
  readonly plugin: DataPlugin | null;
  readonly name: string;
  readonly nameTyped: boolean;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly banner: string | null;
  readonly fieldErrors: Readonly<Record<string, string>>;
  readonly loadError: string | null;
  readonly validatePending: boolean;
};

export type DataStoreFormEvent =
  | { readonly type: 'user.name'; readonly value: string }
  | { readonly type: 'user.setProperty'; readonly key: string; readonly value: unknown }
  | { readonly type: 'user.save' }
  | { readonly type: 'user.delete' }
  | { readonly type: 'user.confirm' }
  | { readonly type: 'user.cancel' }
  | { readonly type: 'user.close' }
  | { readonly type: 'user.retry' };

export type SaveStoreInput = {
  readonly workspace: Workspace;
  readonly store: DataStore | null;
  readonly body: { readonly name: string; readonly properties: Readonly<Record<string, unknown>>; readonly dataPlugin?: string };
};
export type StoreInput = { readonly store: DataStore };
export type DataStoreSavedEmitted = { readonly type: 'datastore.saved'; readonly message: string };

/** Spec §5: the name defaults to the store's name, else the plugin's label (or name). */
export function defaultStoreName(store: DataStore | null, plugin: DataPlugin | null): string {
  return store?.name ?? plugin?.label ?? plugin?.name ?? '';
}

/** Spec §8: a save error reads as the server's message, or 'An unexpected error occurred' when it has none; 400s bring field errors. */
export function saveFailure(error: unknown): { banner: string; fieldErrors: Record<string, string> } {
  const apiError = apiErrorOf(error);
  if (apiError.kind === 'response') {
    const fields = new Map<string, string>();
    for (const entry of apiError.body?.errors ?? []) if (!fields.has(entry.field)) fields.set(entry.field, entry.defaultMessage);
    const message = apiError.body?.message?.trim();
    return { banner: message !== undefined && message !== '' ? message : DATA_STORE_TEXTS.unexpected, fieldErrors: Object.fromEntries(fields) };
  }
  const text = failureText(error);
  return { banner: text.trim() === '' ? DATA_STORE_TEXTS.unexpected : text, fieldErrors: {} };
}

/** Properties as saved: settings the form never touched are not sent as empty values. */
export function propertiesToSave(properties: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== undefined));
}

const without = (errors: Readonly<Record<string, string>>, key: string) => Object.fromEntries(Object.entries(errors).filter(([k]) => k !== key));

export const dataStoreFormMachine = setup({
  types: {
    context: {} as DataStoreFormContext,
    events: {} as DataStoreFormEvent,
    input: {} as DataStoreFormInput,
    emitted: {} as DataStoreSavedEmitted,
  },
  actors: {
    load: notProvidedActor<LoadedStore, DataStoreFormInput>('load'),
    save: notProvidedActor<DataStore, SaveStoreInput>('save'),
    refresh: notProvidedActor<DataStore, StoreInput>('refresh'),
    remove: notProvidedActor<unknown, StoreInput>('remove'),
  },
  actions: {
    // The router's moves, provided by the composition root; the toast text travels with them.
    showStore: (_, _params: { workspaceId: string; datastoreId: string; message: string }) => notProvided('showStore')(),
    close: (_, _params: { workspaceId: string; message: string | null }) => notProvided('close')(),
  },
  delays: { storePoll: STORE_POLL_MS },
  guards: {
    validatePending: ({ context }) => context.validatePending,
    canSave: ({ context }) => selectCanSave(context),
    canDelete: ({ context }) => context.store !== null && hasLink(context.store, REL.deleteDatastore),
    provisioning: ({ context }) => context.store !== null && storeState(context.store) === 'PROVISIONING',
    wasNew: ({ context }) => context.store === null,
  },
}).createMachine({
  id: 'dataStoreForm',
  context: ({ input }) => ({
    ...input,
    store: null,
    plugin: null,
    name: '',
    nameTyped: false,
    properties: {},
    banner: null,
    fieldErrors: {},
    loadError: null,
    validatePending: input.validate,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ workspaceId: context.workspaceId, workspace: context.workspace, datastoreId: context.datastoreId, dataPluginId: context.dataPluginId, validate: context.validate }),
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({
            store: event.output.store,
            plugin: event.output.plugin,
            name: defaultStoreName(event.output.store, event.output.plugin),
            properties: event.output.store?.properties ?? {},
            loadError: null,
          })),
        },
        onError: { target: 'failed', actions: assign({ loadError: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: {
      on: {
        'user.retry': 'loading',
        'user.close': { actions: { type: 'close', params: ({ context }) => ({ workspaceId: context.workspaceId, message: null }) } },
      },
    },
    editing: {
      always: { guard: 'validatePending', target: 'saving', actions: assign({ validatePending: false }) },
      after: { storePoll: { guard: 'provisioning', target: 'refreshing' } },
      on: {
        'user.name': { actions: assign(({ context, event }) => ({ name: event.value, nameTyped: true, fieldErrors: without(context.fieldErrors, 'name') })) },
        'user.setProperty': {
          actions: assign(({ context, event }) => ({ properties: { ...context.properties, [event.key]: event.value }, fieldErrors: without(context.fieldErrors, `properties.${event.key}`) })),
        },
        'user.save': { guard: 'canSave', target: 'saving', actions: assign({ banner: null, fieldErrors: {} }) },
        'user.delete': { guard: 'canDelete', target: 'confirming' },
        'user.close': { actions: { type: 'close', params: ({ context }) => ({ workspaceId: context.workspaceId, message: null }) } },
      },
    },
    refreshing: {
      invoke: {
        id: 'refresh',
        src: 'refresh',
        input: ({ context }) => ({ store: context.store! }),
        // Only the store's state and links: what the user is typing stays.
        onDone: { target: 'editing', actions: assign({ store: ({ event }) => event.output }) },
        onError: { target: 'editing', actions: assign({ banner: ({ event }) => failureText(event.error) }) },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({
          workspace: context.workspace,
          store: context.store,
          body: {
            name: context.name.trim(),
            properties: propertiesToSave(context.properties),
            ...(context.store === null && context.plugin?.id ? { dataPlugin: context.plugin.id } : {}),
          },
        }),
        onDone: [
          {
            guard: 'wasNew',
            target: 'leaving',
            actions: { type: 'showStore', params: ({ context, event }) => ({ workspaceId: context.workspaceId, datastoreId: event.output.id, message: `${event.output.name} Saved` }) },
          },
          {
            target: 'editing',
            actions: [
              assign(({ event }) => ({ store: event.output, name: event.output.name, properties: event.output.properties ?? {}, banner: null, fieldErrors: {} })),
              emit(({ event }): DataStoreSavedEmitted => ({ type: 'datastore.saved', message: `${event.output.name} Saved` })),
            ],
          },
        ],
        onError: { target: 'editing', actions: assign(({ event }) => saveFailure(event.error)) },
      },
    },
    confirming: {
      on: {
        'user.confirm': 'deleting',
        'user.cancel': 'editing',
      },
    },
    deleting: {
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ store: context.store! }),
        onDone: { target: 'leaving', actions: { type: 'close', params: ({ context }) => ({ workspaceId: context.workspaceId, message: `${context.store?.name ?? context.name} deleted` }) } },
        onError: { target: 'editing', actions: assign(({ event }) => ({ banner: saveFailure(event.error).banner })) },
      },
    },
    leaving: { type: 'final' },
  },
});

export type DataStoreFormSnapshot = SnapshotFrom<typeof dataStoreFormMachine>;

/** Save needs a name and the link to save by (a new store also its plugin). */
export function selectCanSave(context: DataStoreFormContext): boolean {
  if (context.name.trim() === '') return false;
  if (context.store === null) return context.plugin !== null && hasLink(context.workspace, REL.newDatastore);
  return hasLink(context.store, REL.updateDatastore);
}

export function selectBusy(snapshot: DataStoreFormSnapshot): boolean {
  return snapshot.matches('saving') || snapshot.matches('deleting') || snapshot.matches('leaving');
}
