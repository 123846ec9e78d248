import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { refreshWorkspace, saveAppProperty } from '../../api/workspaces';
import type { Workspace } from '../../domain/resources';
import { DASHBOARD_CONTENT, type DashboardEditorInput, type SaveContentInput } from './dashboardEditor.machine';

/** `dashboardEditorMachine.provide({ actors: dashboardEditorActors(client) })`. The page shows its own failures. */
export function dashboardEditorActors(client: ApiClient) {
  return {
    refreshWorkspace: fromPromise<Workspace, DashboardEditorInput>(({ input, signal }) => refreshWorkspace(client, input.workspace, { signal, skipErrorHandler: true })),
    saveContent: fromPromise<Workspace, SaveContentInput>(({ input, signal }) =>
      saveAppProperty(client, input.workspace, DASHBOARD_CONTENT, input.content, { signal, skipErrorHandler: true }),
    ),
  };
}
