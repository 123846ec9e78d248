import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import type { invitationSchema, Wire } from '../../src/domain/resources';
import { isValidEmail, PROFILE_MESSAGES } from '../../src/domain/validation';
import { isEmailInDomains, normaliseDomain } from '../../src/domain/workspaceDomains';
import type { MemberRole } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { notify } from '../notifications/notify';
import type { Caller } from '../policy/caller';
import { invitationLinks } from '../policy/links';
import {
  findInvitation,
  findInvitationByEmail,
  INVITATION_STATUS,
  invitationsOfWorkspace,
  markAccepted,
  openInvitation,
  pendingInvitationsFor,
  type InvitationRow,
} from '../repositories/invitations';
import { profileIdsByEmail, setDefaultWorkspace } from '../repositories/profiles';
import { addMember, isMemberByEmail, memberRole } from '../repositories/workspaces';
import { isoRequired, requestUrl, type RouteContext } from './context';
import * as setupTasks from '../setupTasks';
import { defineRoute } from './define';
import { rejectFieldErrors } from './validation';

const OBJECT = 'invitation';

const emailQuerySchema = z.looseObject({ email: z.string({ message: 'is required' }).trim().min(1, 'is required').max(320, 'is not an email address') });
const createSchema = z.looseObject({ email: z.string().max(320, PROFILE_MESSAGES.emailInvalid).nullish() });

export function invitationBody(ctx: RouteContext, caller: Caller, invitation: InvitationRow, callerRole: MemberRole | undefined): Wire<typeof invitationSchema> {
  return {
    id: invitation.id,
    email: invitation.email,
    status: invitation.status,
    created: isoRequired(invitation.created),
    workspace: { id: invitation.workspace_id, name: invitation.workspace_name },
    _links: invitationLinks(ctx.h, caller, invitation, callerRole),
  };
}

export function invitationRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** The invitations waiting for the caller's own, verified address: the root's 'invitations' link, and only that one. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/invitations',
    guard: { resource: 'root', rel: REL.invitations, pinned: true },
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
        await notify(trx, {
          profileIds: await profileIdsByEmail(trx, email),
          workspaceId: workspace.id,
          type: 'WORKSPACE_INVITATION',
          message: `${actorName ?? 'Someone'} invited you to join ${workspace.name}`,
          actorName,
        });
        return invitationId;
      });
      const created = await findInvitation(ctx.db, id);
      if (!created) throw notFound(`Invitation ${id} not found`);
      return reply.status(201).send(invitationBody(ctx, caller, created, role));
    },
  });
}
