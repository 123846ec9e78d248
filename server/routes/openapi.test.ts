import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument, openApiPath, operationId } from './openapi';

describe('openApiPath', () => {
  it("writes Fastify's parameters as OpenAPI's and names them", () => {
    expect(openApiPath('/api/workspaces/:id/pipelines/:pipelineId')).toEqual({ path: '/api/workspaces/{id}/pipelines/{pipelineId}', params: ['id', 'pipelineId'] });
    expect(openApiPath('/api/datasets/*')).toEqual({ path: '/api/datasets/{path}', params: ['path'] });
    expect(openApiPath('/api')).toEqual({ path: '/api', params: [] });
  });
});

describe('operationId', () => {
  it('tells apart paths that differ only in a parameter', () => {
    expect(operationId('GET', '/api/workspaces/{id}/jobs')).toBe('getWorkspacesByIdJobs');
    expect(operationId('GET', '/api/workspaces/{id}/jobs')).not.toBe(operationId('GET', '/api/workspaces/jobs'));
    expect(operationId('PUT', '/api/data-stores/{id}/make-default')).toBe('putDataStoresByIdMakeDefault');
  });
});

describe('openApiDocument', () => {
  const guard = { resource: 'workspace' as const, rel: 'update workspace' };
  const meta = { guard, body: z.object({ name: z.string(), size: z.number().optional() }), query: undefined, paging: undefined, objectName: 'workspace', readsCaller: false, response: z.looseObject({ id: z.string(), tags: z.record(z.string(), z.string()).nullish() }) };
  const document = openApiDocument([{ method: 'PUT', url: '/api/workspaces/:id', meta }, { method: 'HEAD', url: '/api/workspaces/:id', meta }], { version: '1.0.0', serverUrl: 'https://example.com' });
  const put = (document.paths as Record<string, Record<string, Record<string, unknown>>>)['/api/workspaces/{id}']!;

  it('states the body the route validates and a 400 for it', () => {
    expect(put.put!.requestBody).toMatchObject({ content: { 'application/json': { schema: { type: 'object', required: ['name'] } } } });
    expect(put.put!.responses).toHaveProperty('400');
    expect(put.put!['x-link-relations']).toEqual(['update workspace']);
  });

  it("describes the answer by the schema it is serialised through: closed objects, open records", () => {
    const ok = put.put!.responses as Record<string, { content: Record<string, { schema: unknown }> }>;
    expect(ok['200']!.content['application/hal+json']!.schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, tags: { type: ['object', 'null'], additionalProperties: {} } },
      required: ['id'],
      additionalProperties: false,
    });
  });

  it('leaves out HEAD, which answers as GET does', () => {
    expect(Object.keys(put)).toEqual(['put']);
  });
});
