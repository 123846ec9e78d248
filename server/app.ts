import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { EMBEDDED_IDP_PATH } from './config';
import type { Db } from './db/database';
import { createTokenVerifier } from './http/auth';
import { registerErrorHandling, sendError } from './http/errors';
import { allowedMethodsOf } from './http/allowedMethods';
import { registerSecurityHeaders } from './http/securityHeaders';
import { registerStaticAssets } from './http/staticAssets';
import { serializerOf } from './http/responseSchema';
import { noSchemaValidation } from './http/validation';
import { createIdentity, type Identity } from './identity';
import { apiRoutes, type RegisteredRoute } from './routes';
import { githubWebhookRoutes } from './routes/githubWebhook';
import { openApiRoutes } from './routes/openapi';
import { publicConfig } from './public-config';

/** The version of the API's description: its shape, not the package's release. */
const API_VERSION = '1.0.0';

interface ServerDeps {
  config: Config;
  db: Db;
  /** pino options; false in tests that want silence */
  logger?: boolean | { level: string };
}

export interface AppServer {
  app: FastifyInstance;
  identity: Identity | undefined;
  /** every route under /api, as registered */
  routes: readonly RegisteredRoute[];
  close(): Promise<void>;
}

/**
 * One HTTP server, one port: the embedded identity provider under /idp (a Koa app, handed the raw
 * request), the API under /api, the runtime config at /config.json and the built SPA everywhere else.
 */
/** Idle keep-alive connections: longer than the usual 60 s of the proxies in front (Fastify's default). */
const KEEP_ALIVE_MS = 72_000;

export async function buildServer({ config, db, logger = { level: config.env.LOG_LEVEL } }: ServerDeps): Promise<AppServer> {
  let identity: Identity | undefined;

  const serverFactory = (handler: http.RequestListener) => {
    const server = http.createServer((req, res) => {
      const url = req.url ?? '/';
      if (identity && (url === EMBEDDED_IDP_PATH || url.startsWith(`${EMBEDDED_IDP_PATH}/`) || url.startsWith(`${EMBEDDED_IDP_PATH}?`))) {
        identity.handle(req, res);
        return;
      }
      handler(req, res);
    });
    // Fastify's own server would keep idle connections 72 s; Node's, made here, only 5 s. A client
    // (a load balancer's 60 s pool, undici's reuse) sending on a connection the server is closing
    // at that moment gets ECONNRESET, so the server waits longer than its clients.
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    return server;
  };

  const app: FastifyInstance = Fastify({
    logger: logger === false ? false : { level: typeof logger === 'object' ? logger.level : 'info' },
    serverFactory,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Fastify's own schema compilers are never used: input is parsed by each route's zod schemas and
    // answers are written by serializerOf (routes/define.ts). Not making them spares every start
    // loading Ajv (a tenth of a second).
    schemaController: { compilersFactory: { buildValidator: () => noSchemaValidation, buildSerializer: () => serializerOf } },
  });

  if (config.auth.embedded) {
    identity = await createIdentity({ config, db, logger: app.log });
  }

  // before any route: every answer below carries the security headers
  registerSecurityHeaders(app, config);
  registerErrorHandling(app);
  const verifyToken = createTokenVerifier(config.auth, identity ? () => identity.jwks() : undefined);

  app.get('/config.json', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return publicConfig(config);
  });

  const routes: RegisteredRoute[] = [];
  await app.register(apiRoutes, { prefix: '/api', db, config, verifyToken, registry: routes });
  // authenticated by its signature, not a bearer token: outside apiRoutes and its token check
  await app.register(githubWebhookRoutes, { prefix: '/api', db });
  // the API's description is public, like any API reference
  await app.register(openApiRoutes(routes, { version: API_VERSION, serverUrl: config.publicUrl }), { prefix: '/api' });

  const indexHtml = path.join(config.staticDir, 'index.html');
  const hasSpa = fs.existsSync(indexHtml);
  if (hasSpa) {
    await registerStaticAssets(app, config.staticDir);
  }

  // History fallback: any GET (or HEAD) outside /api that is not a file gets the SPA's index.html,
  // negotiated and revalidated like the file itself (server/http/staticAssets.ts).
  // Built on first use, when every route is registered.
  let allowedMethods: ((pathname: string) => string[]) | undefined;
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const readsPage = request.method === 'GET' || request.method === 'HEAD';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      allowedMethods ??= allowedMethodsOf(routes);
      const allowed = allowedMethods(pathname);
      if (allowed.length > 0) {
        reply.header('allow', allowed.join(', '));
        return sendError(reply, request, 405, `${request.method} is not served at ${pathname}; it serves ${allowed.join(', ')}`);
      }
    }
    if (pathname === '/api' || pathname.startsWith('/api/') || !readsPage || !hasSpa) {
      return sendError(reply, request, 404, `No handler for ${request.method} ${pathname}`);
    }
    return reply.sendFile('index.html');
  });

  return {
    app,
    identity,
    routes,
    async close() {
      await app.close();
      await identity?.close();
    },
  };
}
