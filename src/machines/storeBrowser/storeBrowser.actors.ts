import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { listStoreTables, storeTableSample } from '../../api/storeTables';
import type { StoreTable, StoreTableSample } from '../../domain/resources';
import type { OwnerInput, TableInput } from './storeBrowser.machine';

/** `storeBrowserMachine.provide({ actors: storeBrowserActors(client) })`. */
export function storeBrowserActors(client: ApiClient) {
  return {
    list: fromPromise<StoreTable[], OwnerInput>(({ input, signal }) => listStoreTables(client, input.owner, { signal })),
    sample: fromPromise<StoreTableSample, TableInput>(({ input, signal }) => storeTableSample(client, input.table, { signal })),
  };
}
