import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasLink, type HalLike } from '../../domain/hal';
import { LIBRARY_TEXT, listName } from '../../domain/library';
import { REL } from '../../domain/relations';
import type { Channel } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The library's rows (spec 002 §2 Library): the caller's lists (or the workspace's source
// channels), a list dialog that requires a name (create: 'create channel', rename: 'update
// channel'), delete after 'Remove this list from the workspace...', and the scope toggle by the
// scope link the list offers. Every change reloads the rows, so they show what the server holds.

export type LibraryKind = 'LIST' | 'SOURCE';

export type LibraryListsInput = { readonly workspace: HalLike; readonly kind: LibraryKind };

export type ListDialog = {
  readonly mode: 'create' | 'rename';
  readonly channel: Channel | null;
  readonly name: string;
  readonly description: string;
  readonly error: string | null;
};

export type LibraryListsContext = {
  readonly workspace: HalLike;
  readonly kind: LibraryKind;
  readonly channels: readonly Channel[];
  readonly error: string | null;
  readonly dialog: ListDialog | null;
  /** the list a delete waits to be confirmed for */
  readonly pending: Channel | null;
  /** why the last delete or scope change failed (the rows stay) */
  readonly actionError: string | null;
};

export type LibraryListsEvent =
  | { readonly type: 'user.create' }
  | { readonly type: 'user.rename'; readonly channel: Channel }
  | { readonly type: 'user.changeName'; readonly name: string }
  | { readonly type: 'user.changeDescription'; readonly description: string }
  | { readonly type: 'user.submit' }
  | { readonly type: 'user.cancel' }
  | { readonly type: 'user.delete'; readonly channel: Channel }
  | { readonly type: 'user.confirm' }
  | { readonly type: 'user.toggleScope'; readonly channel: Channel }
  | { readonly type: 'user.reload' }
  | { readonly type: 'user.retry' };

export type SaveListInput = { readonly workspace: HalLike; readonly dialog: ListDialog };

/** Row actions appear only when canDelete holds (spec 002 §2); each then needs its own link. */
export const canRename = (channel: Channel): boolean => channel.canDelete === true && hasLink(channel, REL.updateChannel);
export const canDelete = (channel: Channel): boolean => channel.canDelete === true && hasLink(channel, REL.deleteChannel);
export const canToggleScope = (channel: Channel): boolean =>
  channel.canDelete === true && (hasLink(channel, REL.addWorkspaceScope) || hasLink(channel, REL.withdrawWorkspaceScope));

export const libraryListsMachine = setup({
  types: {
    context: {} as LibraryListsContext,
    events: {} as LibraryListsEvent,
    input: {} as LibraryListsInput,
  },
  actors: {
    loadChannels: notProvidedActor<Channel[], { readonly workspace: HalLike; readonly kind: LibraryKind }>('loadChannels'),
    saveList: notProvidedActor<Channel, SaveListInput>('saveList'),
    deleteList: notProvidedActor<void, { readonly channel: Channel }>('deleteList'),
    toggleScope: notProvidedActor<Channel, { readonly channel: Channel }>('toggleScope'),
  },
  guards: {
    lists: ({ context }) => context.kind === 'LIST' && hasLink(context.workspace, REL.createChannel),
    renamable: ({ event }) => event.type === 'user.rename' && canRename(event.channel),
    deletable: ({ event }) => event.type === 'user.delete' && canDelete(event.channel),
    scopable: ({ event }) => event.type === 'user.toggleScope' && canToggleScope(event.channel),
    named: ({ context }) => context.dialog !== null && listName(context.dialog.name) !== undefined,
  },
}).createMachine({
  id: 'libraryLists',
  context: ({ input }) => ({ workspace: input.workspace, kind: input.kind, channels: [], error: null, dialog: null, pending: null, actionError: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadChannels',
        src: 'loadChannels',
        input: ({ context }) => ({ workspace: context.workspace, kind: context.kind }),
        onDone: { target: 'ready', actions: assign({ channels: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': 'loading' } },
    ready: {
      on: {
        'user.create': { guard: 'lists', target: 'editing', actions: assign({ actionError: null, dialog: { mode: 'create', channel: null, name: '', description: '', error: null } }) },
        'user.rename': {
          guard: 'renamable',
          target: 'editing',
          actions: assign({
            actionError: null,
            dialog: ({ event }) => ({ mode: 'rename' as const, channel: event.channel, name: event.channel.name, description: event.channel.description ?? '', error: null }),
          }),
        },
        'user.delete': { guard: 'deletable', target: 'confirming', actions: assign({ actionError: null, pending: ({ event }) => event.channel }) },
        'user.toggleScope': { guard: 'scopable', target: 'togglingScope', actions: assign({ actionError: null, pending: ({ event }) => event.channel }) },
        'user.reload': { target: 'loading', actions: assign({ actionError: null }) },
      },
    },
    editing: {
      on: {
        'user.changeName': { actions: assign({ dialog: ({ context, event }) => context.dialog && { ...context.dialog, name: event.name, error: null } }) },
        'user.changeDescription': { actions: assign({ dialog: ({ context, event }) => context.dialog && { ...context.dialog, description: event.description } }) },
        'user.submit': [
          { guard: 'named', target: 'saving' },
          { actions: assign({ dialog: ({ context }) => context.dialog && { ...context.dialog, error: LIBRARY_TEXT.nameRequired } }) },
        ],
        'user.cancel': { target: 'ready', actions: assign({ dialog: null }) },
      },
    },
    saving: {
      invoke: {
        id: 'saveList',
        src: 'saveList',
        input: ({ context }) => {
          if (context.dialog === null) throw new Error('saveList without a dialog');
          return { workspace: context.workspace, dialog: context.dialog };
        },
        onDone: { target: 'loading', actions: assign({ dialog: null }) },
        // The dialog stays open with what was typed and why it failed.
        onError: { target: 'editing', actions: assign({ dialog: ({ context, event }) => context.dialog && { ...context.dialog, error: failureText(event.error) } }) },
      },
    },
    confirming: {
      on: {
        'user.confirm': 'deleting',
        'user.cancel': { target: 'ready', actions: assign({ pending: null }) },
      },
    },
    deleting: {
      invoke: {
        id: 'deleteList',
        src: 'deleteList',
        input: ({ context }) => {
          if (context.pending === null) throw new Error('deleteList without a list');
          return { channel: context.pending };
        },
        onDone: { target: 'loading', actions: assign({ pending: null }) },
        onError: { target: 'ready', actions: assign({ pending: null, actionError: ({ event }) => failureText(event.error) }) },
      },
    },
    togglingScope: {
      invoke: {
        id: 'toggleScope',
        src: 'toggleScope',
        input: ({ context }) => {
          if (context.pending === null) throw new Error('toggleScope without a list');
          return { channel: context.pending };
        },
        onDone: { target: 'loading', actions: assign({ pending: null }) },
        onError: { target: 'ready', actions: assign({ pending: null, actionError: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type LibraryListsSnapshot = SnapshotFrom<typeof libraryListsMachine>;

export const selectDialogOpen = (s: LibraryListsSnapshot): boolean => s.matches('editing') || s.matches('saving');
export const selectConfirmOpen = (s: LibraryListsSnapshot): boolean => s.matches('confirming') || s.matches('deleting');
