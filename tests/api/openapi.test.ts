import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { openApiPath } from '../../server/routes/openapi';
import { apiRoutes } from './contract/fixtures';
import { startWorld, type World } from './helpers/world';

// GET /api/openapi.json: public, valid OpenAPI 3.1 by a maintained validator, and generated from
// the routes the server really registered, so a route cannot be missing from it.

interface Operation {
  operationId: string;
  'x-link-relations': string[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, unknown>; required?: string[] } } } };
  responses: Record<string, unknown>;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

let world: World;
let document: Document;
beforeAll(async () => {
  world = await startWorld();
  const response = await fetch(`${world.baseUrl}/api/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/json');
  document = (await response.json()) as Document;
});
afterAll(() => world.close());

describe('the OpenAPI description', () => {
  it('is served without a token and is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers[0]?.url).toBe(world.baseUrl);
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every registered route, with its link relation, path parameters and the shared error body', () => {
    const routes = apiRoutes(world);
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes.filter((route) => document.paths[openApiPath(route.url).path]?.[route.method.toLowerCase()] === undefined);
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    for (const route of routes) {
      const { path, params } = openApiPath(route.url);
      const operation = document.paths[path]![route.method.toLowerCase()]!;
      expect(operation['x-link-relations'], `${route.method} ${route.url}`).toEqual([route.meta!.guard.rel].flat());
      expect(operation.parameters?.filter((p) => p.in === 'path').map((p) => p.name) ?? []).toEqual(params);
      expect(operation.responses['403']).toEqual({ $ref: '#/components/responses/Error' });
    }
    const ids = Object.values(document.paths).flatMap((operations) => Object.values(operations).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("states a route's body and query as the route validates them", async () => {
    const save = document.paths['/api/workspaces/{id}/pipelines/{pipelineId}']!.put!;
    const body = save.requestBody!.content['application/json'].schema;
    expect(Object.keys(body.properties ?? {})).toEqual(expect.arrayContaining(['name', 'properties', 'schedule', 'dataComponents', 'script', 'timeout']));
    expect(body.required).toContain('name');
    // a body the description says lacks its required field is refused as the description says: a 400
    const refused = await world.owner.api.call('PUT', `/api/workspaces/${DEMO.workspaceId}/pipelines/${randomUUID()}`, { properties: {} });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('"field":"name"');

    const members = document.paths['/api/workspaces/{id}/members']!.get!;
    expect(members.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['id', 'page', 'size']));
    expect(members.responses['400']).toBeDefined();
    const paged = await world.owner.api.call('GET', `/api/workspaces/${DEMO.workspaceId}/members?page=0&size=1`);
    expect(paged.status).toBe(200);
  });
});
