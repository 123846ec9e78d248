import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { InvitationsTable, MemberRole } from '../db/schema';
import type { Paging } from '../http/hal';
import { newId } from './ids';

/** with the role its invitee holds in the workspace now (owner, editor, member; null: not a member) */
export type InvitationRow = Selectable<InvitationsTable> & { workspace_name: string; invitee_role: MemberRole | null };

export const INVITATION_STATUS = { pending: 'PENDING', accepted: 'ACCEPTED', revoked: 'REVOKED' } as const;

const withWorkspace = (db: Db) =>
  db
    .selectFrom('invitations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .selectAll('i')
    .select('w.name as workspace_name')
    .select((eb) =>
      eb
        .selectFrom('workspace_members as m')
        .innerJoin('profiles as p', 'p.id', 'm.profile_id')
        .select('m.role')
        .whereRef('m.workspace_id', '=', 'i.workspace_id')
        .where((inner) => inner(inner.fn('lower', ['p.email']), '=', inner.fn('lower', ['i.email'])))
        .orderBy('m.role')
        .limit(1)
        .as('invitee_role'),
    );

async function page(query: ReturnType<typeof withWorkspace>, paging: Paging): Promise<{ items: InvitationRow[]; total: number }> {
  const [items, count] = await Promise.all([
    query.orderBy('i.created', 'desc').orderBy('i.id').limit(paging.size).offset(paging.page * paging.size).execute(),
    query.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

/** Invitations still waiting for this address, across workspaces. */
export function pendingInvitationsFor(db: Db, email: string, paging: Paging) {
  const query = withWorkspace(db)
    .where((eb) => eb(eb.fn('lower', ['i.email']), '=', email.trim().toLowerCase()))
    .where('i.status', '=', INVITATION_STATUS.pending);
  return page(query, paging);
}

export function invitationsOfWorkspace(db: Db, workspaceId: string, paging: Paging) {
  return page(withWorkspace(db).where('i.workspace_id', '=', workspaceId), paging);
}

/**
 * The invitations this profile sent, in the workspaces they still administer (an admin who was
 * demoted or left no longer manages what they sent there), each with the sender's role there.
 */
export async function invitationsSentBy(db: Db, profileId: string, paging: Paging): Promise<{ items: { invitation: InvitationRow; senderRole: MemberRole | undefined }[]; total: number }> {
  const administered = db.selectFrom('workspace_members').select('workspace_id').where('profile_id', '=', profileId).where('role', 'in', ['owner', 'editor']);
  const { items, total } = await page(withWorkspace(db).where('i.invited_by', '=', profileId).where('i.workspace_id', 'in', administered), paging);
  const workspaceIds = [...new Set(items.map((i) => i.workspace_id))];
  const roles =
    workspaceIds.length === 0
      ? []
      : await db.selectFrom('workspace_members').select(['workspace_id', 'role']).where('profile_id', '=', profileId).where('workspace_id', 'in', workspaceIds).execute();
  const roleIn = new Map(roles.map((r) => [r.workspace_id, r.role]));
  return { items: items.map((invitation) => ({ invitation, senderRole: roleIn.get(invitation.workspace_id) })), total };
}

export function findInvitation(db: Db, id: string): Promise<InvitationRow | undefined> {
  return withWorkspace(db).where('i.id', '=', id).executeTakeFirst();
}

export function findInvitationByEmail(db: Db, workspaceId: string, email: string): Promise<InvitationRow | undefined> {
  return withWorkspace(db)
    .where('i.workspace_id', '=', workspaceId)
    .where((eb) => eb(eb.fn('lower', ['i.email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

/**
 * A new pending invitation, or the reopening of an earlier accepted or revoked one for the same
 * address (the table keeps one row per workspace and address).
 */
export async function openInvitation(db: Db, fields: { workspaceId: string; email: string; invitedBy: string }, reopenId?: string): Promise<string> {
  if (reopenId) {
    await db
      .updateTable('invitations')
      .set({ status: INVITATION_STATUS.pending, invited_by: fields.invitedBy, created: new Date(), email: fields.email })
      .where('id', '=', reopenId)
      .execute();
    return reopenId;
  }
  const id = newId();
  await db
    .insertInto('invitations')
    .values({ id, workspace_id: fields.workspaceId, email: fields.email, status: INVITATION_STATUS.pending, invited_by: fields.invitedBy })
    .execute();
  return id;
}

/** Marks it accepted if it is still pending; false when someone else's request got there first. */
export async function markAccepted(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ status: INVITATION_STATUS.accepted })
    .where('id', '=', id)
    .where('status', '=', INVITATION_STATUS.pending)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Withdraws it: REVOKED, and an invitee who had joined through it leaves the workspace (an owner
 * never does: a workspace keeps its owners). False when it was already revoked.
 */
export async function markRevoked(db: Db, invitation: { id: string; workspace_id: string; email: string }): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ status: INVITATION_STATUS.revoked })
    .where('id', '=', invitation.id)
    .where('status', '!=', INVITATION_STATUS.revoked)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await db
    .deleteFrom('workspace_members')
    .where('workspace_id', '=', invitation.workspace_id)
    .where('role', '!=', 'owner')
    .where('profile_id', 'in', (eb) => eb.selectFrom('profiles').select('id').where((inner) => inner(inner.fn('lower', ['email']), '=', invitation.email.trim().toLowerCase())))
    .execute();
  return true;
}

/** Deletes one that was never accepted; false when it is gone or has been accepted meanwhile. */
export async function deleteUnaccepted(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('invitations').where('id', '=', id).where('status', '!=', INVITATION_STATUS.accepted).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Makes the invitee an administrator (editor) of the workspace or a plain member again; never touches an owner. */
export async function setInviteeRole(db: Db, invitation: { workspace_id: string; email: string }, role: 'editor' | 'member'): Promise<boolean> {
  const result = await db
    .updateTable('workspace_members')
    .set({ role })
    .where('workspace_id', '=', invitation.workspace_id)
    .where('role', '!=', 'owner')
    .where('profile_id', 'in', (eb) => eb.selectFrom('profiles').select('id').where((inner) => inner(inner.fn('lower', ['email']), '=', invitation.email.trim().toLowerCase())))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
