import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { invitationSchema, invitationsCollectionSchema } from '../../src/domain/resources';
import { isValidEmail, PROFILE_MESSAGES } from '../../src/domain/validation';
import { isEmailInDomains, normaliseDomain } from '../../src/domain/workspaceDomains';
import type { MemberRole } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { createMailer, type Mailer } from '../identity/mailer';
import { pagedCollection } from '../http/hal';
import { notify } from '../notifications/notify';
import type { Caller } from '../policy/caller';
import { invitationBody } from '../representations/invitation';
import {
  findInvitation,
  findInvitationByEmail,
  deleteUnaccepted,
  INVITATION_STATUS,
  invitationsOfWorkspace,
  markAccepted,
  markRevoked,
  openInvitation,
  pendingInvitationsFor,
  setInviteeRole,
  type InvitationRow,
} from '../repositories/invitations';
import { profileIdsByEmail, setDefaultWorkspace } from '../repositories/profiles';
import { addMember, isMemberByEmail, memberRole } from '../repositories/workspaces';
import { requestUrl, type RouteContext } from './context';
import * as setupTasks from '../setupTasks';
import { defineRoute } from './define';
import { rejectFieldErrors } from '../http/validation';

const OBJECT = 'invitation';

const emailQuerySchema = z.looseObject({ email: z.string({ message: 'is required' }).trim().min(1, 'is required').max(320, 'is not an email address') });
const createSchema = z.looseObject({ email: z.string().max(320, PROFILE_MESSAGES.emailInvalid).nullish() });

/**
 * The invitation email, sent through the same mailer as the identity emails (SMTP, else the
 * outbox). Its link opens the app: signing up or in with the invited address accepts every
 * pending invitation of that address (the sign-in bootstrap, src/machines/auth) and opens the
 * workspace.
 */
async function sendInvitationMail(ctx: RouteContext, mailer: Mailer, invitation: InvitationRow, inviter: string | null): Promise<void> {
  const app = ctx.config.env.APP_TITLE;
  const link = `${ctx.config.publicUrl}/l/${invitation.workspace_id}`;
  await mailer.send({
    to: invitation.email,
    subject: `You are invited to join ${invitation.workspace_name} on ${app}`,
    text: `Hello,\n\n${inviter ?? 'Someone'} invited you to join the workspace ${invitation.workspace_name} on ${app}.\n\nOpen this link and sign up or sign in with this email address (${invitation.email}) to accept:\n\n${link}\n\nIf you did not expect this invitation, ignore this message.\n`,
  });
}

export function invitationRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const mailer = createMailer({ config: ctx.config, db: ctx.db, logger: app.log });
  app.addHook('onClose', () => mailer.close());

  /** The invitation again, as its reader sees it now; 404 when it has just gone. */
  const reread = async (caller: Caller, id: string, role: MemberRole | undefined) => {
    const row = await findInvitation(ctx.db, id);
    if (!row) throw notFound(`Invitation ${id} not found`);
    return invitationBody(ctx, caller, row, role);
  };

  /** The invitations waiting for the caller's own, verified address: the root's 'invitations' link, and only that one. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/invitations',
    guard: { resource: 'root', rel: REL.invitations, pinned: true },
    response: invitationsCollectionSchema,
    query: emailQuerySchema,
    paging: { defaultSize: 99 },
    objectName: OBJECT,
    handler: async ({ request, query, paging }) => {
      const { items, total } = await pendingInvitationsFor(ctx.db, query.email, paging);
      return pagedCollection('invitations', items.map((i) => invitationBody(ctx, request.caller, i, undefined)), paging, total, requestUrl(ctx, request));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/invitations/:id',
    guard: { resource: 'invitation', rel: REL.self },
    response: invitationSchema,
    handler: ({ request, access }) => invitationBody(ctx, request.caller, access.invitation, access.role),
  });

  /**
   * Accepting joins the workspace as a member (and makes it the default workspace of a profile
   * that has none). Accepting an invitation already accepted answers it again unchanged, so a
   * repeated click or a retried request is harmless.
   */
  defineRoute(app, ctx, {
    method: 'PATCH',
    url: '/invitations/:id',
    guard: { resource: 'invitation', rel: REL.acceptInvitation },
    response: invitationSchema,
    handler: async ({ request, access }) => {
      const { caller } = request;
      const { invitation } = access;
      const profile = caller.profile;
      if (!profile) throw notFound('Profile not found: sign in first');
      if (invitation.status === INVITATION_STATUS.pending) {
        await ctx.db.transaction().execute(async (trx) => {
          if (!(await markAccepted(trx, invitation.id))) throw conflict('This invitation is no longer pending');
          await addMember(trx, invitation.workspace_id, profile.id, 'member');
          if (profile.default_workspace_id === null) await setDefaultWorkspace(trx, profile.id, invitation.workspace_id);
        });
      }
      const accepted = await findInvitation(ctx.db, invitation.id);
      if (!accepted) throw notFound(`Invitation ${invitation.id} not found`);
      const role = await memberRole(ctx.db, invitation.workspace_id, profile.id);
      return invitationBody(ctx, caller, accepted, role);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/invitations',
    guard: { resource: 'workspace', rel: REL.invitations },
    response: invitationsCollectionSchema,
    paging: { defaultSize: 99 },
    handler: async ({ request, access, paging }) => {
      const { items, total } = await invitationsOfWorkspace(ctx.db, access.workspace.id, paging);
      return pagedCollection('invitations', items.map((i) => invitationBody(ctx, request.caller, i, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  /**
   * An admin invites one address. When the workspace lists domains, only addresses of those
   * domains may be invited. Whoever already has a profile with that address is notified.
   */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/invitations',
    guard: { resource: 'workspace', rel: REL.createInvitation },
    response: invitationSchema,
    body: createSchema,
    objectName: OBJECT,
    handler: async ({ request, reply, access, body }) => {
      const { caller } = request;
      const { workspace, role } = access;
      const email = body.email?.trim() ?? '';
      rejectFieldErrors(OBJECT, { email: isValidEmail(email) ? undefined : PROFILE_MESSAGES.emailInvalid });
      if (!isEmailInDomains(email, workspace.domains)) {
        const domains = workspace.domains.map((d) => normaliseDomain(d)).filter((d) => d !== undefined);
        rejectFieldErrors(OBJECT, { email: `Invitations are limited to ${domains.join(', ')}` });
      }
      if (await isMemberByEmail(ctx.db, workspace.id, email)) throw conflict(`${email} is already a member of this workspace`, [{ field: 'email', objectName: OBJECT, defaultMessage: 'is already a member' }]);
      const existing = await findInvitationByEmail(ctx.db, workspace.id, email);
      if (existing?.status === INVITATION_STATUS.pending) throw conflict(`${email} has already been invited`, [{ field: 'email', objectName: OBJECT, defaultMessage: 'has already been invited' }]);

      const actorName = caller.profile?.name ?? null;
      const id = await ctx.db.transaction().execute(async (trx) => {
        const invitationId = await openInvitation(trx, { workspaceId: workspace.id, email, invitedBy: caller.profileId }, existing?.id);
        await setupTasks.invitationCreated(trx, workspace.id, invitationId, caller.profileId);
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
      const created = await findInvitation(ctx.db, id);
      if (!created) throw notFound(`Invitation ${id} not found`);
      // After the commit: the mail announces an invitation that exists. A mail failure leaves the
      // invitation in place (Resend sends it again), so it is logged, not answered as an error.
      try {
        await sendInvitationMail(ctx, mailer, created, actorName ?? caller.principal.email ?? null);
      } catch (error) {
        request.log.error({ err: error, invitationId: id }, 'invitation mail could not be sent');
      }
      return reply.status(201).send(invitationBody(ctx, caller, created, role));
    },
  });

  /** Withdraws it (Revoke; the first half of Resend). An accepted invitee leaves the workspace. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/invitations/:id/withdrawal',
    guard: { resource: 'invitation', rel: REL.withdrawInvitation },
    response: invitationSchema,
    handler: async ({ request, access }) => {
      await ctx.db.transaction().execute(async (trx) => {
        if (!(await markRevoked(trx, access.invitation))) throw conflict('This invitation has already been withdrawn');
      });
      return reread(request.caller, access.invitation.id, access.role);
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/invitations/:id',
    guard: { resource: 'invitation', rel: REL.deleteInvitation },
    handler: async ({ reply, access }) => {
      if (!(await deleteUnaccepted(ctx.db, access.invitation.id))) throw conflict('An accepted invitation cannot be deleted');
      return reply.status(204).send();
    },
  });

  /** The admin toggle of an accepted invitation: administrator (editor) or plain member. */
  for (const [method, rel, role] of [
    ['PUT', REL.addAdministrator, 'editor'],
    ['DELETE', REL.withdrawAdministrator, 'member'],
  ] as const) {
    defineRoute(app, ctx, {
      method,
      url: '/invitations/:id/administrator',
      guard: { resource: 'invitation', rel },
      response: invitationSchema,
      handler: async ({ request, access }) => {
        if (!(await setInviteeRole(ctx.db, access.invitation, role))) throw conflict(`${access.invitation.email} is no longer a member of this workspace`);
        return reread(request.caller, access.invitation.id, access.role);
      },
    });
  }
}
