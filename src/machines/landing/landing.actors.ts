import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { getWorkspace, listJobs } from '../../api/workspaces';
import type { Job, Workspace } from '../../domain/resources';
import { SETUP_TASK_TYPES } from '../../domain/setupTasks';
import { SETUP_TASKS_PAGE_SIZE } from '../../api/setupTasks';

/** The landing machine's actors, for `landingMachine.provide({ actors: landingActors(client) })`. */
export function landingActors(client: ApiClient) {
  return {
    loadWorkspace: fromPromise<Workspace, { workspaceId: string }>(({ input, signal }) => getWorkspace(client, input.workspaceId, { signal })),
    // Only the setup tasks decide (spec 000 §4): asked by type, so a long run history cannot push them off the page.
    loadJobs: fromPromise<readonly Job[], { workspaceId: string }>(({ input, signal }) =>
      listJobs(client, input.workspaceId, { signal, query: { type: SETUP_TASK_TYPES.join(','), size: SETUP_TASKS_PAGE_SIZE } }),
    ),
  };
}
