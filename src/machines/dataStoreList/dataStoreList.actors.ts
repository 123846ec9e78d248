import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { deleteDataStore, listDataStores, makeDefaultDataStore, refreshWorkspace } from '../../api/dataStores';
import type { DataStore, Workspace } from '../../domain/resources';
import type { TargetInput, WorkspaceInput } from './dataStoreList.machine';

/** `dataStoreListMachine.provide({ actors: dataStoreListActors(client) })`. */
export function dataStoreListActors(client: ApiClient) {
  return {
    list: fromPromise<DataStore[], WorkspaceInput>(({ input, signal }) => listDataStores(client, input.workspace, { signal })),
    makeDefault: fromPromise<unknown, TargetInput>(({ input, signal }) => makeDefaultDataStore(client, input.store, { signal })),
    refreshWorkspace: fromPromise<Workspace, WorkspaceInput>(({ input, signal }) => refreshWorkspace(client, input.workspace, { signal })),
    remove: fromPromise<unknown, TargetInput>(({ input, signal }) => deleteDataStore(client, input.store, { signal })),
  };
}
