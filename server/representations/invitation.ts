import type { invitationSchema, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import type { Caller } from '../policy/caller';
import { invitationLinks } from '../policy/links';
import type { InvitationRow } from '../repositories/invitations';
import { isoRequired, type BodyContext } from './context';

export function invitationBody(ctx: BodyContext, caller: Caller, invitation: InvitationRow, callerRole: MemberRole | undefined): Wire<typeof invitationSchema> {
  return {
    id: invitation.id,
    email: invitation.email,
    status: invitation.status,
    created: isoRequired(invitation.created),
    workspace: { id: invitation.workspace_id, name: invitation.workspace_name },
    _links: invitationLinks(ctx.h, caller, invitation, callerRole),
  };
}
