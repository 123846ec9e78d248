import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import { administratorsCollectionSchema, memberSchema } from '../../src/domain/resources';
import { conflict, notFound } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { administratorsOf, findMember, removeMember, setMemberRole } from '../repositories/members';
import { memberBody } from '../representations/member';
import { requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';

// One member of a workspace and the workspace's administrators (the Matatika reference's
// Administrator: a Member with the administrator flag — an owner or an editor here).

export function memberRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/members/:memberId',
    guard: { resource: 'member', rel: REL.self },
    response: memberSchema,
    handler: ({ access }) => memberBody(ctx, access.workspace.id, access.member, access.role),
  });

  /** 'delete member': an owner removes editors and members, an editor members; never an owner. */
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/workspaces/:id/members/:memberId',
    guard: { resource: 'member', rel: REL.deleteMember },
    handler: async ({ reply, access }) => {
      if (!(await removeMember(ctx.db, access.workspace.id, access.member))) throw conflict(`${access.member.name} was changed meanwhile: look again`);
      return reply.status(204).send();
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/administrators',
    guard: { resource: 'workspace', rel: REL.administrators },
    response: administratorsCollectionSchema,
    paging: { defaultSize: 99 },
    objectName: 'administrators',
    handler: async ({ request, access, paging }) => {
      const { items, total } = await administratorsOf(ctx.db, access.workspace.id, paging);
      return pagedCollection('administrators', items.map((m) => memberBody(ctx, access.workspace.id, m, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  /** The administrator flag: 'add administrator' makes a member an editor, 'withdraw administrator' a member again. */
  for (const [method, rel, role] of [
    ['PUT', REL.addAdministrator, 'editor'],
    ['DELETE', REL.withdrawAdministrator, 'member'],
  ] as const) {
    defineRoute(app, ctx, {
      method,
      url: '/workspaces/:id/administrators/:memberId',
      guard: { resource: 'member', rel },
      response: memberSchema,
      handler: async ({ access }) => {
        if (!(await setMemberRole(ctx.db, access.workspace.id, access.member.id, role))) throw conflict(`${access.member.name} is no longer a member of this workspace`);
        const changed = await findMember(ctx.db, access.workspace.id, access.member.id);
        if (!changed) throw notFound(`Member ${access.member.id} not found`);
        return memberBody(ctx, access.workspace.id, changed, access.role);
      },
    });
  }
}
