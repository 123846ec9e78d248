import { isInvitationId } from '../../src/domain/emailLinks';
import type { Db } from '../db/database';

/**
 * The workspace an invitation link invites `email` to, for the sign-in page to say so ("You're
 * invited to Rita Retail"). Only for a pending invitation of that very address: the id alone (or
 * another address) says nothing, so the page tells the name only to whoever holds the mail.
 * Read here rather than through server/repositories, which sit above the identity provider.
 */
export async function invitedWorkspaceName(db: Db, invitationId: unknown, email: string | undefined): Promise<string | undefined> {
  if (!isInvitationId(invitationId) || email === undefined || email.trim() === '') return undefined;
  const row = await db
    .selectFrom('invitations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .select('w.name')
    .where('i.id', '=', invitationId.toLowerCase())
    .where('i.status', '=', 'PENDING')
    .where((eb) => eb(eb.fn('lower', ['i.email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
  return row?.name;
}
