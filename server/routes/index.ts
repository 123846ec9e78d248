import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { bearerToken, type Principal, type TokenVerifier } from '../http/auth';
import { unauthorized } from '../http/errors';
import { resolveCaller, type Caller } from '../policy/caller';
import { hrefs } from '../policy/hrefs';
import { isUuid } from '../repositories/ids';
import { alertRoutes } from './alerts';
import { apiKeyRoutes } from './apikeys';
import type { RouteContext } from './context';
import { routeMeta, type RouteMeta } from './define';
import { channelRoutes } from './channels';
import { commentRoutes } from './comments';
import { datasetRoutes } from './datasets';
import { datasetMessageRoutes } from './datasetMessages';
import { invitationRoutes } from './invitations';
import { jobRoutes } from './jobs';
import { memberRoutes } from './members';
import { labRoutes } from './lab';
import { lineageRoutes } from './lineage';
import { openLineageRoutes } from './openLineage';
import { notificationRoutes } from './notifications';
import { profileRoutes } from './profiles';
import { readingRoutes } from './reading';
import { resourceRoutes } from './resources';
import { rootRoutes } from './root';
import { subscriptionRoutes } from './subscriptions';
import { tagRoutes } from './tags';
import { tokenRoutes } from './tokens';
import { workspaceRoutes } from './workspaces';

interface ApiOptions {
  db: Db;
  config: Config;
  verifyToken: TokenVerifier;
  /** filled with every route registered under /api, for the suites that check them all */
  registry?: RegisteredRoute[];
}

/** A route as Fastify registered it, with what defineRoute declared (undefined when it bypassed the guard). */
export interface RegisteredRoute {
  method: string;
  url: string;
  meta: RouteMeta | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    /** the profile this request acts for (see policy/caller.ts) */
    caller: Caller;
  }
}

/**
 * Everything under /api needs a verified bearer token (401 otherwise, with the error body); the
 * token is then resolved to the caller. Every route is declared with defineRoute, whose guard
 * authorises it through the policy before anything else. One file per resource (see README.md).
 */
export const apiRoutes: FastifyPluginAsync<ApiOptions> = (app, options) => {
  app.addHook('onRoute', (route) => {
    const meta = routeMeta(route.config);
    for (const method of [route.method].flat()) options.registry?.push({ method, url: route.url ?? route.path, meta });
    if (!meta) app.log.error({ method: route.method, url: route.url }, 'route registered without the policy guard (use defineRoute)');
  });
  // A DELETE or PUT sent with `Content-Type: application/json` and no body at all (as many HTTP
  // clients do) has no body, rather than an invalid one; anything else goes to Fastify's own
  // parser, with its prototype-poisoning protection.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') done(null, undefined);
    else void json(request, text, done);
  });
  app.decorateRequest('principal', null as unknown as Principal);
  app.decorateRequest('caller', null as unknown as Caller);
  // Routes under /workspaces/:id authorise against that workspace first; reading it with the
  // caller saves that request a round trip (workspaceAccess falls back to its own query otherwise).
  const workspaceRoute = `${app.prefix}/workspaces/:id`;
  const pathWorkspaceId = (request: FastifyRequest): string | undefined => {
    const route = request.routeOptions.url;
    if (route === undefined || !(route === workspaceRoute || route.startsWith(`${workspaceRoute}/`))) return undefined;
    const id = (request.params as { id?: unknown }).id;
    return isUuid(id) ? id : undefined;
  };
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized();
    request.principal = await options.verifyToken(token);
    // a route that reads its caller in its own statement does it in defineRoute's handler
    if (!routeMeta(request.routeOptions.config)?.readsCaller) request.caller = await resolveCaller(options.db, request.principal, pathWorkspaceId(request));
  });

  const ctx: RouteContext = { db: options.db, config: options.config, h: hrefs(options.config) };
  rootRoutes(app, ctx);
  profileRoutes(app, ctx);
  workspaceRoutes(app, ctx);
  jobRoutes(app, ctx);
  notificationRoutes(app, ctx);
  invitationRoutes(app, ctx);
  apiKeyRoutes(app, ctx);
  datasetRoutes(app, ctx);
  alertRoutes(app, ctx);
  channelRoutes(app, ctx);
  commentRoutes(app, ctx);
  readingRoutes(app, ctx);
  memberRoutes(app, ctx);
  subscriptionRoutes(app, ctx);
  tagRoutes(app, ctx);
  datasetMessageRoutes(app, ctx);
  resourceRoutes(app, ctx);
  labRoutes(app, ctx);
  lineageRoutes(app, ctx);
  openLineageRoutes(app, ctx);
  tokenRoutes(app, ctx);
  return Promise.resolve();
};
