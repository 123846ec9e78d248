import type { FastifyInstance } from 'fastify';
import { rootLinks } from '../policy/links';
import type { RouteContext } from './context';

export function rootRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** The entry point: what this caller may reach, as links (e.g. 'new apikey' for verified people). */
  app.get('/', (request) => ({ _links: rootLinks(ctx.h, request.caller) }));
}
