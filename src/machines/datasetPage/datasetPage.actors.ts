import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import {
  datasetRows,
  deleteDataset,
  editDataset,
  getDataset,
  recordView,
  reloadDataset,
  setLiked,
  unwatchDataset,
  watchDataset,
  type DataRow,
} from '../../api/datasets';
import type { Dataset } from '../../domain/resources';
import type { DatasetInput, LikeInput, LoadInput, SaveDescriptionInput, SubscribeInput } from './datasetPage.machine';

/** `datasetPageMachine.provide({ actors: datasetPageActors(client), actions: ... })`. */
export function datasetPageActors(client: ApiClient) {
  return {
    // A 404 is the page's 'Dataset not found.': no error popup (skipErrorHandler).
    load: fromPromise<Dataset, LoadInput>(({ input, signal }) => getDataset(client, input.workspaceId, input.idOrAlias, { signal, skipErrorHandler: true })),
    rows: fromPromise<DataRow[], DatasetInput>(({ input, signal }) => datasetRows(client, input.dataset, { signal })),
    like: fromPromise<unknown, LikeInput>(({ input, signal }) => setLiked(client, input.dataset, input.liked, { signal })),
    subscribe: fromPromise<unknown, SubscribeInput>(({ input, signal }) => watchDataset(client, input.dataset, input.subscription, { signal })),
    unsubscribe: fromPromise<unknown, DatasetInput>(({ input, signal }) => unwatchDataset(client, input.dataset, { signal })),
    reload: fromPromise<Dataset, DatasetInput>(({ input, signal }) => reloadDataset(client, input.dataset, { signal })),
    remove: fromPromise<unknown, DatasetInput>(({ input, signal }) => deleteDataset(client, input.dataset, { signal })),
    saveDescription: fromPromise<Dataset, SaveDescriptionInput>(({ input, signal }) => editDataset(client, input.dataset, { description: input.description }, { signal })),
  };
}

/** The view is counted once per page visit; a failure other than 404 goes to the error reporter through the client. */
export function recordViewAction(client: ApiClient) {
  return (_: unknown, { dataset }: DatasetInput): void => {
    recordView(client, dataset).catch(() => undefined);
  };
}
