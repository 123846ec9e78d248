import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import { rootSchema } from '../../src/domain/resources';
import type { RouteContext } from './context';
import { defineRoute } from './define';

export function rootRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** The entry point: what this caller may reach, as links (e.g. 'new apikey' for verified people). */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/',
    guard: { resource: 'root', rel: REL.self },
    response: rootSchema,
    handler: ({ access }) => ({ _links: access.links }),
  });
}
