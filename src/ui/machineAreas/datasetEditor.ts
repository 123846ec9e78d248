import { datasetEditorActors } from '../../machines/datasetEditor/datasetEditor.actors';
import { datasetEditorMachine } from '../../machines/datasetEditor/datasetEditor.machine';
import { machineArea } from './area';

/** The Lab's dataset editor (issue 8): the saved dataset is emitted for the page's toast (actor.on('dataset.saved')). */
export const datasetEditorMachines = machineArea('datasetEditor', ({ client }) => ({
  datasetEditor: datasetEditorMachine.provide({ actors: datasetEditorActors(client) }),
}));
