import fs from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { CLIENT_TYPES_FILE, clientTypes } from '../support/openapiClient';
import type { paths } from './openapi-client/paths';
import { startWorld, type World } from './helpers/world';

// A client generated from GET /api/openapi.json by a maintained generator (openapi-typescript,
// with openapi-fetch as the runtime) makes real calls. The generated types are committed; this
// test regenerates them from the live description and fails when they differ, so the calls below
// are type-checked (by `npm run typecheck`) against what the server describes today.

let world: World;
let document: Record<string, unknown>;
beforeAll(async () => {
  world = await startWorld();
  document = (await (await fetch(`${world.baseUrl}/api/openapi.json`)).json()) as Record<string, unknown>;
});
afterAll(() => world.close());

type ValidationBody = paths['/api/workspaces/{id}/pipelines/validation']['post']['requestBody']['content']['application/json'];

const client = () => createClient<paths>({ baseUrl: world.baseUrl, headers: { authorization: `Bearer ${world.owner.token}` } });

describe('a client generated from the OpenAPI description', () => {
  it('is the committed one (run `npm run openapi:client` after changing a route)', async () => {
    expect(await clientTypes(document)).toBe(fs.readFileSync(CLIENT_TYPES_FILE, 'utf8'));
  });

  it('pages the workspaces with its typed query', async () => {
    const { data, error, response } = await client().GET('/api/workspaces', { params: { query: { page: 0, size: 99 } } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    // typed from the response schema: a renamed field would fail to compile here
    const demo = data?._embedded?.workspaces?.find((workspace) => workspace.id === DEMO.workspaceId);
    const name: string | undefined = demo?.name;
    expect(name).toBe(DEMO.workspaceName);
    expect(data?.page?.totalElements).toBeGreaterThanOrEqual(1);
  });

  it('validates a pipeline with its typed body, and reads the typed error body of a bad one', async () => {
    const api = client();
    const good = await api.POST('/api/workspaces/{id}/pipelines/validation', {
      params: { path: { id: DEMO.workspaceId } },
      body: { name: 'Generated client check', script: 'echo hello' },
    });
    expect(good.response.status).toBe(200);

    const bad = await api.POST('/api/workspaces/{id}/pipelines/validation', {
      params: { path: { id: DEMO.workspaceId } },
      body: { name: '' },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.status).toBe(400);
    expect(bad.error?.errors?.map((e) => e.field)).toContain('name');

    // the generated body type requires what the route requires: this line would not compile
    // @ts-expect-error name is required
    const missingName: ValidationBody = { script: 'echo' };
    expect(missingName).toBeDefined();
  });
});
