import { logStreamActors } from '../../machines/logStream/logStream.actors';
import { logStreamMachine } from '../../machines/logStream/logStream.machine';
import { machineArea } from './area';

/** A job's log (the Lab's runs and the workspace's deployment status). */
export const jobLogMachines = machineArea('jobLog', ({ client }) => ({
  logStream: logStreamMachine.provide({ actors: logStreamActors(client) }),
}));
