import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import { EMBEDDED_IDP_PATH } from './config';
import type { Db } from './db/database';
import { createTokenVerifier } from './http/auth';
import { registerErrorHandling, sendError } from './http/errors';
import { createIdentity, type Identity } from './identity';
import { apiRoutes, type RegisteredRoute } from './routes';
import { publicConfig } from './public-config';

export interface ServerDeps {
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
export async function buildServer({ config, db, logger = { level: config.env.LOG_LEVEL } }: ServerDeps): Promise<AppServer> {
  let identity: Identity | undefined;

  const serverFactory = (handler: http.RequestListener) =>
    http.createServer((req, res) => {
      const url = req.url ?? '/';
      if (identity && (url === EMBEDDED_IDP_PATH || url.startsWith(`${EMBEDDED_IDP_PATH}/`) || url.startsWith(`${EMBEDDED_IDP_PATH}?`))) {
        identity.handle(req, res);
        return;
      }
      handler(req, res);
    });

  const app: FastifyInstance = Fastify({
    logger: logger === false ? false : { level: typeof logger === 'object' ? logger.level : 'info' },
    serverFactory,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });

  if (config.auth.embedded) {
    identity = await createIdentity({ config, db, logger: app.log });
  }

  registerErrorHandling(app);
  const verifyToken = createTokenVerifier(config.auth, identity ? () => identity.jwks() : undefined);

  app.get('/config.json', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return publicConfig(config);
  });

  const routes: RegisteredRoute[] = [];
  await app.register(apiRoutes, { prefix: '/api', db, config, verifyToken, registry: routes });

  const indexHtml = path.join(config.staticDir, 'index.html');
  const hasSpa = fs.existsSync(indexHtml);
  if (hasSpa) {
    await app.register(fastifyStatic, { root: config.staticDir, wildcard: false, index: false, maxAge: '1h', immutable: false });
  }

  // History fallback: any GET outside /api that is not a file gets the SPA's index.html.
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/') || request.method !== 'GET' || !hasSpa) {
      return sendError(reply, request, 404, `No handler for ${request.method} ${pathname}`);
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html', { maxAge: 0 });
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
