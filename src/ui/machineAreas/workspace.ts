import { pathTo } from '../../domain/routes';
import { latestDeploymentActor } from '../../machines/polling/polling.actors';
import { latestDeploymentMachine } from '../../machines/polling/polling.machine';
import { workspaceFormActors } from '../../machines/workspaceForm/workspaceForm.actors';
import { workspaceFormMachine } from '../../machines/workspaceForm/workspaceForm.machine';
import { machineArea } from './area';

/**
 * Workspace create and settings (spec 001 §2, issue 10), with the settings page's deployment
 * status: a full reload after create or delete, so the session reads the user's workspaces afresh.
 */
export const workspaceMachines = machineArea('workspace', (effects) => ({
  workspaceForm: workspaceFormMachine.provide({
    actors: workspaceFormActors(effects.client),
    actions: {
      showCreated: (_, { workspaceId }) => effects.reload(pathTo('newData', { workspaceId })),
      leave: () => effects.reload(pathTo('root')),
    },
  }),
  latestDeployment: latestDeploymentMachine.provide({ actors: { fetch: latestDeploymentActor(effects.client) } }),
}));
