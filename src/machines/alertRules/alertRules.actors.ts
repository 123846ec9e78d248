import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { datasetAlertRules, saveAlertRules, type AlertRules } from '../../api/datasets';
import type { AlertRulesInput, SaveAlertRulesInput } from './alertRules.machine';

/** `alertRulesMachine.provide({ actors: alertRulesActors(client) })`. The panel shows its own failures. */
export function alertRulesActors(client: ApiClient) {
  return {
    loadRules: fromPromise<AlertRules, AlertRulesInput>(({ input, signal }) => datasetAlertRules(client, input.dataset, { signal, skipErrorHandler: true })),
    saveRules: fromPromise<AlertRules, SaveAlertRulesInput>(({ input, signal }) => saveAlertRules(client, input.rules, input.body, { signal, skipErrorHandler: true })),
  };
}
