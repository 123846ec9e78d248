import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { countUnread } from '../../api/notifications';
import { countActiveJobs } from '../../api/workspaces';
import type { PollingFetchInput, TaskCountParams } from './polling.machine';

/** For `notificationCountMachine.provide({ actors: { fetch: notificationCountActor(client) } })`. */
export function notificationCountActor(client: ApiClient) {
  return fromPromise<number, PollingFetchInput<null>>(({ signal }) => countUnread(client, { signal }));
}

/** For `taskCountMachine.provide({ actors: { fetch: taskCountActor(client) } })`. */
export function taskCountActor(client: ApiClient) {
  return fromPromise<number, PollingFetchInput<TaskCountParams>>(({ input, signal }) => countActiveJobs(client, input.params.workspace, { signal }));
}
