import type { FastifyBaseLogger } from 'fastify';
import { invitationLink } from '../../src/domain/emailLinks';
import { isValidEmail, PROFILE_MESSAGES } from '../../src/domain/validation';
import { isEmailInDomains, normaliseDomain } from '../../src/domain/workspaceDomains';
import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { rejectFieldErrors } from '../http/validation';
import type { Mailer } from '../identity/mailer';
import { notify } from '../notifications/notify';
import { findInvitation, findInvitationByEmail, INVITATION_STATUS, markAccepted, markRevoked, openInvitation, type InvitationRow } from '../repositories/invitations';
import { profileIdsByEmail, setDefaultWorkspace, type ProfileRow } from '../repositories/profiles';
import { addMember, isMemberByEmail, memberRole } from '../repositories/workspaces';
import * as setupTasks from '../setupTasks';

// Inviting someone to a workspace, accepting and withdrawing: each in one transaction with what
// it changes beside the invitation (the setup task, the invitee's notification, the membership).
// The invitation mail goes out after the commit, so it never announces an invitation that is not there.

const OBJECT = 'invitation';

/** What sending the invitation mail needs: the mailer and the words and address of the app. */
interface InvitationMail {
  mailer: Mailer;
  appTitle: string;
  publicUrl: string;
  log: FastifyBaseLogger;
}

interface InviteRequest {
  workspace: { id: string; name: string; domains: readonly string[] };
  /** the address as the body gave it (untrimmed, possibly absent) */
  email: string | null | undefined;
  inviter: { profileId: string; name: string | null; email: string | null };
}

/**
 * The invitation email, sent through the same mailer as the identity emails (SMTP, else the
 * outbox). Its link opens the app: signing up or in with the invited address accepts every
 * pending invitation of that address (the sign-in bootstrap, src/machines/auth) and opens the
 * workspace.
 */
async function sendInvitationMail(mail: InvitationMail, invitation: InvitationRow, inviter: string | null): Promise<void> {
  const app = mail.appTitle;
  // The invited address and the invitation ride along: the app begins a sign-in with the address
  // filled in and the provider says "You're invited to <workspace>" (src/domain/emailLinks.ts, issue 38).
  const link = invitationLink(mail.publicUrl, invitation.workspace_id, invitation.email, invitation.id);
  await mail.mailer.send({
    to: invitation.email,
    subject: `You are invited to join ${invitation.workspace_name} on ${app}`,
    text: `Hello,\n\n${inviter ?? 'Someone'} invited you to join the workspace ${invitation.workspace_name} on ${app}.\n\nOpen this link and sign up or sign in with this email address (${invitation.email}) to accept:\n\n${link}\n\nIf you did not expect this invitation, ignore this message.\n`,
  });
}

/**
 * An admin invites one address. When the workspace lists domains, only addresses of those
 * domains may be invited. Whoever already has a profile with that address is notified, and the
 * address is mailed. Returns the open invitation.
 */
export async function invite(db: Db, mail: InvitationMail, request: InviteRequest): Promise<InvitationRow> {
  const { workspace, inviter } = request;
  const email = request.email?.trim() ?? '';
  rejectFieldErrors(OBJECT, { email: isValidEmail(email) ? undefined : PROFILE_MESSAGES.emailInvalid });
  if (!isEmailInDomains(email, workspace.domains)) {
    const domains = workspace.domains.map((d) => normaliseDomain(d)).filter((d) => d !== undefined);
    rejectFieldErrors(OBJECT, { email: `Invitations are limited to ${domains.join(', ')}` });
  }
  if (await isMemberByEmail(db, workspace.id, email)) throw conflict(`${email} is already a member of this workspace`, [{ field: 'email', objectName: OBJECT, defaultMessage: 'is already a member' }]);
  const existing = await findInvitationByEmail(db, workspace.id, email);
  if (existing?.status === INVITATION_STATUS.pending) throw conflict(`${email} has already been invited`, [{ field: 'email', objectName: OBJECT, defaultMessage: 'has already been invited' }]);

  const actorName = inviter.name;
  const id = await db.transaction().execute(async (trx) => {
    const invitationId = await openInvitation(trx, { workspaceId: workspace.id, email, invitedBy: inviter.profileId }, existing?.id);
    await setupTasks.invitationCreated(trx, workspace.id, invitationId, inviter.profileId);
    const invitees = await profileIdsByEmail(trx, email);
    await notify(trx, {
      profileIds: invitees,
      directProfileIds: invitees,
      workspaceId: workspace.id,
      type: 'WORKSPACE_INVITATION',
      message: `${actorName ?? 'Someone'} invited you to join ${workspace.name}`,
      actorName,
    });
    return invitationId;
  });
  const created = await findInvitation(db, id);
  if (!created) throw notFound(`Invitation ${id} not found`);
  // After the commit: the mail announces an invitation that exists. A mail failure leaves the
  // invitation in place (Resend sends it again), so it is logged, not answered as an error.
  try {
    await sendInvitationMail(mail, created, actorName ?? inviter.email);
  } catch (error) {
    mail.log.error({ err: error, invitationId: id }, 'invitation mail could not be sent');
  }
  return created;
}

/**
 * Accepting joins the workspace as a member (and makes it the default workspace of a profile
 * that has none). Accepting an invitation already accepted answers it again unchanged, so a
 * repeated click or a retried request is harmless. Returns the invitation and the accepter's role.
 */
export async function acceptInvitation(db: Db, invitation: InvitationRow, profile: Pick<ProfileRow, 'id' | 'default_workspace_id'> | undefined): Promise<{ invitation: InvitationRow; role: MemberRole | undefined }> {
  if (!profile) throw notFound('Profile not found: sign in first');
  if (invitation.status === INVITATION_STATUS.pending) {
    await db.transaction().execute(async (trx) => {
      if (!(await markAccepted(trx, invitation.id))) throw conflict('This invitation is no longer pending');
      await addMember(trx, invitation.workspace_id, profile.id, 'member');
      if (profile.default_workspace_id === null) await setDefaultWorkspace(trx, profile.id, invitation.workspace_id);
    });
  }
  const accepted = await findInvitation(db, invitation.id);
  if (!accepted) throw notFound(`Invitation ${invitation.id} not found`);
  const role = await memberRole(db, invitation.workspace_id, profile.id);
  return { invitation: accepted, role };
}

/** Withdraws it (Revoke; the first half of Resend): an accepted invitee leaves the workspace with it. */
export async function withdrawInvitation(db: Db, invitation: InvitationRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await markRevoked(trx, invitation))) throw conflict('This invitation has already been withdrawn');
  });
}
