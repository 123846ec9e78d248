import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/errors';
import { landingRoute } from '../../domain/landing';
import { isWorkspaceAdmin } from '../../domain/permissions';
import type { Job, Workspace } from '../../domain/resources';
import { apiErrorOf } from '../apiError';
import { notProvidedActor } from '../notProvided';

// Landing (spec 000 section 4), after login at / and at /l/{workspaceId}: read the workspace; an
// admin's jobs decide between unfinished setup and the Lab; everyone else goes to the home page.
// Choosing the workspace at '/' (and the zero-workspace rule) is the pure domain rootRoute.

export type LandingInput = { readonly workspaceId: string };
export type LandingOutput = { readonly route: string };
export type LandingEvent = { readonly type: 'user.retry' };

export type LandingContext = {
  readonly workspaceId: string;
  readonly workspace: Workspace | undefined;
  readonly route: string | undefined;
  readonly error: ApiError | undefined;
};

export const landingMachine = setup({
  types: {
    context: {} as LandingContext,
    events: {} as LandingEvent,
    input: {} as LandingInput,
    output: {} as LandingOutput,
  },
  actors: {
    loadWorkspace: notProvidedActor<Workspace, { workspaceId: string }>('loadWorkspace'),
    loadJobs: notProvidedActor<readonly Job[], { workspaceId: string }>('loadJobs'),
  },
  actions: {
    storeError: assign((_, params: { error: ApiError }) => ({ error: params.error })),
  },
  guards: {
    isAdmin: (_, params: { workspace: Workspace }) => isWorkspaceAdmin(params.workspace),
  },
}).createMachine({
  id: 'landing',
  initial: 'loadingWorkspace',
  context: ({ input }) => ({ workspaceId: input.workspaceId, workspace: undefined, route: undefined, error: undefined }),
  output: ({ context }) => ({ route: context.route ?? '/' }),
  states: {
    loadingWorkspace: {
      entry: assign({ error: undefined }),
      invoke: {
        id: 'loadWorkspace',
        src: 'loadWorkspace',
        input: ({ context }) => ({ workspaceId: context.workspaceId }),
        onDone: [
          {
            guard: { type: 'isAdmin', params: ({ event }) => ({ workspace: event.output }) },
            target: 'loadingJobs',
            actions: assign({ workspace: ({ event }) => event.output }),
          },
          {
            target: 'done',
            actions: assign(({ event }) => ({ workspace: event.output, route: landingRoute({ workspace: event.output, jobs: [] }) })),
          },
        ],
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: apiErrorOf(event.error) }) } },
      },
    },
    loadingJobs: {
      invoke: {
        id: 'loadJobs',
        src: 'loadJobs',
        input: ({ context }) => ({ workspaceId: context.workspaceId }),
        onDone: {
          target: 'done',
          actions: assign(({ context, event }) => ({
            route: context.workspace === undefined ? undefined : landingRoute({ workspace: context.workspace, jobs: event.output }),
          })),
        },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: apiErrorOf(event.error) }) } },
      },
    },
    failed: {
      on: { 'user.retry': 'loadingWorkspace' },
    },
    done: { type: 'final' },
  },
});

export type LandingMachine = typeof landingMachine;
