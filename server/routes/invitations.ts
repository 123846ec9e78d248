import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { isValidEmail, PROFILE_MESSAGES } from '../../src/domain/validation';
import type { MemberRole } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { pagedCollection, parsePaging } from '../http/hal';
import { notify } from '../notifications/notify';
import { verifiedEmail, type Caller } from '../policy/caller';
import { requireLink, requireWorkspaceLink } from '../policy/guard';
import { invitationLinks } from '../policy/links';
import { isUuid } from '../repositories/ids';
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
import { addMember, memberRole } from '../repositories/workspaces';
import { isoRequired, requestUrl, type RouteContext } from './context';
import { parseBody, parseQuery, rejectFieldErrors } from './validation';

const OBJECT = 'invitation';

const emailQuerySchema = z.looseObject({ email: z.string({ message: 'is required' }).trim().min(1, 'is required') });
const createSchema = z.looseObject({ email: z.string().nullish() });

export function invitationBody(ctx: RouteContext, caller: Caller, invitation: InvitationRow, callerRole: MemberRole | undefined) {
  return {
    id: invitation.id,
    email: invitation.email,
    status: invitation.status,
    created: isoRequired(invitation.created),
    workspace: { id: invitation.workspace_id, name: invitation.workspace_name },
    _links: invitationLinks(ctx.h, caller, invitation, callerRole),
  };
}

function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

async function isMemberByEmail(ctx: RouteContext, workspaceId: string, email: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('workspace_members as m')
    .innerJoin('profiles as p', 'p.id', 'm.profile_id')
    .select('m.profile_id')
    .where('m.workspace_id', '=', workspaceId)
    .where((eb) => eb(eb.fn('lower', ['p.email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

export function invitationRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** The invitations waiting for the caller's own, verified address. */
  app.get('/invitations', async (request) => {
    const { caller } = request;
    const { email } = parseQuery(emailQuerySchema, request.query, OBJECT);
    const own = verifiedEmail(caller);
    if (own === undefined || own !== email.toLowerCase()) throw forbidden('Access is denied: you may only list invitations to your own verified email');
    const paging = parsePaging(request.query, { defaultSize: 99 });
    const { items, total } = await pendingInvitationsFor(ctx.db, email, paging);
    return pagedCollection('invitations', items.map((i) => invitationBody(ctx, caller, i, undefined)), paging, total, requestUrl(ctx, request));
  });

  app.get<{ Params: { id: string } }>('/invitations/:id', async (request) => {
    const { caller } = request;
    const invitation = isUuid(request.params.id) ? await findInvitation(ctx.db, request.params.id) : undefined;
    if (!invitation) throw notFound(`Invitation ${request.params.id} not found`);
    const role = caller.profile ? await memberRole(ctx.db, invitation.workspace_id, caller.profileId) : undefined;
    requireLink(invitationLinks(ctx.h, caller, invitation, role), REL.self);
    return invitationBody(ctx, caller, invitation, role);
  });

  /**
   * Accepting joins the workspace as a member (and makes it the default workspace of a profile
   * that has none). Accepting an invitation already accepted answers it again unchanged, so a
   * repeated click or a retried request is harmless.
   */
  app.patch<{ Params: { id: string } }>('/invitations/:id', async (request) => {
    const { caller } = request;
    const invitation = isUuid(request.params.id) ? await findInvitation(ctx.db, request.params.id) : undefined;
    if (!invitation) throw notFound(`Invitation ${request.params.id} not found`);
    if (verifiedEmail(caller) !== invitation.email.trim().toLowerCase()) throw forbidden('Access is denied: this invitation is for someone else');
    const profile = caller.profile;
    if (!profile) throw forbidden('Access is denied: sign in before accepting an invitation');
    if (invitation.status === INVITATION_STATUS.accepted) {
      const role = await memberRole(ctx.db, invitation.workspace_id, profile.id);
      return invitationBody(ctx, caller, invitation, role);
    }
    requireLink(invitationLinks(ctx.h, caller, invitation, undefined), REL.acceptInvitation);
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await markAccepted(trx, invitation.id))) throw conflict('This invitation is no longer pending');
      await addMember(trx, invitation.workspace_id, profile.id, 'member');
      if (profile.default_workspace_id === null) await setDefaultWorkspace(trx, profile.id, invitation.workspace_id);
    });
    const accepted = await findInvitation(ctx.db, invitation.id);
    if (!accepted) throw notFound(`Invitation ${invitation.id} not found`);
    const role = await memberRole(ctx.db, invitation.workspace_id, profile.id);
    return invitationBody(ctx, caller, accepted, role);
  });

  app.get<{ Params: { id: string } }>('/workspaces/:id/invitations', async (request) => {
    const { workspace, role } = await requireWorkspaceLink(ctx.db, ctx.h, request.caller, request.params.id, REL.invitations);
    const paging = parsePaging(request.query, { defaultSize: 99 });
    const { items, total } = await invitationsOfWorkspace(ctx.db, workspace.id, paging);
    return pagedCollection('invitations', items.map((i) => invitationBody(ctx, request.caller, i, role)), paging, total, requestUrl(ctx, request));
  });

  /**
   * An admin invites one address. When the workspace lists domains, only addresses of those
   * domains may be invited. Whoever already has a profile with that address is notified.
   */
  app.post<{ Params: { id: string } }>('/workspaces/:id/invitations', async (request, reply) => {
    const { caller } = request;
    const { workspace, role } = await requireWorkspaceLink(ctx.db, ctx.h, caller, request.params.id, REL.createInvitation);
    const email = parseBody(createSchema, request.body, OBJECT).email?.trim() ?? '';
    rejectFieldErrors(OBJECT, { email: isValidEmail(email) ? undefined : PROFILE_MESSAGES.emailInvalid });
    const domains = workspace.domains.map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter((d) => d !== '');
    if (domains.length > 0 && !domains.includes(emailDomain(email))) {
      throw badRequest(`Validation failed for object='${OBJECT}'`, [
        { field: 'email', objectName: OBJECT, defaultMessage: `Invitations are limited to ${domains.join(', ')}` },
      ]);
    }
    if (await isMemberByEmail(ctx, workspace.id, email)) throw conflict(`${email} is already a member of this workspace`, [{ field: 'email', objectName: OBJECT, defaultMessage: 'is already a member' }]);
    const existing = await findInvitationByEmail(ctx.db, workspace.id, email);
    if (existing?.status === INVITATION_STATUS.pending) throw conflict(`${email} has already been invited`, [{ field: 'email', objectName: OBJECT, defaultMessage: 'has already been invited' }]);

    const actorName = caller.profile?.name ?? null;
    const id = await ctx.db.transaction().execute(async (trx) => {
      const invitationId = await openInvitation(trx, { workspaceId: workspace.id, email, invitedBy: caller.profileId }, existing?.id);
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
  });
}
