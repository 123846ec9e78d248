import { pathTo } from '../../domain/routes';
import { alertRulesActors } from '../../machines/alertRules/alertRules.actors';
import { alertRulesMachine } from '../../machines/alertRules/alertRules.machine';
import { commentThreadActors } from '../../machines/commentThread/commentThread.actors';
import { commentThreadMachine } from '../../machines/commentThread/commentThread.machine';
import { datasetPageActors, recordViewAction } from '../../machines/datasetPage/datasetPage.actors';
import { datasetPageMachine } from '../../machines/datasetPage/datasetPage.machine';
import { machineArea } from './area';

/** The dataset page (spec 002 §2), its comments and its alert rules. */
export const datasetPageMachines = machineArea('datasetPage', ({ client, navigate }) => ({
  // After a delete it goes back to the workspace's feed (the history's previous entry may be
  // outside the app, or the deleted dataset itself).
  datasetPage: datasetPageMachine.provide({
    actors: datasetPageActors(client),
    actions: {
      recordView: recordViewAction(client),
      goBack: (_, { workspaceId }) => navigate(pathTo('feed', { workspaceId }), { replace: true }),
    },
  }),
  commentThread: commentThreadMachine.provide({ actors: commentThreadActors(client) }),
  alertRules: alertRulesMachine.provide({ actors: alertRulesActors(client) }),
}));
