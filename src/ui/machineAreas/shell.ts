import { pathTo } from '../../domain/routes';
import { assistantActors } from '../../machines/assistant/assistant.actors';
import { assistantMachine } from '../../machines/assistant/assistant.machine';
import { landingActors } from '../../machines/landing/landing.actors';
import { landingMachine } from '../../machines/landing/landing.machine';
import { notificationCountActor, taskCountActor } from '../../machines/polling/polling.actors';
import { notificationCountMachine, taskCountMachine } from '../../machines/polling/polling.machine';
import { workspaceSwitchActors } from '../../machines/workspaceSwitch/workspaceSwitch.actors';
import { workspaceSwitchMachine } from '../../machines/workspaceSwitch/workspaceSwitch.machine';
import { machineArea } from './area';

/** The signed-in shell's machines (toolbar, sidebar, workspace menu, assistant, the root's redirect): on every page. */
export const shellMachines = machineArea('shell', (effects) => {
  const { client, navigate } = effects;
  return {
    landing: landingMachine.provide({ actors: landingActors(client) }),
    notificationCount: notificationCountMachine.provide({ actors: { fetch: notificationCountActor(client) } }),
    taskCount: taskCountMachine.provide({ actors: { fetch: taskCountActor(client) } }),
    workspaceSwitch: workspaceSwitchMachine.provide({
      actors: workspaceSwitchActors(client),
      actions: { reloadToRoot: () => effects.reload(pathTo('root')) },
    }),
    assistant: assistantMachine.provide({
      actors: assistantActors(client),
      actions: { openDataset: (_, { path }) => navigate(path) },
    }),
  };
});
