import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { halResource, pagedCollection } from '../../src/domain/hal';
import { jobSchema, pipelineSchema, settingSchema, workspaceSchema } from '../../src/domain/resources';
import { compileSerializer, ResponseSchema, responseJsonSchema, serializerOf, serializerSchema } from './responseSchema';

/** What Fastify sends for `body` under a route's response schema, given as defineRoute gives it. */
async function serialise(schema: z.ZodType, body: unknown): Promise<unknown> {
  const app = Fastify({ logger: false });
  app.get('/', { schema: { response: { '2xx': new ResponseSchema(schema) } }, serializerCompiler: serializerOf }, () => body);
  const answer = await app.inject('/');
  await app.close();
  expect(answer.statusCode).toBe(200);
  return answer.json();
}
/** What JSON.stringify sent before. */
const plain = (body: unknown): unknown => JSON.parse(JSON.stringify(body)) as unknown;

describe('responseJsonSchema', () => {
  it('closes every object that names its properties, loose or not', () => {
    const json = responseJsonSchema(z.looseObject({ id: z.string(), owner: z.looseObject({ name: z.string() }) }));
    expect(json).toMatchObject({ additionalProperties: false, properties: { owner: { additionalProperties: false } } });
    expect(json).not.toHaveProperty('$schema');
  });

  it('closes the links of a `_links` record (one link or several); leaves other records open', () => {
    const json = responseJsonSchema(workspaceSchema) as { properties: Record<string, Record<string, unknown>> };
    const link = { type: 'object', properties: { href: { type: 'string' }, templated: { type: 'boolean' }, title: { type: 'string' } }, required: ['href'], additionalProperties: false };
    expect(json.properties._links).toEqual({ type: 'object', additionalProperties: { ...link, type: ['object', 'array'], items: link } });
    expect(json.properties.appProperties).toEqual({ type: ['object', 'null'], additionalProperties: {} });
  });

  it('writes a nullable object or enum as a type list, with null among the enum values', () => {
    const json = responseJsonSchema(z.object({ owner: z.object({ name: z.string() }).nullish(), level: z.enum(['ALL', 'NONE']).nullish() })) as { properties: Record<string, Record<string, unknown>> };
    expect(json.properties.owner).toMatchObject({ type: ['object', 'null'], additionalProperties: false });
    expect(json.properties.owner).not.toHaveProperty('anyOf');
    expect(json.properties.level).toEqual({ type: ['string', 'null'], enum: ['ALL', 'NONE', null] });
  });

  it("keeps the schema's required fields for the description; the serialiser does not demand them", () => {
    expect(responseJsonSchema(jobSchema)).toHaveProperty('required');
    expect(JSON.stringify(serializerSchema(jobSchema))).not.toContain('"required":[');
    // a property named `required` (a setting's flag) is a property, not the keyword
    expect(serializerSchema(settingSchema)).toMatchObject({ properties: { required: expect.any(Object) } });
  });
});

describe('serialising through the response schema', () => {
  it('refuses a tuple anywhere in the schema, which fast-json-stringify would write whole (unnamed fields included)', () => {
    const pair = z.tuple([z.object({ a: z.string() })]);
    expect(() => compileSerializer(pair)).toThrow(/may not hold a tuple/);
    expect(() => compileSerializer(z.object({ page: z.array(z.object({ pair })) }))).toThrow(/may not hold a tuple/);
    expect(() => compileSerializer(z.object({ list: z.array(z.object({ a: z.string() })) }))).not.toThrow();
  });

  it('drops a field the schema does not name, at any depth (a secret does not leak)', async () => {
    const body = {
      id: 'w1',
      name: 'Acme',
      sshPrivateKey: '-----BEGIN PRIVATE KEY-----',
      deploymentSecret: null,
      _links: { self: { href: 'https://x/api/workspaces/w1' } },
    };
    expect(await serialise(workspaceSchema, body)).toEqual({ id: 'w1', name: 'Acme', deploymentSecret: null, _links: { self: { href: 'https://x/api/workspaces/w1' } } });

    const links = { _links: { self: { href: 'https://x/a', token: 's3cret' }, many: [{ href: 'https://x/b', token: 's3cret' }] } };
    expect(await serialise(workspaceSchema, { id: 'w1', ...links })).toEqual({ id: 'w1', _links: { self: { href: 'https://x/a' }, many: [{ href: 'https://x/b' }] } });

    const job = { id: 'j1', type: 'PIPELINE_RUN', status: 'COMPLETE', created: '2024-01-01T00:00:00.000Z', _embedded: { profile: { email: 'a@b.c', passwordHash: 'x' }, token: 't' } };
    expect(await serialise(jobSchema, job)).toEqual({ id: 'j1', type: 'PIPELINE_RUN', status: 'COMPLETE', created: '2024-01-01T00:00:00.000Z', _embedded: { profile: { email: 'a@b.c' } } });
  });

  it('writes what JSON.stringify wrote for a body the schema describes: dates, nulls, nested _embedded lists, open records', async () => {
    const created = new Date('2024-05-06T07:08:09.010Z');
    const job = { id: 'j1', type: 'PIPELINE_RUN', status: 'ERROR', created, startTime: null, rowsLoaded: 12, rowsByStream: { users: 7, __proto__x: 5 }, _embedded: { profile: null, pipeline: { id: 'p1', name: null }, datastore: null }, _links: { self: { href: 'h' }, many: [{ href: 'a' }, { href: 'b', templated: true }] } };
    const pipeline = {
      id: 'p1',
      name: 'Daily',
      properties: { 'tap.start_date': '2024-01-01', 'tap.nested': { a: [1, { b: null }] } },
      dataComponents: ['tap', 'target'],
      _embedded: { 'latest job': job, dataComponents: [{ id: 'c1', name: 'tap', properties: {}, _embedded: { dataplugin: null }, _links: {} }], datastore: null },
      _links: { self: { href: 'p' } },
    };
    expect(await serialise(pipelineSchema, pipeline)).toEqual(plain(pipeline));
  });

  it('writes a Spring page with its items closed and undefined fields left out', async () => {
    const page = pagedCollection('things', halResource({ id: z.string(), note: z.string().nullish() }));
    const body = { _embedded: { things: [{ id: 'a', note: undefined, hidden: 1 }, { id: 'b', note: 'n' }] }, _links: { self: { href: 's' } }, page: { size: 20, totalElements: 2, totalPages: 1, number: 0 } };
    expect(await serialise(page, body)).toEqual({ _embedded: { things: [{ id: 'a' }, { id: 'b', note: 'n' }] }, _links: { self: { href: 's' } }, page: { size: 20, totalElements: 2, totalPages: 1, number: 0 } });
  });

  it('sends a body that lacks a field the schema requires as it is, rather than failing', async () => {
    expect(await serialise(jobSchema, { id: 'j1' })).toEqual({ id: 'j1' });
  });
});
