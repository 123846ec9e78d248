import { assign, setup } from 'xstate';
import { failureText } from '../failureText';
import { notProvided, notProvidedActor } from '../notProvided';

// Switch Workspace (spec 000 section 2.4): the profile's default workspace is set, then the app
// reloads to '/', where the landing rules pick the new workspace up.

export type WorkspaceSwitchInput = { readonly profileId: string };

export type WorkspaceSwitchContext = {
  readonly profileId: string;
  readonly workspaceId: string | null;
  readonly error: string | null;
};

export type WorkspaceSwitchEvent = { readonly type: 'user.switch'; readonly workspaceId: string };

export type SetDefaultWorkspaceInput = { readonly profileId: string; readonly workspaceId: string };

export const workspaceSwitchMachine = setup({
  types: {
    context: {} as WorkspaceSwitchContext,
    events: {} as WorkspaceSwitchEvent,
    input: {} as WorkspaceSwitchInput,
  },
  actors: {
    setDefaultWorkspace: notProvidedActor<void, SetDefaultWorkspaceInput>('setDefaultWorkspace'),
  },
  actions: {
    /** window.location to '/': a full reload, so every cached workspace resource is dropped. */
    reloadToRoot: notProvided('reloadToRoot'),
  },
  guards: {
    namesWorkspace: (_, { workspaceId }: { workspaceId: string }) => workspaceId.trim() !== '',
  },
}).createMachine({
  id: 'workspaceSwitch',
  context: ({ input }) => ({ profileId: input.profileId, workspaceId: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'user.switch': {
          guard: { type: 'namesWorkspace', params: ({ event }) => ({ workspaceId: event.workspaceId }) },
          target: 'switching',
          actions: assign({ workspaceId: ({ event }) => event.workspaceId, error: null }),
        },
      },
    },
    switching: {
      invoke: {
        id: 'setDefaultWorkspace',
        src: 'setDefaultWorkspace',
        input: ({ context }) => ({ profileId: context.profileId, workspaceId: context.workspaceId ?? '' }),
        onDone: 'done',
        onError: { target: 'idle', actions: assign({ workspaceId: null, error: ({ event }) => failureText(event.error) }) },
      },
    },
    done: { type: 'final', entry: 'reloadToRoot' },
  },
});
