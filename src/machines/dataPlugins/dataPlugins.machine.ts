import { assign, setup } from 'xstate';
import type { HalLike } from '../../domain/hal';
import type { DataPlugin } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The plugin catalogue's Installed and Available tabs (spec 001 §2, §6, §7): a page of 20 plugins
// by label, searched and filtered by type; install by 'add dataplugin'; remove by canDelete after
// the confirmation 'Remove this plugin from the workspace...'. Every change reloads the page.

export type DataPluginsInput = {
  /** its 'dataplugins' and 'availabledataplugins' links lead to the lists */
  readonly workspace: HalLike;
  /** the Installed tab (else Available) */
  readonly installed: boolean;
  readonly type: string | null;
};

export type PluginListQuery = { readonly workspace: HalLike; readonly installed: boolean; readonly page: number; readonly search: string; readonly type: string | null };
export type PluginListPage = { readonly items: DataPlugin[]; readonly totalElements: number; readonly totalPages: number };
export type PluginInput = { readonly plugin: DataPlugin };

export type DataPluginsContext = {
  readonly workspace: HalLike;
  readonly installed: boolean;
  readonly type: string | null;
  readonly search: string;
  /** 0-based */
  readonly page: number;
  readonly items: readonly DataPlugin[];
  readonly totalElements: number;
  readonly totalPages: number;
  /** the plugin being installed or removed */
  readonly target: DataPlugin | null;
  /** what the last change did: '{label} installed', '{label} deleted' */
  readonly notice: string | null;
  readonly error: string | null;
};

export type DataPluginsEvent =
  | { readonly type: 'user.search'; readonly search: string }
  | { readonly type: 'user.page'; readonly page: number }
  | { readonly type: 'user.reload' }
  | { readonly type: 'user.install'; readonly id: string }
  | { readonly type: 'user.delete'; readonly id: string }
  | { readonly type: 'user.confirmDelete' }
  | { readonly type: 'user.cancel' }
  | { readonly type: 'user.dismiss' };

const find = (context: DataPluginsContext, id: string) => context.items.find((p) => p.id === id);
const labelOf = (plugin: DataPlugin | null) => plugin?.label ?? plugin?.name ?? 'Plugin';
const hasRel = (plugin: DataPlugin | undefined, rel: string) => plugin?._links?.[rel] !== undefined;

export const dataPluginsMachine = setup({
  types: {
    context: {} as DataPluginsContext,
    events: {} as DataPluginsEvent,
    input: {} as DataPluginsInput,
  },
  actors: {
    loadPlugins: notProvidedActor<PluginListPage, PluginListQuery>('loadPlugins'),
    installPlugin: notProvidedActor<void, PluginInput>('installPlugin'),
    deletePlugin: notProvidedActor<void, PluginInput>('deletePlugin'),
  },
  guards: {
    // Install needs the plugin's 'add dataplugin' link; delete its canDelete (and the link behind it).
    mayInstall: ({ context }, { id }: { id: string }) => hasRel(find(context, id), 'add dataplugin'),
    mayDelete: ({ context }, { id }: { id: string }) => find(context, id)?.canDelete === true && hasRel(find(context, id), 'delete dataplugin'),
    isOtherPage: ({ context }, { page }: { page: number }) => Number.isInteger(page) && page >= 0 && page < Math.max(context.totalPages, 1) && page !== context.page,
  },
}).createMachine({
  id: 'dataPlugins',
  context: ({ input }) => ({
    workspace: input.workspace,
    installed: input.installed,
    type: input.type,
    search: '',
    page: 0,
    items: [],
    totalElements: 0,
    totalPages: 0,
    target: null,
    notice: null,
    error: null,
  }),
  initial: 'loading',
  on: {
    // A new search starts again from the first page, also while a page is loading.
    'user.search': { target: '.loading', reenter: true, actions: assign({ search: ({ event }) => event.search, page: 0 }) },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadPlugins',
        src: 'loadPlugins',
        input: ({ context }) => ({ workspace: context.workspace, installed: context.installed, page: context.page, search: context.search, type: context.type }),
        onDone: {
          target: 'idle',
          actions: assign({ items: ({ event }) => event.output.items, totalElements: ({ event }) => event.output.totalElements, totalPages: ({ event }) => event.output.totalPages, error: null }),
        },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    idle: {
      on: {
        'user.reload': { target: 'loading', actions: assign({ error: null }) },
        'user.page': {
          guard: { type: 'isOtherPage', params: ({ event }) => ({ page: event.page }) },
          target: 'loading',
          actions: assign({ page: ({ event }) => event.page }),
        },
        'user.install': {
          guard: { type: 'mayInstall', params: ({ event }) => ({ id: event.id }) },
          target: 'installing',
          actions: assign({ target: ({ context, event }) => find(context, event.id) ?? null, notice: null, error: null }),
        },
        'user.delete': {
          guard: { type: 'mayDelete', params: ({ event }) => ({ id: event.id }) },
          target: 'confirming',
          actions: assign({ target: ({ context, event }) => find(context, event.id) ?? null, notice: null, error: null }),
        },
        'user.dismiss': { actions: assign({ notice: null, error: null }) },
      },
    },
    installing: {
      invoke: {
        id: 'installPlugin',
        src: 'installPlugin',
        input: ({ context }) => ({ plugin: context.target! }),
        onDone: { target: 'loading', actions: assign({ notice: ({ context }) => `${labelOf(context.target)} installed`, target: null }) },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
    confirming: {
      on: {
        'user.confirmDelete': { target: 'deleting' },
        'user.cancel': { target: 'idle', actions: assign({ target: null }) },
      },
    },
    deleting: {
      invoke: {
        id: 'deletePlugin',
        src: 'deletePlugin',
        input: ({ context }) => ({ plugin: context.target! }),
        // The list is read again: the page may now hold a plugin from the next one.
        onDone: { target: 'loading', actions: assign({ notice: ({ context }) => `${labelOf(context.target)} deleted`, target: null }) },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
  },
});
