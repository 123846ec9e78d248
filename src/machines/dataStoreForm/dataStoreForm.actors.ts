import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { deleteDataStore, getDataStore, saveDataStore } from '../../api/dataStores';
import { findDataPlugin } from '../../api/pipelineForm';
import type { DataStore } from '../../domain/resources';
import type { DataStoreFormInput, LoadedStore, SaveStoreInput, StoreInput } from './dataStoreForm.machine';

/** `dataStoreFormMachine.provide({ actors: dataStoreFormActors(client), actions: { showStore, close } })`. */
export function dataStoreFormActors(client: ApiClient) {
  return {
    load: fromPromise<LoadedStore, DataStoreFormInput>(async ({ input, signal }) => {
      const store = input.datastoreId === null ? null : await getDataStore(client, input.datastoreId, { signal });
      const pluginId = store?.dataPlugin ?? input.dataPluginId;
      const plugin = pluginId === null || pluginId === '' ? null : await findDataPlugin(client, input.workspace, pluginId, { signal });
      return { store, plugin };
    }),
    save: fromPromise<DataStore, SaveStoreInput>(({ input, signal }) => saveDataStore(client, { workspace: input.workspace, store: input.store }, input.body, { signal })),
    refresh: fromPromise<DataStore, StoreInput>(({ input, signal }) => getDataStore(client, input.store.id, { signal })),
    remove: fromPromise<unknown, StoreInput>(({ input, signal }) => deleteDataStore(client, input.store, { signal })),
  };
}
