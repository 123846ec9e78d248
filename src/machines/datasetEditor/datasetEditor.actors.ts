import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { editDataset, getDatasetById, listDatasetChannels, previewDataset, publishDataset } from '../../api/labDatasets';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Dataset, DatasetPreview } from '../../domain/resources';
import type { DatasetEditorInput, LoadedEditor, PreviewInput, SaveDatasetInput } from './datasetEditor.machine';

/** `datasetEditorMachine.provide({ actors: datasetEditorActors(client) })`. */
export function datasetEditorActors(client: ApiClient) {
  return {
    loadEditor: fromPromise<LoadedEditor, DatasetEditorInput>(async ({ input, signal }) => {
      const [dataset, channels] = await Promise.all([
        input.datasetId === null ? Promise.resolve(null) : getDatasetById(client, input.datasetId, { signal }),
        // Without the workspace's channels link there is simply no channel to choose.
        hasLink(input.workspace, REL.channels) ? listDatasetChannels(client, input.workspace, { signal }) : Promise.resolve([]),
      ]);
      return { dataset, channels: channels.map((channel) => ({ id: channel.id, name: channel.name })) };
    }),
    saveDataset: fromPromise<Dataset, SaveDatasetInput>(({ input, signal }) =>
      input.dataset === null ? publishDataset(client, input.workspace, input.body, { signal }) : editDataset(client, input.dataset, input.body, { signal }),
    ),
    previewQuery: fromPromise<DatasetPreview, PreviewInput>(({ input, signal }) => previewDataset(client, input.workspace, input.query, { signal })),
  };
}
