import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { getWorkspace, listJobs } from '../../api/workspaces';
import type { Job, Workspace } from '../../domain/resources';

/** The landing machine's actors, for `landingMachine.provide({ actors: landingActors(client) })`. */
export function landingActors(client: ApiClient) {
  return {
    loadWorkspace: fromPromise<Workspace, { workspaceId: string }>(({ input, signal }) => getWorkspace(client, input.workspaceId, { signal })),
    loadJobs: fromPromise<readonly Job[], { workspaceId: string }>(({ input, signal }) => listJobs(client, input.workspaceId, { signal })),
  };
}
