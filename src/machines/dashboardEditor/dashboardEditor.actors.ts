import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { search } from '../../api/datasets';
import { refreshWorkspace, saveAppProperty } from '../../api/workspaces';
import type { Workspace } from '../../domain/resources';
import { DASHBOARD_CONTENT, type DashboardEditorInput, type PickerDataset, type SaveContentInput, type SearchDatasetsInput } from './dashboardEditor.machine';

/** How many datasets the picker lists for one search. */
const PICKER_PAGE_SIZE = 20;

/** The workspace's datasets for the picker through the search endpoint (an empty query lists the newest); a dataset without an alias is named by its id. */
async function searchDatasets(client: ApiClient, { workspaceId, q }: SearchDatasetsInput, signal: AbortSignal): Promise<PickerDataset[]> {
  const page = await search(client, workspaceId, { q, size: PICKER_PAGE_SIZE }, { signal, skipErrorHandler: true });
  return (page._embedded?.datasets ?? []).map((dataset) => ({ alias: dataset.alias ?? dataset.id, title: dataset.title }));
}

/** `dashboardEditorMachine.provide({ actors: dashboardEditorActors(client) })`. The page shows its own failures. */
export function dashboardEditorActors(client: ApiClient) {
  return {
    refreshWorkspace: fromPromise<Workspace, DashboardEditorInput>(({ input, signal }) => refreshWorkspace(client, input.workspace, { signal, skipErrorHandler: true })),
    saveContent: fromPromise<Workspace, SaveContentInput>(({ input, signal }) =>
      saveAppProperty(client, input.workspace, DASHBOARD_CONTENT, input.content, { signal, skipErrorHandler: true }),
    ),
    searchDatasets: fromPromise<readonly PickerDataset[], SearchDatasetsInput>(({ input, signal }) => searchDatasets(client, input, signal)),
  };
}
