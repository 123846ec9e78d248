import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../../src/domain/relations';
import { dataPluginSchema, dataPluginsCollectionSchema } from '../../../src/domain/resources';
import { createDataComponent } from '../../../server/repositories/dataComponents';
import { DEMO } from '../../../server/seed';
import { embedded, expectError, hasLink, linkOf, type Answer, type ApiClient } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { outsiderWorkspace, type Body } from './labWorld';

// The global plugin catalogue, the Matatika reference's /api/dataplugins (issue 38): the plugins
// the server ships, which every caller reads, and each workspace's own plugins, which only that
// workspace's admins read, create ('new dataplugin', then the draft's 'create dataplugin'), change
// and delete. Another workspace's plugin is never readable or writable.

let world: World;
let owner: ApiClient;
let outsiderWorkspaceId: string;
let root: Body;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  outsiderWorkspaceId = await outsiderWorkspace(world);
  owner = world.owner.api;
  root = (await owner.get('/api/')).body as Body;
});
afterAll(() => world?.close());

const plugins = (answer: Answer): Body[] => embedded(answer.body, 'dataplugins') as Body[];
const ids = (answer: Answer): string[] => plugins(answer).map((p) => String(p.id));

const ACME = {
  workspace: DEMO.workspaceId,
  pluginType: 'EXTRACTOR',
  name: 'tap-acme',
  variant: 'acme',
  label: 'Acme CRM',
  description: 'Accounts and deals from Acme.',
  repositoryUrl: 'https://github.com/acme/tap-acme',
  pipUrl: 'git+https://github.com/acme/tap-acme.git',
  settings: [
    { name: 'api_key', label: 'API key', kind: 'PASSWORD' },
    { name: 'region', kind: 'options', options: [{ label: 'Europe', value: 'eu' }, { label: 'America', value: 'us' }], value: 'eu' },
    // the reference's word for a secret
    { name: 'token', kind: 'STRING', protected: true },
  ],
};

/** 'new dataplugin' on the root, then the draft's 'create dataplugin' with this body. */
async function create(api: ApiClient, body: Record<string, unknown>): Promise<{ draft: Answer; created: Answer }> {
  const start = (await api.get('/api/')).body as Body;
  const draft = await api.call('POST', linkOf(start, REL.newDataplugin));
  const created = hasLink(draft.body, REL.createDataplugin) ? await api.call('PUT', linkOf(draft.body, REL.createDataplugin), body) : draft;
  return { draft, created };
}

describe('GET /api/dataplugins', () => {
  it("is every caller's: the catalogue the server ships, each plugin by its own id with its self link", async () => {
    expect(hasLink(root, REL.dataplugins)).toBe(true);
    for (const api of [owner, world.member.api, world.outsider.api]) {
      const all = await api.get(`${linkOf(root, REL.dataplugins)}?size=9999`);
      expect(all.status).toBe(200);
      expect(dataPluginsCollectionSchema.safeParse(all.body).success).toBe(true);
      expect(ids(all)).toEqual(expect.arrayContaining(['extractors/tap-demo--builtin', 'loaders/target-store--builtin', 'extractors/tap-github--meltanolabs']));
      const demo = plugins(all).find((p) => p.id === 'extractors/tap-demo--builtin')!;
      // the id is one path segment; the catalogue offers nothing but reading
      expect(Object.keys(demo._links)).toEqual([REL.self]);
      const read = await api.get(linkOf(demo, REL.self));
      expect(read.status).toBe(200);
      expect(dataPluginSchema.safeParse(read.body).success).toBe(true);
      expect(read.body).toMatchObject({ id: 'extractors/tap-demo--builtin', name: 'tap-demo', pluginType: 'EXTRACTOR' });
      // nobody changes or removes what the server ships
      expectError(await api.call('PUT', linkOf(demo, REL.self), { description: 'mine now' }), 403);
      expectError(await api.call('DELETE', linkOf(demo, REL.self)), 403);
    }
  });

  it('filters by name and type and pages as a workspace list does; bad filters are 400 with the field', async () => {
    const loaders = await owner.get(`${linkOf(root, REL.dataplugins)}?type=LOADER&size=9999`);
    expect(plugins(loaders).every((p) => p.pluginType === 'LOADER')).toBe(true);
    expect(ids(loaders)).toContain('loaders/target-store--builtin');
    const named = await owner.get(`${linkOf(root, REL.dataplugins)}?name=Demo%20data`);
    expect(ids(named)).toEqual(['extractors/tap-demo--builtin']);
    const page = await owner.get(`${linkOf(root, REL.dataplugins)}?size=2&page=1&sort=name,asc`);
    expect(plugins(page)).toHaveLength(2);
    expect(page.body.page).toMatchObject({ size: 2, number: 1 });
    expectError(await owner.get(`${linkOf(root, REL.dataplugins)}?type=ROBOT`), 400, { type: /EXTRACTOR/ });
    expectError(await owner.get(`${linkOf(root, REL.dataplugins)}?name=${'x'.repeat(300)}`), 400, { name: /200/ });
  });
});

describe("a workspace's own plugin through the global catalogue", () => {
  let acme: Body;

  it("initialises a draft (200, nothing stored) whose 'create dataplugin' creates the plugin at its id (201) in the workspace it names", async () => {
    expect(hasLink(root, REL.newDataplugin)).toBe(true);
    const before = await world.server.db.selectFrom('workspace_dataplugins').select('id').execute();
    const { draft, created } = await create(owner, ACME);
    expect(draft.status).toBe(200);
    expect(dataPluginSchema.safeParse(draft.body).success).toBe(true);
    expect(linkOf(draft.body, REL.createDataplugin)).toBe(`${world.baseUrl}/api/dataplugins/${String(draft.body.id)}`);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(dataPluginSchema.safeParse(created.body).success).toBe(true);
    acme = created.body as Body;
    expect(acme).toMatchObject({
      id: draft.body.id,
      name: 'tap-acme',
      variant: 'acme',
      label: 'Acme CRM',
      pluginType: 'EXTRACTOR',
      repositoryUrl: 'https://github.com/acme/tap-acme',
      pipUrl: 'git+https://github.com/acme/tap-acme.git',
      custom: true,
      canDelete: true,
    });
    expect((acme.settings as Body[]).map((s): unknown[] => [s.name, s.sensitive])).toEqual([
      ['api_key', true],
      ['region', false],
      ['token', true],
    ]);
    expect(linkOf(acme, REL.workspace)).toBe(`${world.baseUrl}/api/workspaces/${DEMO.workspaceId}`);
    for (const rel of [REL.self, REL.updateDataplugin, REL.deleteDataplugin]) expect(linkOf(acme, rel), rel).toBe(linkOf(draft.body, REL.createDataplugin));
    expect((await world.server.db.selectFrom('workspace_dataplugins').select('id').execute()).length).toBe(before.length + 1);

    // the workspace's own list has it, by the key its components use, as a discovery.yml upload would
    const workspace = (await owner.get(`/api/workspaces/${DEMO.workspaceId}`)).body;
    expect(ids(await owner.get(`${linkOf(workspace, REL.dataplugins)}?size=9999`))).toContain('extractors/tap-acme--acme');
    // a component made from it, as a deployment makes one from its meltano.yml
    const component = await createDataComponent(world.server.db, DEMO.workspaceId, { name: 'acme-eu', pluginType: 'EXTRACTOR', pluginName: 'tap-acme', variant: 'acme' });
    expect(component.ok).toBe(true);
  });

  it('lists it to its admins by its global id, and reads it by its self link', async () => {
    const listed = await owner.get(`${linkOf(root, REL.dataplugins)}?name=acme`);
    expect(ids(listed)).toEqual([acme.id]);
    const read = await owner.get(linkOf(acme, REL.self));
    expect(read.status).toBe(200);
    // a component is made from it now: it is no longer removable
    expect(read.body).toMatchObject({ id: acme.id, name: 'tap-acme', canDelete: false });
    expect(hasLink(read.body, REL.deleteDataplugin)).toBe(false);
    expectError(await owner.call('DELETE', linkOf(acme, REL.self)), 403);
  });

  it("changes it with 'update dataplugin' (200): named fields replace, the rest stay; its type, name, variant and workspace do not change", async () => {
    const updated = await owner.call('PUT', linkOf(acme, REL.updateDataplugin), { description: 'Accounts, deals and invoices.', settings: [{ name: 'api_key', kind: 'password' }] });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id: acme.id, description: 'Accounts, deals and invoices.', label: 'Acme CRM', repositoryUrl: 'https://github.com/acme/tap-acme' });
    expect((updated.body.settings as Body[]).map((s) => String(s.name))).toEqual(['api_key']);
    // sent back as read, it is accepted unchanged
    const again = await owner.call('PUT', linkOf(acme, REL.updateDataplugin), updated.body);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.settings).toEqual(updated.body.settings);
    // a change that names no settings keeps them as they were, kinds and all
    const relabelled = await owner.call('PUT', linkOf(acme, REL.updateDataplugin), { label: 'Acme CRM' });
    expect(relabelled.status, JSON.stringify(relabelled.body)).toBe(200);
    expect(relabelled.body.settings).toEqual(updated.body.settings);

    expectError(await owner.call('PUT', linkOf(acme, REL.updateDataplugin), { name: 'tap-other', variant: 'other', pluginType: 'LOADER', workspace: outsiderWorkspaceId }), 400, {
      name: /cannot change/,
      variant: /cannot change/,
      pluginType: /cannot change/,
      workspace: /cannot change/,
    });
    expectError(await owner.call('PUT', linkOf(acme, REL.updateDataplugin), { settings: [{ name: 'has space' }, { name: 'api_key', kind: 'telepathy' }] }), 400, {
      'settings[0].name': /letters, digits/,
      'settings[1].kind': /must be one of/,
    });
    expectError(await owner.call('PUT', linkOf(acme, REL.updateDataplugin), { settings: 'all of them', description: 42 }), 400, { settings: /array/i, description: /string/i });
    const unchanged = await owner.get(linkOf(acme, REL.self));
    expect(unchanged.body.description).toBe('Accounts, deals and invoices.');
  });

  it('refuses a create without type or name, into a workspace the caller does not administer, over a built-in, or of a key the workspace has (400/409, nothing written)', async () => {
    const count = async () => (await world.server.db.selectFrom('workspace_dataplugins').select('id').execute()).length;
    const before = await count();
    expectError((await create(owner, { workspace: DEMO.workspaceId })).created, 400, { pluginType: /required/, name: /required/ });
    expectError((await create(owner, { ...ACME, name: 'tap-elsewhere', workspace: outsiderWorkspaceId })).created, 400, { workspace: /names no workspace you administer/ });
    expectError((await create(owner, { ...ACME, name: 'tap-nowhere', workspace: randomUUID() })).created, 400, { workspace: /names no workspace you administer/ });
    expectError((await create(owner, { ...ACME, name: 'tap-demo', variant: null })).created, 400, { name: /built-in plugin/ });
    expectError((await create(owner, { ...ACME, name: 'has space' })).created, 400, { name: /letters, digits/ });
    expectError((await create(owner, { ...ACME, repositoryUrl: 'x'.repeat(3000) })).created, 400, { repositoryUrl: /2000/ });
    expectError((await create(owner, ACME)).created, 409, { name: /already a plugin of this workspace/ });
    // an id that is already a plugin's cannot be created at again
    expectError(await owner.call('PUT', `${world.baseUrl}/api/dataplugins/${String(acme.id)}`, { ...ACME, name: 'tap-again' }), 400, { name: /cannot change/ });
    expect(await count()).toBe(before);
  });

  it("creates in the caller's default workspace when the body names none", async () => {
    const { created } = await create(owner, { pluginType: 'LOADER', name: 'target-acme' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(linkOf(created.body, REL.workspace)).toBe(`${world.baseUrl}/api/workspaces/${DEMO.workspaceId}`);
    // removable while no component is made from it
    expect(hasLink(created.body, REL.deleteDataplugin)).toBe(true);
    expect((await owner.call('DELETE', linkOf(created.body, REL.deleteDataplugin))).status).toBe(204);
    expectError(await owner.get(linkOf(created.body, REL.self)), 404);
  });

  it("offers a plain member of the workspace nothing on it, and refuses them (403): the Lab's plugins are the admins'", async () => {
    const member = world.member.api;
    const memberRoot = (await member.get('/api/')).body;
    expect(ids(await member.get(`${linkOf(memberRoot, REL.dataplugins)}?name=acme`))).toEqual([]);
    expectError(await member.get(linkOf(acme, REL.self)), 403);
    expectError(await member.call('PUT', linkOf(acme, REL.self), { description: 'mine' }), 403);
    expectError(await member.call('DELETE', linkOf(acme, REL.self)), 403);
    // a member who administers no workspace may initialise, but is not offered the create, and is refused it
    const { draft } = await create(member, ACME);
    expect(draft.status).toBe(200);
    expect(hasLink(draft.body, REL.createDataplugin)).toBe(false);
    expectError(await member.call('PUT', `${world.baseUrl}/api/dataplugins/${String(draft.body.id)}`, ACME), 403);
  });

  it("shows another workspace's admin nothing of it: not listed, 404 as for a made-up id, and a create at its id is a 409 that changes nothing", async () => {
    const outsider = world.outsider.api;
    const outsiderRoot = (await outsider.get('/api/')).body;
    const listed = await outsider.get(`${linkOf(outsiderRoot, REL.dataplugins)}?size=9999`);
    expect(JSON.stringify(listed.body)).not.toContain(String(acme.id));
    expect(ids(listed)).not.toContain('extractors/tap-acme--acme');
    const madeUp = randomUUID();
    for (const id of [String(acme.id), madeUp]) {
      const read = await outsider.get(`/api/dataplugins/${id}`);
      expectError(read, 404);
      expect(read.body.message).toBe(`Dataplugin ${id} not found`);
      expectError(await outsider.call('DELETE', `/api/dataplugins/${id}`), 404);
    }
    // to them the id is free: the same draft, the same validation, and the create itself is refused
    expectError(await outsider.call('PUT', `/api/dataplugins/${String(acme.id)}`, {}), 400, { pluginType: /required/ });
    expectError(await outsider.call('PUT', `/api/dataplugins/${String(acme.id)}`, { ...ACME, workspace: outsiderWorkspaceId }), 409);
    const after = await owner.get(linkOf(acme, REL.self));
    expect(after.body).toMatchObject({ name: 'tap-acme', description: 'Accounts, deals and invoices.' });
    expect(linkOf(after.body, REL.workspace)).toContain(DEMO.workspaceId);

    // their own plugin is theirs alone, in their own workspace
    const { created } = await create(outsider, { ...ACME, workspace: outsiderWorkspaceId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(ids(await outsider.get(`${linkOf(outsiderRoot, REL.dataplugins)}?name=acme`))).toEqual([created.body.id]);
    expect(ids(await owner.get(`${linkOf(root, REL.dataplugins)}?name=acme`))).toEqual([acme.id]);
    expectError(await owner.get(linkOf(created.body, REL.self)), 404);
    expectError(await owner.call('PUT', linkOf(created.body, REL.self), { ...ACME, name: 'tap-taken-over' }), 409);
  });

  it('answers hostile ids and bodies with 4xx, never a 5xx', async () => {
    for (const id of ['%00', '..%2F..%2Fetc%2Fpasswd', 'extractors', 'x'.repeat(400), '-1']) {
      expect((await owner.get(`/api/dataplugins/${id}`)).status).toBe(404);
      expect((await owner.call('PUT', `/api/dataplugins/${id}`, ACME)).status).toBe(404);
    }
    const draft = await owner.call('POST', linkOf(root, REL.newDataplugin));
    for (const body of [{ ...ACME, settings: [{ name: 'a', value: { __proto__: { polluted: true } } }] }, { ...ACME, settings: Array.from({ length: 501 }, (_, i) => ({ name: `s${i}` })) }, { ...ACME, commands: 'run' }]) {
      const answer = await owner.call('PUT', linkOf(draft.body, REL.createDataplugin), { ...body, name: 'tap-hostile' });
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
