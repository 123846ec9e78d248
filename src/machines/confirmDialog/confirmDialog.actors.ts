import { fromPromise } from 'xstate';
import type { ConfirmActionInput } from './confirmDialog.machine';

/** What Confirm does; the signal aborts when the dialog is torn down mid-call. */
export type ConfirmAction = (input: ConfirmActionInput, signal: AbortSignal) => Promise<unknown>;

/** `confirmDialogMachine.provide({ actors: confirmDialogActors((_, signal) => deleteThing(client, thing, { signal })) })`. */
export function confirmDialogActors(action: ConfirmAction) {
  return {
    action: fromPromise<unknown, ConfirmActionInput>(({ input, signal }) => action(input, signal)),
  };
}
