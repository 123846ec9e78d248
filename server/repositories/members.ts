import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import type { Paging } from '../http/hal';
import { INVITATION_STATUS } from './invitations';
import type { MemberRow } from './workspaces';

// One member of a workspace, its administrators (the reference's Administrator: a member whose
// administrator flag is set, here an owner or an editor), the admin flag, and removal.

const memberColumns = ['p.id', 'p.name', 'p.email', 'm.handle', 'm.role'] as const;

function membersQuery(db: Db, workspaceId: string) {
  return db.selectFrom('workspace_members as m').innerJoin('profiles as p', 'p.id', 'm.profile_id').where('m.workspace_id', '=', workspaceId);
}

export async function findMember(db: Db, workspaceId: string, profileId: string): Promise<MemberRow | undefined> {
  return membersQuery(db, workspaceId).select(memberColumns).where('m.profile_id', '=', profileId).executeTakeFirst();
}

/** Owners and editors, by name. */
export async function administratorsOf(db: Db, workspaceId: string, paging: Paging): Promise<{ items: MemberRow[]; total: number }> {
  const base = membersQuery(db, workspaceId).where('m.role', 'in', ['owner', 'editor']);
  const [items, count] = await Promise.all([
    base.select(memberColumns).orderBy('p.name').orderBy('p.id').limit(paging.size).offset(paging.page * paging.size).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

/** Sets a non-owner's role (editor: administrator, member: not); false when they are no such member now. */
export async function setMemberRole(db: Db, workspaceId: string, profileId: string, role: 'editor' | 'member'): Promise<boolean> {
  const result = await db
    .updateTable('workspace_members')
    .set({ role })
    .where('workspace_id', '=', workspaceId)
    .where('profile_id', '=', profileId)
    .where('role', '!=', 'owner')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Removes the member if their role is still `role` (the one the caller was allowed to remove), and
 * withdraws the accepted invitation that let them in, so the invitations list does not show them
 * as a member; a profile that defaulted to the workspace defaults to nothing. False when someone
 * changed them meanwhile.
 */
export async function removeMember(db: Db, workspaceId: string, member: { id: string; email: string; role: MemberRole }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('workspace_members')
      .where('workspace_id', '=', workspaceId)
      .where('profile_id', '=', member.id)
      .where('role', '=', member.role)
      .where('role', '!=', 'owner')
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    // their landing no longer points at a workspace they cannot open
    await trx.updateTable('profiles').set({ default_workspace_id: null }).where('id', '=', member.id).where('default_workspace_id', '=', workspaceId).execute();
    await trx
      .updateTable('invitations')
      .set({ status: INVITATION_STATUS.revoked })
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', INVITATION_STATUS.accepted)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', member.email.trim().toLowerCase()))
      .execute();
    return true;
  });
}
