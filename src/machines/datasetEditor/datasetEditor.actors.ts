import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { listStoreTables } from '../../api/storeTables';
import { editDataset, getDatasetById, listDatasetChannels, previewDataset, publishDataset } from '../../api/labDatasets';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Dataset, DatasetPreview } from '../../domain/resources';
import type { DatasetEditorInput, LoadedEditor, PreviewInput, SaveDatasetInput } from './datasetEditor.machine';

/** `datasetEditorMachine.provide({ actors: datasetEditorActors(client) })`. */
export function datasetEditorActors(client: ApiClient) {
  return {
    loadEditor: fromPromise<LoadedEditor, DatasetEditorInput>(async ({ input, signal }) => {
      const startsOn = input.datasetId === null && input.table ? input.table : null;
      const [dataset, channels, tables] = await Promise.all([
        input.datasetId === null ? Promise.resolve(null) : getDatasetById(client, input.datasetId, { signal }),
        // Without the workspace's channels link there is simply no channel to choose.
        hasLink(input.workspace, REL.channels) ? listDatasetChannels(client, input.workspace, { signal }) : Promise.resolve([]),
        // a first chart counts the table's rows by one of its columns: its columns are read (not required)
        startsOn !== null && hasLink(input.workspace, REL.tables) ? listStoreTables(client, input.workspace, { signal }).catch(() => []) : Promise.resolve([]),
      ]);
      const table = startsOn === null ? null : (tables.find((t) => t.name === startsOn) ?? null);
      return { dataset, channels: channels.map((channel) => ({ id: channel.id, name: channel.name })), table };
    }),
    saveDataset: fromPromise<Dataset, SaveDatasetInput>(({ input, signal }) =>
      input.dataset === null ? publishDataset(client, input.workspace, input.body, { signal }) : editDataset(client, input.dataset, input.body, { signal }),
    ),
    previewQuery: fromPromise<DatasetPreview, PreviewInput>(({ input, signal }) => previewDataset(client, input.workspace, input.query, { signal })),
  };
}
