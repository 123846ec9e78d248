import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { countUnread } from '../../api/notifications';
import { countActiveJobs, latestDeployment } from '../../api/workspaces';
import type { Job } from '../../domain/resources';
import type { LatestDeploymentParams, PollingFetchInput, TaskCountParams } from './polling.machine';

/** For `notificationCountMachine.provide({ actors: { fetch: notificationCountActor(client) } })`. */
export function notificationCountActor(client: ApiClient) {
  return fromPromise<number, PollingFetchInput<null>>(({ signal }) => countUnread(client, { signal }));
}

/** For `taskCountMachine.provide({ actors: { fetch: taskCountActor(client) } })`. */
export function taskCountActor(client: ApiClient) {
  return fromPromise<number, PollingFetchInput<TaskCountParams>>(({ input, signal }) => countActiveJobs(client, input.params.workspace, { signal }));
}

/** For `latestDeploymentMachine.provide({ actors: { fetch: latestDeploymentActor(client) } })`. */
export function latestDeploymentActor(client: ApiClient) {
  return fromPromise<Job | null, PollingFetchInput<LatestDeploymentParams>>(({ input, signal }) => latestDeployment(client, input.params.workspace, { signal }));
}
