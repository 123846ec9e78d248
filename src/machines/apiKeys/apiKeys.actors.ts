import { fromPromise } from 'xstate';
import { createApiKey, deleteApiKey, draftApiKey, listApiKeys, renameApiKey } from '../../api/apikeys';
import type { ApiClient } from '../../api/client';
import type { ApiKey } from '../../domain/resources';
import type { CopySecretInput, CreateKeyInput, DeleteKeyInput, RenameKeyInput } from './apiKeys.machine';

/** The one clipboard operation the page needs (navigator.clipboard at the composition root). */
export type Clipboard = { readonly writeText: (text: string) => Promise<void> };

/** The real effects of apiKeysMachine: `apiKeysMachine.provide({ actors: apiKeysActors(client, navigator.clipboard) })`. */
export function apiKeysActors(client: ApiClient, clipboard: Clipboard) {
  return {
    loadKeys: fromPromise<ApiKey[]>(({ signal }) => listApiKeys(client, { signal })),
    draftKey: fromPromise<ApiKey>(({ signal }) => draftApiKey(client, { signal })),
    createKey: fromPromise<ApiKey, CreateKeyInput>(({ input, signal }) => createApiKey(client, input.draft, input.name, { signal })),
    renameKey: fromPromise<ApiKey, RenameKeyInput>(({ input, signal }) => renameApiKey(client, input.key, input.name, { signal })),
    deleteKey: fromPromise<void, DeleteKeyInput>(({ input, signal }) => deleteApiKey(client, input.key, { signal })),
    copySecret: fromPromise<void, CopySecretInput>(({ input }) => clipboard.writeText(input.secret)),
  };
}
