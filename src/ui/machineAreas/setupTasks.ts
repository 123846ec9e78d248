import { setupTasksActors } from '../../machines/setupTasks/setupTasks.actors';
import { setupTasksMachine } from '../../machines/setupTasks/setupTasks.machine';
import { machineArea } from './area';

/** Setup tasks (spec 001 §2–§4): the Lab's, the app area's and onboarding step 3's cards. */
export const setupTasksMachines = machineArea('setupTasks', ({ client }) => ({
  setupTasks: setupTasksMachine.provide({ actors: setupTasksActors(client) }),
}));
