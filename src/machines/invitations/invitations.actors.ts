import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { createInvitation, deleteInvitation, listWorkspaceInvitations, toggleAdministrator, withdrawInvitation } from '../../api/invitations';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Invitation } from '../../domain/resources';
import type { SendInput, TargetInput, WorkspaceInput } from './invitations.machine';

/** `invitationsMachine.provide({ actors: invitationsActors(client) })`. */
export function invitationsActors(client: ApiClient) {
  return {
    list: fromPromise<Invitation[], WorkspaceInput>(({ input, signal }) => listWorkspaceInvitations(client, input.workspace, { signal })),
    // One POST per address, one after the other: the first failure stops the rest and is shown.
    send: fromPromise<unknown, SendInput>(async ({ input, signal }) => {
      for (const email of input.emails) await createInvitation(client, input.workspace, email, { signal });
    }),
    // Resend: withdraw a pending invitation, then invite the address again (which reopens it and mails it).
    resend: fromPromise<unknown, TargetInput>(async ({ input, signal }) => {
      if (input.invitation.status !== 'REVOKED' && hasLink(input.invitation, REL.withdrawInvitation)) await withdrawInvitation(client, input.invitation, { signal });
      await createInvitation(client, input.workspace, input.invitation.email, { signal });
    }),
    revoke: fromPromise<unknown, TargetInput>(({ input, signal }) => withdrawInvitation(client, input.invitation, { signal })),
    remove: fromPromise<unknown, TargetInput>(({ input, signal }) => deleteInvitation(client, input.invitation, { signal })),
    toggleAdmin: fromPromise<unknown, TargetInput>(({ input, signal }) => toggleAdministrator(client, input.invitation, { signal })),
  };
}
