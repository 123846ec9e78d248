import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { COPIED_TOAST_MS } from '../../domain/constants';
import type { ApiKey } from '../../domain/resources';
import { validateApiKeyName } from '../../domain/validation';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The /api-key page (spec 000 sections 2.9, 4 and 5): the list, the two-step delete, rename on
// blur or Enter, and the creation flow draft -> name -> create -> secret shown once.

export type ApiKeysInput = {
  /** The root resource carries 'new apikey' (domain canCreateApiKey); without it New is refused. */
  readonly canCreate: boolean;
};

export type ApiKeysContext = {
  readonly canCreate: boolean;
  readonly keys: readonly ApiKey[];
  /** The server's draft while it is being named; it carries the 'create apikey' link. */
  readonly draft: ApiKey | null;
  readonly name: string;
  readonly nameError: string | null;
  /** The client secret of the key just issued; dropped when the panel closes. */
  readonly secret: string | null;
  readonly pendingDelete: ApiKey | null;
  readonly error: string | null;
};

export type ApiKeysEvent =
  | { readonly type: 'user.reload' }
  | { readonly type: 'user.new' }
  | { readonly type: 'user.typeName'; readonly name: string }
  | { readonly type: 'user.create' }
  | { readonly type: 'user.copy' }
  | { readonly type: 'user.closeIssued' }
  | { readonly type: 'user.rename'; readonly id: string; readonly name: string }
  | { readonly type: 'user.delete'; readonly id: string }
  | { readonly type: 'user.confirmDelete' }
  | { readonly type: 'user.cancel' };

export type CreateKeyInput = { readonly draft: ApiKey; readonly name: string };
export type RenameKeyInput = { readonly key: ApiKey; readonly name: string };
export type DeleteKeyInput = { readonly key: ApiKey };
export type CopySecretInput = { readonly secret: string };

/** The special key of spec 000 sections 2.9 and 4: after deleting it the list is reloaded, not edited locally. */
export const DEFAULT_KEY_NAME = 'default';

const findKey = (keys: readonly ApiKey[], id: string): ApiKey | undefined => keys.find((key) => key.id === id);

/** Replaces the key with the same id, or appends it: a repeated answer never duplicates a row. */
function upsert(keys: readonly ApiKey[], key: ApiKey): ApiKey[] {
  return keys.some((k) => k.id === key.id) ? keys.map((k) => (k.id === key.id ? key : k)) : [...keys, key];
}

/** The list never holds a secret: it is shown once from `secret` and then forgotten. */
function withoutSecret(key: ApiKey): ApiKey {
  const { clientSecret: _secret, ...rest } = key;
  return rest;
}

const trimmed = (name: string): string => name.trim();

export const apiKeysMachine = setup({
  types: {
    context: {} as ApiKeysContext,
    events: {} as ApiKeysEvent,
    input: {} as ApiKeysInput,
  },
  actors: {
    loadKeys: notProvidedActor<ApiKey[]>('loadKeys'),
    draftKey: notProvidedActor<ApiKey>('draftKey'),
    createKey: notProvidedActor<ApiKey, CreateKeyInput>('createKey'),
    renameKey: notProvidedActor<ApiKey, RenameKeyInput>('renameKey'),
    deleteKey: notProvidedActor<void, DeleteKeyInput>('deleteKey'),
    copySecret: notProvidedActor<void, CopySecretInput>('copySecret'),
  },
  delays: { copiedToast: COPIED_TOAST_MS },
  guards: {
    mayCreate: ({ context }) => context.canCreate,
    nameIsValid: ({ context }) => validateApiKeyName(context.name) === undefined,
    // Saved on blur or Enter only when non-empty; an unchanged name is no edit and costs no call.
    isRenameToSave: ({ context }, { id, name }: { id: string; name: string }) => {
      const key = findKey(context.keys, id);
      return key !== undefined && validateApiKeyName(name) === undefined && trimmed(name) !== key.name;
    },
    isListed: ({ context }, { id }: { id: string }) => findKey(context.keys, id) !== undefined,
    deletedDefaultKey: ({ context }) => context.pendingDelete?.name === DEFAULT_KEY_NAME,
    hasSecret: ({ context }) => context.secret !== null,
  },
}).createMachine({
  id: 'apiKeys',
  context: ({ input }) => ({
    canCreate: input.canCreate,
    keys: [],
    draft: null,
    name: '',
    nameError: null,
    secret: null,
    pendingDelete: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadKeys',
        src: 'loadKeys',
        onDone: { target: 'idle', actions: assign({ keys: ({ event }) => event.output.map(withoutSecret) }) },
        // The list already shown stays: a failed reload must not blank the page.
        onError: { target: 'idle', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    idle: {
      on: {
        'user.reload': { target: 'loading', actions: assign({ error: null }) },
        'user.new': { guard: 'mayCreate', target: 'drafting', actions: assign({ error: null }) },
        'user.rename': {
          guard: { type: 'isRenameToSave', params: ({ event }) => ({ id: event.id, name: event.name }) },
          target: 'renaming',
          actions: assign({ error: null }),
        },
        'user.delete': {
          guard: { type: 'isListed', params: ({ event }) => ({ id: event.id }) },
          target: 'confirmingDelete',
          actions: assign({ error: null, pendingDelete: ({ context, event }) => findKey(context.keys, event.id) ?? null }),
        },
      },
    },
    drafting: {
      invoke: {
        id: 'draftKey',
        src: 'draftKey',
        onDone: {
          target: 'naming',
          actions: assign({ draft: ({ event }) => event.output, name: ({ event }) => event.output.name ?? '', nameError: null }),
        },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    naming: {
      on: {
        'user.typeName': {
          actions: assign({
            name: ({ event }) => event.name,
            // Once shown, the message stays until the name is valid.
            nameError: ({ context, event }) => (validateApiKeyName(event.name) === undefined ? null : context.nameError),
          }),
        },
        'user.create': [
          { guard: 'nameIsValid', target: 'creating', actions: assign({ nameError: null, error: null }) },
          { actions: assign({ nameError: ({ context }) => validateApiKeyName(context.name) ?? null }) },
        ],
        'user.cancel': { target: 'idle', actions: assign({ draft: null, name: '', nameError: null, error: null }) },
      },
    },
    creating: {
      invoke: {
        id: 'createKey',
        src: 'createKey',
        input: ({ context }) => {
          // naming is entered only with a draft, so this holds; the guard keeps the type honest.
          if (context.draft === null) throw new Error('createKey without a draft');
          return { draft: context.draft, name: trimmed(context.name) };
        },
        onDone: {
          target: 'issued',
          actions: assign({
            keys: ({ context, event }) => upsert(context.keys, withoutSecret(event.output)),
            secret: ({ event }) => event.output.clientSecret ?? null,
            draft: null,
            name: '',
          }),
        },
        // Back to naming: the draft and the typed name survive, so Create can be pressed again.
        onError: { target: 'naming', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    issued: {
      initial: 'shown',
      on: {
        'user.closeIssued': { target: 'idle', actions: assign({ secret: null }) },
      },
      states: {
        shown: {
          on: { 'user.copy': { guard: 'hasSecret', target: 'copying' } },
        },
        copying: {
          invoke: {
            id: 'copySecret',
            src: 'copySecret',
            input: ({ context }) => ({ secret: context.secret ?? '' }),
            onDone: 'copied',
            onError: { target: 'shown', actions: assign({ error: ({ event }) => failureText(event.error) }) },
          },
        },
        copied: {
          after: { copiedToast: 'shown' },
          on: { 'user.copy': { target: 'copying' } },
        },
      },
    },
    confirmingDelete: {
      on: {
        'user.confirmDelete': { target: 'deleting' },
        'user.cancel': { target: 'idle', actions: assign({ pendingDelete: null }) },
      },
    },
    deleting: {
      invoke: {
        id: 'deleteKey',
        src: 'deleteKey',
        input: ({ context }) => {
          if (context.pendingDelete === null) throw new Error('deleteKey without a key');
          return { key: context.pendingDelete };
        },
        onDone: [
          { guard: 'deletedDefaultKey', target: 'loading', actions: assign({ pendingDelete: null }) },
          {
            target: 'idle',
            actions: assign({
              keys: ({ context }) => context.keys.filter((key) => key.id !== context.pendingDelete?.id),
              pendingDelete: null,
            }),
          },
        ],
        onError: { target: 'idle', actions: assign({ pendingDelete: null, error: ({ event }) => failureText(event.error) }) },
      },
    },
    renaming: {
      invoke: {
        id: 'renameKey',
        src: 'renameKey',
        input: ({ context, event }) => {
          if (event.type !== 'user.rename') throw new Error('renameKey without a rename');
          const key = findKey(context.keys, event.id);
          if (key === undefined) throw new Error(`renameKey: no key ${event.id}`);
          return { key, name: trimmed(event.name) };
        },
        onDone: { target: 'idle', actions: assign({ keys: ({ context, event }) => upsert(context.keys, withoutSecret(event.output)) }) },
        // The list keeps the old name; the view shows it again.
        onError: { target: 'idle', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type ApiKeysSnapshot = SnapshotFrom<typeof apiKeysMachine>;

/** 'New API token' is enabled only with the root's 'new apikey' link and nothing else under way. */
export function selectNewEnabled(snapshot: ApiKeysSnapshot): boolean {
  return snapshot.context.canCreate && snapshot.matches('idle');
}

/** Create is disabled while the name is empty and after the key has been issued. */
export function selectCreateEnabled(snapshot: ApiKeysSnapshot): boolean {
  return snapshot.matches('naming') && validateApiKeyName(snapshot.context.name) === undefined;
}
