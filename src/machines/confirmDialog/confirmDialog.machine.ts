import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The confirm dialog of spec 000 section 4: awaiting input, then processing, then completed,
// then it closes and resets. What "confirm" does is the `action` actor, provided by whoever
// uses the dialog (`confirmDialogMachine.provide({ actors: { action } })`).

export type ConfirmDialogContext = {
  readonly title: string;
  readonly message: string;
  readonly error: string | null;
};

export type ConfirmDialogEvent =
  | { readonly type: 'user.open'; readonly title: string; readonly message: string }
  | { readonly type: 'user.confirm' }
  | { readonly type: 'user.cancel' };

export type ConfirmActionInput = { readonly title: string; readonly message: string };

/** How long 'completed' shows before the dialog closes; not in the spec, a glance's length. */
export const CLOSE_DELAY_MS = 1_000;

const closedContext: ConfirmDialogContext = { title: '', message: '', error: null };

export const confirmDialogMachine = setup({
  types: {
    context: {} as ConfirmDialogContext,
    events: {} as ConfirmDialogEvent,
  },
  actors: {
    action: notProvidedActor<unknown, ConfirmActionInput>('action'),
  },
  delays: { closeDelay: CLOSE_DELAY_MS },
}).createMachine({
  id: 'confirmDialog',
  context: closedContext,
  initial: 'closed',
  states: {
    closed: {
      entry: assign(closedContext),
      on: {
        'user.open': {
          target: 'awaitingInput',
          actions: assign({ title: ({ event }) => event.title, message: ({ event }) => event.message, error: null }),
        },
      },
    },
    awaitingInput: {
      on: {
        'user.confirm': { target: 'processing', actions: assign({ error: null }) },
        'user.cancel': { target: 'closed' },
      },
    },
    processing: {
      invoke: {
        id: 'action',
        src: 'action',
        input: ({ context }) => ({ title: context.title, message: context.message }),
        onDone: { target: 'completed' },
        // The dialog stays open with the reason, so the user can try again or cancel.
        onError: { target: 'awaitingInput', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    completed: {
      after: { closeDelay: 'closed' },
    },
  },
});

export type ConfirmDialogSnapshot = SnapshotFrom<typeof confirmDialogMachine>;

/** The dialog is on screen in every state but `closed`. */
export function selectDialogOpen(snapshot: ConfirmDialogSnapshot): boolean {
  return !snapshot.matches('closed');
}

/** Confirm and Cancel work only while the dialog waits for the user. */
export function selectButtonsEnabled(snapshot: ConfirmDialogSnapshot): boolean {
  return snapshot.matches('awaitingInput');
}
