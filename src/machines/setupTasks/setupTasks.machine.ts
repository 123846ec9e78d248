import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Job, Workspace } from '../../domain/resources';
import { isTaskInProgress, orderTasks } from '../../domain/setupTasks';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The 'Setup Tasks' view (spec 001 §2–§4): the workspace's PROFILE_* jobs as cards; a task with a
// 'delete job' link can be dismissed. While a task is in progress the list is re-read every 5 s,
// so a pipeline saved in another tab ticks its card here.

export const TASKS_POLL_MS = 5000;

export type SetupTasksInput = { readonly workspace: Workspace };
export type SetupTasksContext = {
  readonly workspace: Workspace;
  readonly tasks: readonly Job[] | null;
  readonly target: Job | null;
  readonly error: string | null;
};
export type SetupTasksEvent = { readonly type: 'user.dismiss'; readonly task: Job } | { readonly type: 'user.retry' };
export type WorkspaceInput = { readonly workspace: Workspace };
export type TaskInput = { readonly task: Job };

export const setupTasksMachine = setup({
  types: { context: {} as SetupTasksContext, events: {} as SetupTasksEvent, input: {} as SetupTasksInput },
  actors: {
    list: notProvidedActor<Job[], WorkspaceInput>('list'),
    dismiss: notProvidedActor<unknown, TaskInput>('dismiss'),
  },
  delays: { tasksPoll: TASKS_POLL_MS },
  guards: {
    canDismiss: ({ event }) => event.type === 'user.dismiss' && hasLink(event.task, REL.deleteJob),
    inProgress: ({ context }) => (context.tasks ?? []).some((t) => isTaskInProgress(t.status)),
  },
}).createMachine({
  id: 'setupTasks',
  context: ({ input }) => ({ workspace: input.workspace, tasks: null, target: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'list',
        src: 'list',
        input: ({ context }) => ({ workspace: context.workspace }),
        onDone: { target: 'ready', actions: assign({ tasks: ({ event }) => orderTasks(event.output), error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': { target: 'loading', actions: assign({ error: null }) } } },
    ready: {
      after: { tasksPoll: { guard: 'inProgress', target: 'loading' } },
      on: { 'user.dismiss': { guard: 'canDismiss', target: 'dismissing', actions: assign({ target: ({ event }) => event.task, error: null }) } },
    },
    dismissing: {
      invoke: {
        id: 'dismiss',
        src: 'dismiss',
        input: ({ context }) => ({ task: context.target! }),
        onDone: {
          target: 'loading',
          // Gone from the list at once; the re-read confirms it.
          actions: assign(({ context }) => ({ tasks: (context.tasks ?? []).filter((t) => t.id !== context.target?.id), target: null })),
        },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
  },
});

export type SetupTasksSnapshot = SnapshotFrom<typeof setupTasksMachine>;
