import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { invitationSchema, invitationsCollectionSchema } from '../../src/domain/resources';
import { PROFILE_MESSAGES } from '../../src/domain/validation';
import type { MemberRole } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { createMailer } from '../identity/mailer';
import { pagedCollection } from '../http/hal';
import type { Caller } from '../policy/caller';
import { invitationBody } from '../representations/invitation';
import { findInvitation, deleteUnaccepted, invitationsOfWorkspace, invitationsSentBy, pendingInvitationsFor, setInviteeRole } from '../repositories/invitations';
import { requireOffered } from '../policy/guard';
import { requestUrl, type RouteContext } from './context';
import { acceptInvitation, invite, withdrawInvitation } from '../services/invitations';
import { defineRoute } from './define';

const OBJECT = 'invitation';

/** With `email`: the invitations waiting for that address (the caller's own); without: those the caller sent. */
const invitationsQuerySchema = z.looseObject({ email: z.string({ message: 'is required' }).trim().min(1, 'is required').max(320, 'is not an email address').optional() });
const createSchema = z.looseObject({ email: z.string().max(320, PROFILE_MESSAGES.emailInvalid).nullish() });

export function invitationRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const mailer = createMailer({ config: ctx.config, db: ctx.db, logger: app.log });
  app.addHook('onClose', () => mailer.close());
  const mail = { mailer, appTitle: ctx.config.env.APP_TITLE, publicUrl: ctx.config.publicUrl };

  /** The invitation again, as its reader sees it now; 404 when it has just gone. */
  const reread = async (caller: Caller, id: string, role: MemberRole | undefined) => {
    const row = await findInvitation(ctx.db, id);
    if (!row) throw notFound(`Invitation ${id} not found`);
    return invitationBody(ctx, caller, row, role);
  };

  /**
   * Two lists at one address, as in the reference. `?email=`: the invitations waiting for the
   * caller's own, verified address (the root's 'invitations', pinned to that address, and only
   * that one). Without `email`: the invitations the caller sent, in the workspaces they still
   * administer (the root's 'sent invitations'). Each half demands its own link: the sent list's
   * href carries no `email`, so it never authorises reading someone else's.
   */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/invitations',
    guard: { resource: 'root', rel: [REL.invitations, REL.sentInvitations], pinned: true },
    response: invitationsCollectionSchema,
    query: invitationsQuerySchema,
    paging: { defaultSize: 99 },
    objectName: OBJECT,
    handler: async ({ request, access, query, paging }) => {
      const { caller } = request;
      if (query.email === undefined) {
        requireOffered(access, REL.sentInvitations);
        const { items, total } = await invitationsSentBy(ctx.db, caller.profileId, paging);
        return pagedCollection('invitations', items.map((i) => invitationBody(ctx, caller, i.invitation, i.senderRole)), paging, total, requestUrl(ctx, request));
      }
      requireOffered(access, REL.invitations, request.url);
      const { items, total } = await pendingInvitationsFor(ctx.db, query.email, paging);
      return pagedCollection('invitations', items.map((i) => invitationBody(ctx, caller, i, undefined)), paging, total, requestUrl(ctx, request));
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
      const { invitation, role } = await acceptInvitation(ctx.db, access.invitation, request.caller.profile);
      return invitationBody(ctx, request.caller, invitation, role);
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
      const inviter = { profileId: caller.profileId, name: caller.profile?.name ?? null, email: caller.principal.email ?? null };
      const created = await invite(ctx.db, { ...mail, log: request.log }, { workspace: access.workspace, email: body.email, inviter });
      return reply.status(201).send(invitationBody(ctx, caller, created, access.role));
    },
  });

  /**
   * Withdraws it (Revoke; the first half of Resend). An accepted invitee leaves the workspace. The
   * link leads to the reference's `revoked`; `withdrawal`, where it led before, answers the same.
   */
  for (const url of ['/invitations/:id/revoked', '/invitations/:id/withdrawal']) {
    defineRoute(app, ctx, {
      method: 'PUT',
      url,
      guard: { resource: 'invitation', rel: REL.withdrawInvitation },
      response: invitationSchema,
      handler: async ({ request, access }) => {
        await withdrawInvitation(ctx.db, access.invitation);
        return reread(request.caller, access.invitation.id, access.role);
      },
    });
  }

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
