import { dashboardEditorActors } from '../../machines/dashboardEditor/dashboardEditor.actors';
import { dashboardEditorMachine } from '../../machines/dashboardEditor/dashboardEditor.machine';
import { machineArea } from './area';

/** The dashboard page's DASHBOARD_CONTENT editor. */
export const dashboardMachines = machineArea('dashboard', ({ client }) => ({
  dashboardEditor: dashboardEditorMachine.provide({ actors: dashboardEditorActors(client) }),
}));
