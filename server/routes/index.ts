import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { bearerToken, type Principal, type TokenVerifier } from '../http/auth';
import { unauthorized } from '../http/errors';

export interface ApiOptions {
  db: Db;
  config: Config;
  verifyToken: TokenVerifier;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

/** Absolute base of the API for building links, e.g. http://localhost:8080/api */
export const apiBase = (request: FastifyRequest, config: Config) => `${config.publicUrl}/api`;

/**
 * Everything under /api needs a verified bearer token (401 otherwise, with the error body).
 * Authorisation of each resource happens in the policy module, route by route.
 */
export const apiRoutes: FastifyPluginAsync<ApiOptions> = async (app, options) => {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized();
    request.principal = await options.verifyToken(token);
  });

  app.get('/', async (request) => ({
    _links: {
      self: { href: `${apiBase(request, options.config)}/` },
    },
  }));
};
