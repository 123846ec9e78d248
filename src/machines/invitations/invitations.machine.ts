import { assign, emit, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { INVITATION_TEXT, invitationActions, parseInviteEmails } from '../../domain/invitations';
import type { Invitation, Workspace } from '../../domain/resources';
import { fieldErrors, toApiError } from '../../api/errors';
import { notProvidedActor } from '../notProvided';

// The invitations page (spec 002 §4, §5, §8): the list of the workspace's invitations and the
// invite form. Every action is offered by the invitation's links (invitationActions); after each
// the list is read again, and a toast text is emitted for the page.

export type InvitationsInput = { readonly workspace: Workspace };
export type InvitationsContext = {
  readonly workspace: Workspace;
  readonly invitations: readonly Invitation[] | null;
  readonly target: Invitation | null;
  readonly emails: readonly string[];
  /** the invite form's message (validation or the server's) */
  readonly formError: string | null;
  /** a list action's failure */
  readonly error: string | null;
};
export type InvitationsEvent =
  | { readonly type: 'user.invite'; readonly text: string }
  | { readonly type: 'user.resend'; readonly invitation: Invitation }
  | { readonly type: 'user.revoke'; readonly invitation: Invitation }
  | { readonly type: 'user.delete'; readonly invitation: Invitation }
  | { readonly type: 'user.toggleAdmin'; readonly invitation: Invitation }
  | { readonly type: 'user.retry' };
export type InvitationsToast = { readonly type: 'invitations.toast'; readonly message: string; readonly intent: 'success' | 'error' };
export type WorkspaceInput = { readonly workspace: Workspace };
export type SendInput = { readonly workspace: Workspace; readonly emails: readonly string[] };
export type TargetInput = { readonly workspace: Workspace; readonly invitation: Invitation };

/** The server's message when it sent one, else the spec's fallback. */
function serverMessageOr(error: unknown, fallback: string): string {
  const field = fieldErrors(error).email;
  if (field) return field;
  const failure = toApiError(error);
  return failure.kind === 'response' && failure.status < 500 && failure.status !== 403 && failure.body?.message ? failure.body.message : fallback;
}

const target = (event: InvitationsEvent) => ('invitation' in event ? event.invitation : null);
const toast = (message: string, intent: 'success' | 'error' = 'success'): InvitationsToast => ({ type: 'invitations.toast', message, intent });

export const invitationsMachine = setup({
  types: { context: {} as InvitationsContext, events: {} as InvitationsEvent, input: {} as InvitationsInput, emitted: {} as InvitationsToast },
  actors: {
    list: notProvidedActor<Invitation[], WorkspaceInput>('list'),
    send: notProvidedActor<unknown, SendInput>('send'),
    resend: notProvidedActor<unknown, TargetInput>('resend'),
    revoke: notProvidedActor<unknown, TargetInput>('revoke'),
    remove: notProvidedActor<unknown, TargetInput>('remove'),
    toggleAdmin: notProvidedActor<unknown, TargetInput>('toggleAdmin'),
  },
  guards: {
    validEmails: ({ event }) => event.type === 'user.invite' && 'emails' in parseInviteEmails(event.text),
    canResend: ({ event }) => event.type === 'user.resend' && invitationActions(event.invitation).resend,
    canRevoke: ({ event }) => event.type === 'user.revoke' && invitationActions(event.invitation).revoke,
    canDelete: ({ event }) => event.type === 'user.delete' && invitationActions(event.invitation).delete,
    canToggleAdmin: ({ event }) => event.type === 'user.toggleAdmin' && invitationActions(event.invitation).adminToggle !== null,
  },
}).createMachine({
  id: 'invitations',
  context: ({ input }) => ({ workspace: input.workspace, invitations: null, target: null, emails: [], formError: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'list',
        src: 'list',
        input: ({ context }) => ({ workspace: context.workspace }),
        onDone: { target: 'ready', actions: assign({ invitations: ({ event }) => event.output, target: null }) },
        onError: { target: 'failed', actions: assign({ error: INVITATION_TEXT.loadFailed }) },
      },
    },
    failed: { on: { 'user.retry': { target: 'loading', actions: assign({ error: null }) } } },
    ready: {
      on: {
        'user.invite': [
          {
            guard: 'validEmails',
            target: 'sending',
            actions: assign({ formError: null, emails: ({ event }) => { const parsed = parseInviteEmails(event.text); return 'emails' in parsed ? parsed.emails : []; } }),
          },
          { actions: assign({ formError: INVITATION_TEXT.invalidEmail }) },
        ],
        'user.resend': { guard: 'canResend', target: 'resending', actions: assign({ target: ({ event }) => target(event), error: null }) },
        'user.revoke': { guard: 'canRevoke', target: 'revoking', actions: assign({ target: ({ event }) => target(event), error: null }) },
        'user.delete': { guard: 'canDelete', target: 'deleting', actions: assign({ target: ({ event }) => target(event), error: null }) },
        'user.toggleAdmin': { guard: 'canToggleAdmin', target: 'togglingAdmin', actions: assign({ target: ({ event }) => target(event), error: null }) },
      },
    },
    sending: {
      invoke: {
        id: 'send',
        src: 'send',
        input: ({ context }) => ({ workspace: context.workspace, emails: context.emails }),
        onDone: { target: 'loading', actions: [assign({ emails: [] }), emit(() => toast(INVITATION_TEXT.sent))] },
        onError: { target: 'loading', actions: assign({ formError: ({ event }) => serverMessageOr(event.error, INVITATION_TEXT.sendFailed) }) },
      },
    },
    resending: {
      invoke: {
        id: 'resend',
        src: 'resend',
        input: ({ context }) => ({ workspace: context.workspace, invitation: context.target! }),
        onDone: { target: 'loading', actions: emit(({ context }) => toast(INVITATION_TEXT.resent(context.target?.email ?? ''))) },
        onError: { target: 'loading', actions: emit(({ event }) => toast(serverMessageOr(event.error, INVITATION_TEXT.resendFailed), 'error')) },
      },
    },
    revoking: {
      invoke: {
        id: 'revoke',
        src: 'revoke',
        input: ({ context }) => ({ workspace: context.workspace, invitation: context.target! }),
        onDone: { target: 'loading', actions: emit(({ context }) => toast(INVITATION_TEXT.revoked(context.target?.email ?? ''))) },
        onError: { target: 'loading', actions: emit(() => toast(INVITATION_TEXT.revokeFailed, 'error')) },
      },
    },
    deleting: {
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ workspace: context.workspace, invitation: context.target! }),
        onDone: { target: 'loading', actions: assign(({ context }) => ({ invitations: (context.invitations ?? []).filter((i) => i.id !== context.target?.id) })) },
        onError: { target: 'loading' },
      },
    },
    togglingAdmin: {
      invoke: {
        id: 'toggleAdmin',
        src: 'toggleAdmin',
        input: ({ context }) => ({ workspace: context.workspace, invitation: context.target! }),
        onDone: 'loading',
        onError: 'loading',
      },
    },
  },
});

export type InvitationsSnapshot = SnapshotFrom<typeof invitationsMachine>;

/** Busy with this invitation: its buttons show a spinner and stay disabled. */
export const selectBusyId = (s: InvitationsSnapshot): string | null => (s.matches('ready') || s.matches('loading') || s.matches('failed') || s.matches('sending') ? null : (s.context.target?.id ?? null));
