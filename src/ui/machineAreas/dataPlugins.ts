import { dataPluginsActors } from '../../machines/dataPlugins/dataPlugins.actors';
import { dataPluginsMachine } from '../../machines/dataPlugins/dataPlugins.machine';
import { discoveryUploadActors } from '../../machines/discoveryUpload/discoveryUpload.actors';
import { discoveryUploadMachine } from '../../machines/discoveryUpload/discoveryUpload.machine';
import { machineArea } from './area';

/** The Lab's plugin catalogue (spec 001 §2 'Plugin catalogue') and its discovery upload. */
export const dataPluginsMachines = machineArea('dataPlugins', ({ client }) => ({
  dataPlugins: dataPluginsMachine.provide({ actors: dataPluginsActors(client) }),
  discoveryUpload: discoveryUploadMachine.provide({ actors: discoveryUploadActors(client) }),
}));
