import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '../../src/domain/errors';
import { pagingSchema } from '../http/hal';
import { responseJsonSchema } from '../http/responseSchema';
import type { RouteMeta } from './define';
import type { RegisteredRoute } from './index';

// The OpenAPI 3.1 description of the API, generated from what the routes really registered: the
// route table gives the paths and methods, each route's defineRoute declaration its guard (the
// link relation that must be offered), its query and body schemas (the same zod schemas that
// validate requests) and whether it pages. Nothing is written twice, so the description cannot
// drift from the server.

type JsonSchema = Record<string, unknown>;

/** The JSON Schema of what a client sends for `schema` (a transform's input side; what JSON Schema cannot say is left open). */
function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Fastify's '/workspaces/:id/files/*' as OpenAPI's '/workspaces/{id}/files/{path}', with the parameter names. */
export function openApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url
    .split('/')
    .map((segment) => {
      if (segment === '*') {
        params.push('path');
        return '{path}';
      }
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      params.push(name);
      return `{${name}}`;
    })
    .join('/');
  return { path, params };
}

const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** 'getWorkspacesByIdPipelines' for GET /api/workspaces/{id}/pipelines: unique, since paths are. */
export const operationId = (method: string, path: string) =>
  method.toLowerCase() +
  path
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'api')
    .map((segment) => (segment.startsWith('{') ? `By${capitalised(segment.slice(1, -1))}` : segment.split(/[^A-Za-z0-9]+/).filter(Boolean).map(capitalised).join('')))
    .join('');

const ERROR = { $ref: '#/components/responses/Error' };

function queryParameters(meta: RouteMeta): JsonSchema[] {
  const object = (schema: z.ZodType) => inputSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const fromSchema = (schema: z.ZodType | undefined) => {
    if (!schema) return [];
    const { properties = {}, required = [] } = object(schema);
    return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.includes(name), schema: property }));
  };
  const paging = meta.paging ? fromSchema(pagingSchema).map((p) => ({ ...p, required: false })) : [];
  const declared = fromSchema(meta.query);
  return [...declared, ...paging.filter((p) => !declared.some((d) => d.name === p.name))];
}

function operation(route: RegisteredRoute, params: string[]): JsonSchema {
  const meta = route.meta;
  const rels = meta ? [meta.guard.rel].flat() : [];
  const parameters = [...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })), ...(meta ? queryParameters(meta) : [])];
  const validates = meta !== undefined && (meta.body !== undefined || meta.query !== undefined || meta.paging !== undefined);
  return {
    operationId: operationId(route.method, openApiPath(route.url).path),
    tags: [route.url.split('/')[2] ?? 'root'],
    summary: meta ? `Follows the '${rels.join("' or '")}' link of the ${meta.guard.resource}` : undefined,
    'x-link-relations': rels,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(meta?.body ? { requestBody: { required: true, content: { 'application/json': { schema: inputSchema(meta.body) } } } } : {}),
    responses: {
      '200': {
        description: 'The resource or collection as HAL (`_links` are the actions offered to the caller)',
        // the schema the answer is serialised through: a field it does not name is never sent
        content: { 'application/hal+json': { schema: meta?.response ? responseJsonSchema(meta.response) : { type: 'object' } } },
      },
      ...(validates ? { '400': ERROR } : {}),
      '401': ERROR,
      '403': ERROR,
      '404': ERROR,
    },
  };
}

export function openApiDocument(routes: readonly RegisteredRoute[], info: { version: string; serverUrl: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    if (route.method === 'HEAD' || route.method === 'OPTIONS') continue;
    const { path, params } = openApiPath(route.url);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, params) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workspace data platform API',
      version: info.version,
      description: 'Every answer is HAL: follow the `_links` the server offers; a link that is absent is an action the caller may not take. Errors share one body.',
    },
    servers: [{ url: info.serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token of the identity provider, or of an API key (client credentials)' } },
      schemas: { Error: inputSchema(errorBodySchema) },
      responses: { Error: { description: 'The error body (a 400 names each bad field)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
    },
  };
}

/** GET /api/openapi.json: public, like any API reference; built once, on the first request, when every route is registered. */
export function openApiRoutes(routes: readonly RegisteredRoute[], info: { version: string; serverUrl: string }): FastifyPluginAsync {
  return (app) => {
    let document: JsonSchema | undefined;
    app.get('/openapi.json', async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      document ??= openApiDocument(routes, info);
      return document;
    });
    return Promise.resolve();
  };
}
