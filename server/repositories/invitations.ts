import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { InvitationsTable } from '../db/schema';
import type { Paging } from '../http/hal';
import { newId } from './ids';

export type InvitationRow = Selectable<InvitationsTable> & { workspace_name: string };

export const INVITATION_STATUS = { pending: 'PENDING', accepted: 'ACCEPTED', revoked: 'REVOKED' } as const;

const withWorkspace = (db: Db) =>
  db.selectFrom('invitations as i').innerJoin('workspaces as w', 'w.id', 'i.workspace_id').selectAll('i').select('w.name as workspace_name');

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
