import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { setDefaultWorkspace } from '../../api/profiles';
import type { SetDefaultWorkspaceInput } from './workspaceSwitch.machine';

/** The switch's actors; the composition root (src/ui/machineAreas/shell.ts) adds reloadToRoot, a full reload of the root route. */
export function workspaceSwitchActors(client: ApiClient) {
  return {
    setDefaultWorkspace: fromPromise<void, SetDefaultWorkspaceInput>(({ input, signal }) =>
      setDefaultWorkspace(client, input.profileId, input.workspaceId, { signal }),
    ),
  };
}
