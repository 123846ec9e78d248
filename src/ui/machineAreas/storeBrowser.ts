import { storeBrowserActors } from '../../machines/storeBrowser/storeBrowser.actors';
import { storeBrowserMachine } from '../../machines/storeBrowser/storeBrowser.machine';
import { machineArea } from './area';

/** The store browser (issue 20): the embedded store's page and the dataset editor's SQL. */
export const storeBrowserMachines = machineArea('storeBrowser', ({ client }) => ({
  storeBrowser: storeBrowserMachine.provide({ actors: storeBrowserActors(client) }),
}));
