import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import type { MemberRole } from '../db/schema';
import { pagedCollection, parsePaging } from '../http/hal';
import { requireWorkspaceLink, workspaceAccess } from '../policy/guard';
import { workspaceLinks } from '../policy/links';
import { membersOf, workspacesOf, type MemberRow, type WorkspaceRow } from '../repositories/workspaces';
import { requestUrl, type RouteContext } from './context';

export function workspaceBody(ctx: RouteContext, workspace: WorkspaceRow, role: MemberRole, defaultWorkspaceId: string | null | undefined) {
  return {
    id: workspace.id,
    name: workspace.name,
    imageUrl: workspace.image_url,
    defaultEnvironment: workspace.default_environment,
    default: workspace.id === defaultWorkspaceId,
    appProperties: workspace.app_properties,
    status: workspace.status,
    domains: workspace.domains,
    _links: workspaceLinks(ctx.h, workspace, role),
  };
}

/** A handle for @mentions: the stored one, else one made from the name. */
function handleOf(member: MemberRow): string {
  if (member.handle) return member.handle;
  const slug = member.name.trim().toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
  return `@${slug || member.id}`;
}

export function workspaceRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get('/workspaces', async (request) => {
    const paging = parsePaging(request.query, { sortable: ['name'] });
    const { caller } = request;
    const { items, total } = caller.profile ? await workspacesOf(ctx.db, caller.profileId, paging) : { items: [], total: 0 };
    const defaultId = caller.profile?.default_workspace_id;
    return pagedCollection(
      'workspaces',
      items.map((w) => workspaceBody(ctx, w, w.role, defaultId)),
      paging,
      total,
      requestUrl(ctx, request),
    );
  });

  app.get<{ Params: { id: string } }>('/workspaces/:id', async (request) => {
    const { workspace, role } = await workspaceAccess(ctx.db, ctx.h, request.caller, request.params.id);
    return workspaceBody(ctx, workspace, role, request.caller.profile?.default_workspace_id);
  });

  app.get<{ Params: { id: string } }>('/workspaces/:id/members', async (request) => {
    const { workspace } = await requireWorkspaceLink(ctx.db, ctx.h, request.caller, request.params.id, REL.members);
    const paging = parsePaging(request.query, { defaultSize: 99 });
    const { items, total } = await membersOf(ctx.db, workspace.id, paging);
    const members = items.map((m) => ({ id: m.id, name: m.name, email: m.email, handle: handleOf(m), role: m.role }));
    return pagedCollection('members', members, paging, total, requestUrl(ctx, request));
  });
}
