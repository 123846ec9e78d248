import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { compileSerializer } from '../http/responseSchema';
import type { Db } from '../db/database';
import { apiRoutes, type RegisteredRoute } from './index';

// Every route answering a JSON resource declares its response schema, so Fastify writes the body
// through it and a field the schema does not name cannot leak. The routes that answer no JSON body
// are listed here, each with why; a new route is either declared or added below with its reason.

const NO_JSON_BODY: Record<string, string> = {
  'DELETE /api/workspaces/:id': '204',
  'DELETE /api/jobs/:id': '204',
  'GET /api/jobs/:id/logs': 'the log as text or newline-delimited JSON, 204 when nothing is new',
  'DELETE /api/notifications/:id': '204',
  'DELETE /api/invitations/:id': '204',
  'DELETE /api/apikeys/:id': '204',
  'DELETE /api/datasets/:id': '204',
  'PUT /api/datasets/:id/view': '204',
  'DELETE /api/datasets/:id/subscriptions': '204',
  'GET /api/datasets/:id/data': "the rows of the dataset's own query or rawData (columns no schema knows), or CSV",
  'DELETE /api/channels/:id': '204',
  'DELETE /api/comments/:id': '204',
  'DELETE /api/comments/:id/like': '204',
  'DELETE /api/workspaces/:id/members/:memberId': '204',
  'DELETE /api/subscriptions/:id': '204',
  'DELETE /api/channels/:id/subscriptions': '204',
  'DELETE /api/workspaces/:id/resources/*': '204',
  'POST /api/workspaces/:id/pipelines/validation': '200 with no body, or the 400 of the save',
  'DELETE /api/pipelines/:id': '204',
  'DELETE /api/pipelines/:id/state': '204',
  'DELETE /api/pipelines/:id/subscriptions': '204',
  'DELETE /api/workspaces/:id/dataplugins/:plural/:plugin': '204',
  'DELETE /api/dataplugins/:id': '204',
  'GET /api/discovery.yml': 'YAML',
  'GET /api/workspaces/:id/discovery.yml': 'YAML',
  'DELETE /api/datastores/:id': '204',
  'DELETE /api/datacomponents/:id/credentials': '204',
  'DELETE /api/datacomponents/:id': '204',
};

async function registeredRoutes(): Promise<RegisteredRoute[]> {
  const registry: RegisteredRoute[] = [];
  const app = Fastify({ logger: false });
  // Registering reads nothing: the database is only reached by a request.
  await app.register(apiRoutes, { prefix: '/api', db: {} as Db, config: loadConfig({ PORT: '8080' }), verifyToken: () => Promise.reject(new Error('not here')), registry });
  await app.ready();
  await app.close();
  return registry.filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS');
}

describe('the routes under /api', () => {
  it('each declare the schema of their JSON answer, or answer no JSON body', async () => {
    const routes = await registeredRoutes();
    expect(routes.length).toBeGreaterThan(100);
    const key = (route: RegisteredRoute) => `${route.method} ${route.url}`;
    const undeclared = routes.filter((route) => route.meta?.response === undefined && NO_JSON_BODY[key(route)] === undefined).map(key);
    expect(undeclared).toEqual([]);
    // and the list names no route that is gone or that declares one after all
    const stale = Object.keys(NO_JSON_BODY).filter((name) => !routes.some((route) => key(route) === name && route.meta?.response === undefined));
    expect(stale).toEqual([]);
  });

  it("each answer schema compiles into its serializer (made on the route's first answer, so a broken one would fail late)", async () => {
    const routes = await registeredRoutes();
    const failures = routes.flatMap((route) => {
      if (!route.meta?.response) return [];
      try {
        return typeof compileSerializer(route.meta.response)({}) === 'string' ? [] : [`${route.method} ${route.url}`];
      } catch (error) {
        return [`${route.method} ${route.url}: ${String(error)}`];
      }
    });
    expect(failures).toEqual([]);
  });
});
