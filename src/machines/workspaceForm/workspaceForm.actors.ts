import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { deleteWorkspace, deployWorkspace, getWorkspace, initialiseWorkspace, saveWorkspace } from '../../api/workspaces';
import type { Workspace } from '../../domain/resources';
import type { SaveWorkspaceInput, WorkspaceFormInput, WorkspaceInput } from './workspaceForm.machine';

/** `workspaceFormMachine.provide({ actors: workspaceFormActors(client), actions: { showCreated, leave } })`. */
export function workspaceFormActors(client: ApiClient) {
  return {
    load: fromPromise<Workspace, WorkspaceFormInput>(({ input, signal }) => {
      if (input.workspaceId !== 'new') return getWorkspace(client, input.workspaceId, { signal });
      if (input.owner === null) throw new Error('Only owners may create a workspace');
      return initialiseWorkspace(client, input.owner, { signal });
    }),
    save: fromPromise<Workspace, SaveWorkspaceInput>(({ input, signal }) => saveWorkspace(client, input.workspace, input.body, { signal })),
    deploy: fromPromise<unknown, WorkspaceInput>(({ input, signal }) => deployWorkspace(client, input.workspace, { signal })),
    remove: fromPromise<unknown, WorkspaceInput>(({ input, signal }) => deleteWorkspace(client, input.workspace, { signal })),
  };
}
