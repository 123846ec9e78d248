import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { setDefaultWorkspace } from '../../api/profiles';
import type { SetDefaultWorkspaceInput } from './workspaceSwitch.machine';

/** `workspaceSwitchMachine.provide({ actors: workspaceSwitchActors(client), actions: { reloadToRoot: () => window.location.assign('/') } })`. */
export function workspaceSwitchActors(client: ApiClient) {
  return {
    setDefaultWorkspace: fromPromise<void, SetDefaultWorkspaceInput>(({ input, signal }) =>
      setDefaultWorkspace(client, input.profileId, input.workspaceId, { signal }),
    ),
  };
}
