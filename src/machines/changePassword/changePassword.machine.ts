import { assign, setup } from 'xstate';
import { MESSAGES } from '../../domain/errors';
import { notProvidedActor } from '../notProvided';

// The change-password page (spec 000 section 2.8): on load a password-reset request goes to the
// identity provider; the page shows the provider's text, or 'Error ! Please try again'.

export type ChangePasswordInput = { readonly email: string };

export type ChangePasswordContext = {
  readonly email: string;
  /** The provider's own text on success ("We've just sent you an email ..."). */
  readonly text: string | null;
  readonly error: string | null;
};

export type ChangePasswordEvent = { readonly type: 'user.retry' };

export type RequestResetInput = { readonly email: string };

export const changePasswordMachine = setup({
  types: {
    context: {} as ChangePasswordContext,
    events: {} as ChangePasswordEvent,
    input: {} as ChangePasswordInput,
  },
  actors: {
    requestReset: notProvidedActor<string, RequestResetInput>('requestReset'),
  },
}).createMachine({
  id: 'changePassword',
  context: ({ input }) => ({ email: input.email, text: null, error: null }),
  initial: 'requesting',
  states: {
    requesting: {
      invoke: {
        id: 'requestReset',
        src: 'requestReset',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'succeeded', actions: assign({ text: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: MESSAGES.changePasswordFailed }) },
      },
    },
    succeeded: { type: 'final' },
    failed: {
      on: { 'user.retry': { target: 'requesting', actions: assign({ error: null }) } },
    },
  },
});
