import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDiscovery } from '../../../src/domain/discovery';
import { REL } from '../../../src/domain/relations';
import { DEMO } from '../../../server/seed';
import { expectError, hasLink, linkOf, type Answer } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { demoPipeline, outsiderWorkspace, type Body } from './labWorld';

// Issue 19: validating a pipeline without saving it (the reference's POST pipelines/validation,
// 'validate pipeline') and the discovery.yml of the global catalogue and of a workspace.

let world: World;
let workspace: Body;
let memberView: Body;
let outsiderWorkspaceId: string;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  outsiderWorkspaceId = await outsiderWorkspace(world);
  workspace = (await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body as Body;
  memberView = (await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body as Body;
});
afterAll(() => world?.close());

const count = async (table: 'pipelines' | 'data_components') =>
  Number((await world.server.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', DEMO.workspaceId).executeTakeFirstOrThrow()).n);

describe("'validate pipeline'", () => {
  it('is offered to admins only, and refused (403) to a member', async () => {
    expect(linkOf(workspace, REL.validatePipeline)).toBe(`${world.baseUrl}/api/workspaces/${DEMO.workspaceId}/pipelines/validation`);
    expect(hasLink(memberView, REL.validatePipeline)).toBe(false);
    expectError(await world.member.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/pipelines/validation`, { name: 'x' }), 403);
  });

  it('answers 200 with no body for a valid pipeline, and saves nothing (not even the component a plugin reference makes)', async () => {
    const before = [await count('pipelines'), await count('data_components')];
    const answer = await world.owner.api.call('POST', linkOf(workspace, REL.validatePipeline), { name: 'Validated only', dataComponents: ['extractors/tap-files', 'loaders/target-store'], properties: { 'tap-files.paths': '["a.csv"]' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toBeUndefined();
    expect([await count('pipelines'), await count('data_components')]).toEqual(before);
  });

  it('answers the save rules as field errors (400): the same texts a save gives', async () => {
    const href = linkOf(workspace, REL.validatePipeline);
    expectError(await world.owner.api.call('POST', href, { name: '  ' }), 400, { name: 'Name is mandatory' });
    expectError(await world.owner.api.call('POST', href, { name: 'Cron', schedule: '0 * *' }), 400, { schedule: /6 fields/ });
    expectError(await world.owner.api.call('POST', href, { name: 'X', dataComponents: ['nothing-here'] }), 400, { 'dataComponents.0': /names no data component/ });
    expectError(await world.owner.api.call('POST', href, { name: 'X', timeout: -1, maxRetries: 'many' }), 400, { timeout: /0 or more/, maxRetries: /./ });
    const invalid = await world.owner.api.call('POST', href, { name: 'Files', dataComponents: ['extractors/tap-files', 'loaders/target-store'] });
    expectError(invalid, 400);
    expect(invalid.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ objectName: 'pipeline', field: expect.stringMatching(/paths/) })]));
    // The save of the same body gives the same errors.
    const draft = await world.owner.api.call('POST', linkOf(workspace, REL.newPipeline));
    const saved = await world.owner.api.call('PUT', linkOf(draft.body, REL.createPipeline), { name: 'Files', dataComponents: ['extractors/tap-files', 'loaders/target-store'] });
    expect(saved.body.errors).toEqual(invalid.body.errors);
  });

  it("checks a name against the workspace's other pipelines, and an existing pipeline's own name with its id", async () => {
    const existing = await demoPipeline(world.owner.api, 'Validated name');
    const href = linkOf(workspace, REL.validatePipeline);
    const body = { name: 'Validated name', dataComponents: ['extractors/tap-demo', 'loaders/target-store'] };
    expectError(await world.owner.api.call('POST', href, body), 400, { name: /already exists/ });
    expect((await world.owner.api.call('POST', href, { ...body, id: existing.id })).status).toBe(200);
  });

  it("refuses another workspace's admin and a caller without a token", async () => {
    expectError(await world.outsider.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/pipelines/validation`, { name: 'x' }), 404);
    expectError(await world.anonymous.call('POST', `/api/workspaces/${DEMO.workspaceId}/pipelines/validation`, { name: 'x' }), 401);
    // The outsider's own pipeline id does not make the body an update of it here.
    const own = await world.outsider.api.call('POST', `/api/workspaces/${outsiderWorkspaceId}/pipelines/validation`, { name: 'Mine' });
    expect(own.status).toBe(200);
  });
});

function readYaml(answer: Answer) {
  expect(answer.status, String(answer.body).slice(0, 200)).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/x-yaml; charset=utf-8');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  const read = readDiscovery(parse(String(answer.body)));
  expect(read.errors).toEqual([]);
  return read.plugins;
}

describe('discovery.yml', () => {
  it('serves the global catalogue from the root link to every caller, the built-ins and the Meltano plugins', async () => {
    for (const person of [world.owner, world.member, world.outsider]) {
      const root = (await person.api.get('/api/')).body as Body;
      expect(linkOf(root, REL.discovery)).toBe(`${world.baseUrl}/api/discovery.yml`);
      const plugins = readYaml(await person.api.get(linkOf(root, REL.discovery)));
      expect(plugins.map((p) => `${p.name}--${p.variant}`)).toEqual(expect.arrayContaining(['tap-demo--builtin', 'target-store--builtin', 'tap-github--meltanolabs']));
    }
    expectError(await world.anonymous.get('/api/discovery.yml'), 401);
  });

  it("serves a workspace's plugins, its custom ones included, to its admins only", async () => {
    const publish = await fetch(linkOf(workspace, REL.publishDiscovery), {
      method: 'POST',
      headers: { authorization: `Bearer ${world.owner.token}`, 'content-type': 'text/x-yaml' },
      body: 'extractors:\n  - name: tap-inhouse\n    variant: ours\n    settings:\n      - name: token\n        kind: password\n',
    });
    expect(publish.status).toBe(201);
    expect(linkOf(workspace, REL.discovery)).toBe(`${world.baseUrl}/api/workspaces/${DEMO.workspaceId}/discovery.yml`);
    const plugins = readYaml(await world.owner.api.get(linkOf(workspace, REL.discovery)));
    expect(plugins.map((p) => `${p.name}--${p.variant}`)).toEqual(expect.arrayContaining(['tap-demo--builtin', 'tap-inhouse--ours', 'tap-github--meltanolabs']));
    expect(plugins.find((p) => p.name === 'tap-inhouse')?.settings[0]).toMatchObject({ name: 'token', kind: 'PASSWORD', sensitive: true });
    // Nobody else's workspace shows it, and the global catalogue does not either.
    expect(readYaml(await world.owner.api.get('/api/discovery.yml')).some((p) => p.name === 'tap-inhouse')).toBe(false);
    expect(readYaml(await world.outsider.api.get(`/api/workspaces/${outsiderWorkspaceId}/discovery.yml`)).some((p) => p.name === 'tap-inhouse')).toBe(false);
  });

  it('refuses a member, another workspace and no token', async () => {
    expect(hasLink(memberView, REL.discovery)).toBe(false);
    expectError(await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}/discovery.yml`), 403);
    expectError(await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}/discovery.yml`), 404);
    expectError(await world.anonymous.get(`/api/workspaces/${DEMO.workspaceId}/discovery.yml`), 401);
  });
});
