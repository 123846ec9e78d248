import { memberHandle } from '../../src/domain/comments';
import type { memberSchema, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import { isAdminRole, memberLinks } from '../policy/links';
import type { MemberRow } from '../repositories/workspaces';
import type { BodyContext } from './context';

/** A member as `viewerRole` sees them; the handle (for @mentions) is the stored one, else one made from the name. */
export function memberBody(ctx: BodyContext, workspaceId: string, member: MemberRow, viewerRole: MemberRole): Wire<typeof memberSchema> {
  return {
    id: member.id,
    name: member.name,
    email: member.email,
    handle: memberHandle(member),
    role: member.role,
    administrator: isAdminRole(member.role),
    _links: memberLinks(ctx.h, workspaceId, member, viewerRole),
  };
}
