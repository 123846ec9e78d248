import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { dismissSetupTask, listSetupTasks } from '../../api/setupTasks';
import type { Job } from '../../domain/resources';
import type { TaskInput, WorkspaceInput } from './setupTasks.machine';

/** `setupTasksMachine.provide({ actors: setupTasksActors(client) })`. */
export function setupTasksActors(client: ApiClient) {
  return {
    list: fromPromise<Job[], WorkspaceInput>(({ input, signal }) => listSetupTasks(client, input.workspace, { signal })),
    dismiss: fromPromise<unknown, TaskInput>(({ input, signal }) => dismissSetupTask(client, input.task, { signal })),
  };
}
