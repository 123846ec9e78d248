import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASK } from '../../../src/domain/pipelineRules';
import { REL } from '../../../src/domain/relations';
import { dataComponentSchema, dataComponentsCollectionSchema, dataPluginsCollectionSchema, dataStoreSchema, dataStoresCollectionSchema } from '../../../src/domain/resources';
import { DEMO } from '../../../server/seed';
import { embedded, expectError, hasLink, linkOf, type ApiClient } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { demoPipeline, outsiderWorkspace } from './labWorld';

let world: World;
let owner: ApiClient;
let workspace: { _links: Record<string, { href: string }> };
let outsiderWorkspaceId: string;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  outsiderWorkspaceId = await outsiderWorkspace(world);
  owner = world.owner.api;
  workspace = (await owner.get(`/api/workspaces/${DEMO.workspaceId}`)).body;
});
afterAll(() => world?.close());

describe('the plugin catalogue (dataplugins)', () => {
  it('lists the built-in plugins by label with their settings, filtered by type and name', async () => {
    const all = await owner.get(linkOf(workspace, REL.dataplugins));
    expect(all.status).toBe(200);
    expect(dataPluginsCollectionSchema.safeParse(all.body).success).toBe(true);
    const plugins = embedded(all.body, 'dataplugins');
    expect(plugins.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(['extractors/tap-demo--builtin', 'loaders/target-store--builtin']));
    const postgres = plugins.find((p: { name: string }) => p.name === 'tap-postgres') as { settings: { name: string }[] };
    expect(postgres.settings.find((s) => s.name === 'password')).toMatchObject({ kind: 'PASSWORD', sensitive: true });
    const loaders = await owner.get(`${linkOf(workspace, REL.dataplugins)}?type=LOADER`);
    expect(embedded(loaders.body, 'dataplugins').map((p: { name: string }) => p.name)).toEqual(['target-postgres', 'target-store']);
    const named = await owner.get(`${linkOf(workspace, REL.dataplugins)}?name=demo`);
    expect(embedded(named.body, 'dataplugins').map((p: { name: string }) => p.name)).toEqual(['tap-demo']);
    expectError(await owner.get(`${linkOf(workspace, REL.dataplugins)}?type=ROBOT`), 400, { type: /EXTRACTOR/ });
  });
});

describe('data components', () => {
  it('creates (201), lists, reads and updates a component; sensitive properties leave masked and stay stored', async () => {
    const created = await owner.call('POST', linkOf(workspace, REL.createDatacomponent), { name: 'warehouse', dataPlugin: 'extractors/tap-postgres', properties: { user: 'ada', password: 'hunter2' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(dataComponentSchema.safeParse(created.body).success).toBe(true);
    expect(created.body).toMatchObject({ name: 'warehouse', dataPlugin: 'extractors/tap-postgres--builtin', pluginType: 'EXTRACTOR', properties: { user: 'ada', password: MASK } });
    expect(created.body._embedded.dataplugin.name).toBe('tap-postgres');
    expect(JSON.stringify(created.body)).not.toContain('hunter2');

    const list = await owner.get(`${linkOf(workspace, REL.datacomponents)}?type=EXTRACTOR&name=ware`);
    expect(dataComponentsCollectionSchema.safeParse(list.body).success).toBe(true);
    expect(embedded(list.body, 'datacomponents').map((c: { name: string }) => c.name)).toEqual(['warehouse']);

    const updated = await owner.call('PUT', linkOf(created.body, REL.updateDatacomponent), { properties: { user: 'grace', password: MASK, port: 6543 } });
    expect(updated.status).toBe(200);
    expect(updated.body.properties).toEqual({ user: 'grace', password: MASK, port: 6543 });
    const stored = await world.server.db.selectFrom('data_components').select('properties').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(stored.properties).toEqual({ user: 'grace', password: 'hunter2', port: 6543 });
    expect((await owner.get(linkOf(created.body, REL.self))).body.name).toBe('warehouse');
  });

  it('names the plugin from the catalogue when no name is given, and refuses bad input with field errors', async () => {
    const first = await owner.call('POST', linkOf(workspace, REL.createDatacomponent), { dataPlugin: 'tap-files' });
    const second = await owner.call('POST', linkOf(workspace, REL.createDatacomponent), { dataPlugin: 'extractors/tap-files--builtin' });
    expect([first.body.name, second.body.name]).toEqual(['tap-files', 'tap-files-2']);
    const create = linkOf(workspace, REL.createDatacomponent);
    expectError(await owner.call('POST', create, { dataPlugin: 'extractors/tap-ghost' }), 400, { dataPlugin: /catalogue/ });
    expectError(await owner.call('POST', create, { dataPlugin: 'tap-files', name: 'tap-files' }), 400, { name: /already exists/ });
    expectError(await owner.call('POST', create, { dataPlugin: 'tap-files', name: 'bad name!' }), 400, { name: /letters/ });
    expectError(await owner.call('POST', create, { dataPlugin: 'tap-files', properties: { nope: 1, delimiter: { a: 1 } } }), 400, { 'properties.nope': /not a setting/, 'properties.delimiter': 'must be text' });
    expectError(await owner.call('PUT', linkOf(first.body, REL.updateDatacomponent), {}), 400, { properties: /change/ });
  });

  it("refuses a name whose settings would become the system's variables (issue 36): 400 on name, nothing written", async () => {
    const create = linkOf(workspace, REL.createDatacomponent);
    for (const name of ['ld', 'bash', 'node', 'python', 'path', 'git', 'meltano', 'runner']) {
      expectError(await owner.call('POST', create, { dataPlugin: 'tap-files', name }), 400, { name: new RegExp(`${name.toUpperCase()}_… variables`) });
    }
    const renamed = await owner.call('POST', create, { dataPlugin: 'tap-files', name: 'files-for-rename' });
    expectError(await owner.call('PUT', linkOf(renamed.body, REL.updateDatacomponent), { name: 'ld' }), 400, { name: /LD_… variables/ });
    const names = (await world.server.db.selectFrom('data_components').select('name').where('workspace_id', '=', DEMO.workspaceId).execute()).map((c) => c.name);
    expect(names).not.toEqual(expect.arrayContaining(['ld']));
    expect(names.filter((n) => ['ld', 'bash', 'node', 'python', 'path', 'git', 'meltano', 'runner'].includes(n))).toEqual([]);
  });

  it('keeps the name of a component a pipeline uses', async () => {
    const pipeline = await demoPipeline(owner, 'Uses tap-demo');
    const component = (pipeline._embedded as { dataComponents: { _links: Record<string, { href: string }> }[] }).dataComponents[0]!;
    expectError(await owner.call('PUT', linkOf(component, REL.updateDatacomponent), { name: 'renamed' }), 400, { name: /Uses tap-demo/ });
  });

  it("offers a plain member and another workspace's admin nothing, and refuses them (403; to the stranger 404, as for no such id)", async () => {
    const created = await owner.call('POST', linkOf(workspace, REL.createDatacomponent), { dataPlugin: 'tap-demo', name: 'private-demo' });
    for (const api of [world.member.api, world.outsider.api]) {
      // another workspace's admin is told nothing exists; a member, who sees the workspace, is refused
      const refused = api === world.outsider.api ? 404 : 403;
      expectError(await api.get(linkOf(created.body, REL.self)), refused);
      expectError(await api.call('PUT', linkOf(created.body, REL.updateDatacomponent), { properties: { seed: 1 } }), refused);
      expectError(await api.get(linkOf(workspace, REL.datacomponents)), refused);
      expectError(await api.call('POST', linkOf(workspace, REL.createDatacomponent), { dataPlugin: 'tap-demo' }), refused);
      expectError(await api.get(linkOf(workspace, REL.dataplugins)), refused);
    }
  });
});

describe("PUT /api/workspaces/{w}/datacomponents/{id}: the reference's create or update", () => {
  const at = (workspaceId: string, id: string) => `/api/workspaces/${workspaceId}/datacomponents/${id}`;
  const storedProperties = async (id: string) => (await world.server.db.selectFrom('data_components').select('properties').where('id', '=', id).executeTakeFirstOrThrow()).properties;

  it("creates at a free id (201, the id kept, as 'create datacomponent') and updates the workspace's own component there (200, as 'update datacomponent')", async () => {
    const id = randomUUID();
    const created = await owner.call('PUT', at(DEMO.workspaceId, id), { name: 'put-warehouse', dataPlugin: 'extractors/tap-postgres', properties: { user: 'ada', password: 'hunter2' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(dataComponentSchema.safeParse(created.body).success).toBe(true);
    expect(created.body).toMatchObject({ id, name: 'put-warehouse', dataPlugin: 'extractors/tap-postgres--builtin', properties: { user: 'ada', password: MASK } });
    expect(linkOf(created.body, REL.self)).toBe(`${world.baseUrl}/api/datacomponents/${id}`);

    const updated = await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: 'extractors/tap-postgres', properties: { user: 'grace', password: MASK } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'put-warehouse', properties: { user: 'grace', password: MASK } });
    expect(await storedProperties(id)).toEqual({ user: 'grace', password: 'hunter2' });
    const renamed = await owner.call('PUT', at(DEMO.workspaceId, id), { name: 'put-warehouse-2' });
    expect(renamed.status).toBe(200);
    expect((await owner.get(linkOf(created.body, REL.self))).body.name).toBe('put-warehouse-2');
  });

  it('refuses bad input with 400 and field errors (404 for an id that is not one), writing nothing', async () => {
    const count = async () => (await world.server.db.selectFrom('data_components').select('id').where('workspace_id', '=', DEMO.workspaceId).execute()).length;
    const before = await count();
    const id = randomUUID();
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { name: 'no-plugin' }), 400, { dataPlugin: /required/ });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: 'extractors/tap-nothing' }), 400, { dataPlugin: /names no plugin/ });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: 'tap-demo', name: 'has space' }), 400, { name: /letters or digits|letter or digit/ });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: 'tap-demo', properties: { seed: 'many', colour: 'red' } }), 400, { 'properties.seed': /.+/, 'properties.colour': /not a setting/ });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: 42 }), 400, { dataPlugin: /string/i });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, 'not-an-id'), { dataPlugin: 'tap-demo' }), 404);
    expect(await count()).toBe(before);

    const existing = await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: 'tap-demo', name: 'put-demo' });
    expect(existing.status).toBe(201);
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: 'extractors/tap-files', name: 'put-files' }), 400, { dataPlugin: /cannot change/ });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: 'tap-demo' }), 400, { properties: /must change name or properties/ });
  });

  it("refuses a plain member (403) and another workspace's admin (404, as for no such id); creating at another workspace's component id is a 409 that changes nothing", async () => {
    const mine = await owner.call('PUT', at(DEMO.workspaceId, randomUUID()), { dataPlugin: 'tap-demo', name: 'put-private' });
    expect(mine.status).toBe(201);
    const id = String(mine.body.id);
    expectError(await world.member.api.call('PUT', at(DEMO.workspaceId, id), { properties: { seed: 7 } }), 403);
    expectError(await world.member.api.call('PUT', at(DEMO.workspaceId, randomUUID()), { dataPlugin: 'tap-demo' }), 403);
    expectError(await world.outsider.api.call('PUT', at(DEMO.workspaceId, id), { properties: { seed: 7 } }), 404);
    expectError(await world.outsider.api.call('PUT', at(outsiderWorkspaceId, id), { dataPlugin: 'tap-demo', properties: { seed: 7 } }), 409);
    const after = await owner.get(linkOf(mine.body, REL.self));
    expect(after.body).toMatchObject({ name: 'put-private', properties: {} });
    expect(await world.server.db.selectFrom('data_components').select('workspace_id').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ workspace_id: DEMO.workspaceId });
    // their own workspace's path works for them
    const theirs = await world.outsider.api.call('PUT', at(outsiderWorkspaceId, randomUUID()), { dataPlugin: 'tap-demo' });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expectError(await owner.get(linkOf(theirs.body, REL.self)), 404);
  });
});

describe('data stores (read-only)', () => {
  it("lists the workspace's stores with the default one, which reads by its self link", async () => {
    const list = await owner.get(linkOf(workspace, REL.datastores));
    expect(list.status).toBe(200);
    expect(dataStoresCollectionSchema.safeParse(list.body).success).toBe(true);
    const [store] = embedded(list.body, 'datastores');
    expect(store).toMatchObject({ default: true, managed: true, dataPlugin: 'loaders/target-store--builtin', jdbcUrl: null });
    // nothing to change or delete on the embedded store; its tables are the workspace's
    expect(Object.keys(store._links)).toEqual([REL.self, REL.tables]);
    expect(linkOf(store, REL.tables)).toBe(linkOf(workspace, REL.tables));
    const byDefault = await owner.get(linkOf(workspace, REL.datastore));
    expect(dataStoreSchema.safeParse(byDefault.body).success).toBe(true);
    expect(byDefault.body.id).toBe(store.id);
    expect((await owner.get(linkOf(store, REL.self))).body.id).toBe(store.id);
    // a member sees the workspace and is refused; to another workspace's admin the store does not exist
    expectError(await world.member.api.get(linkOf(store, REL.self)), 403);
    expectError(await world.outsider.api.get(linkOf(store, REL.self)), 404);
    expect(hasLink(store, REL.updateDatastore)).toBe(false);
  });
});
