import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_STORE_TEXTS } from '../../../src/domain/dataStores';
import { MASK } from '../../../src/domain/pipelineRules';
import { REL } from '../../../src/domain/relations';
import { dataStoreSchema, dataStoresCollectionSchema } from '../../../src/domain/resources';
import { DEMO } from '../../../server/seed';
import { appendLogLines } from '../../../server/runner/logs';
import { finishJob } from '../../../server/runner/queue';
import { embedded, expectError, hasLink, linkOf, type ApiClient } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { outsiderWorkspace, type Body } from './labWorld';

// Data stores through their links (spec 001 §2, §3, §7). No runner runs here: a store's
// connection check is a queued DATASTORE_VERIFY job, and where it must end the test plays the
// runner with the queue's own finish (tests/runner/dataStores.test.ts runs real checks).

const RUNNER = 'test-runner';
const PLUGIN = 'loaders/target-postgres--builtin';
const SETTINGS = { host: '127.0.0.1', port: 5432, database: 'test', user: 'postgres', password: 's3cret-pass', schema: 'ds_api' };

let world: World;
let owner: ApiClient;
let workspace: Body;
let outsiderWorkspaceId: string;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  outsiderWorkspaceId = await outsiderWorkspace(world);
  owner = world.owner.api;
  workspace = (await owner.get(`/api/workspaces/${DEMO.workspaceId}`)).body;
});
afterAll(() => world?.close());

async function checkJobOf(storeId: string) {
  return world.server.db.selectFrom('jobs').selectAll().where('datastore_id', '=', storeId).where('status', 'in', ['QUEUED', 'RUNNING']).executeTakeFirst();
}

/** Ends the store's queued check as the runner would: COMPLETE, or ERROR with the reason logged. */
async function endCheck(storeId: string, outcome: { ok: true } | { ok: false; reason: string }): Promise<void> {
  const job = await checkJobOf(storeId);
  expect(job?.type).toBe('DATASTORE_VERIFY');
  await world.server.db.updateTable('jobs').set({ status: 'RUNNING', lease_owner: RUNNER, start_time: sql<Date>`now()`, lease_expires_at: sql<Date>`now() + interval '1 minute'` }).where('id', '=', job!.id).execute();
  if (!outcome.ok) await appendLogLines(world.server.db, job!.id, [`Connection check failed: ${outcome.reason}`]);
  await finishJob(world.server.db, job!.id, RUNNER, { reason: 'EXITED', exitCode: outcome.ok ? 0 : 1, lines: [], retryBaseMs: 0 });
}

async function storedProperties(id: string): Promise<Record<string, unknown>> {
  return (await world.server.db.selectFrom('data_stores').select('properties').where('id', '=', id).executeTakeFirstOrThrow()).properties;
}

describe('data stores', () => {
  it("offers 'new datastore' to admins only; the embedded default store is READY and can be neither changed nor removed", async () => {
    expect(hasLink(workspace, REL.newDatastore)).toBe(true);
    const memberWorkspace = (await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body;
    expect(hasLink(memberWorkspace, REL.newDatastore)).toBe(false);
    expectError(await world.member.api.call('POST', linkOf(workspace, REL.newDatastore), { name: 'Mine', dataPlugin: PLUGIN, properties: SETTINGS }), 403);
    expectError(await world.outsider.api.call('POST', linkOf(workspace, REL.newDatastore), { name: 'Theirs', dataPlugin: PLUGIN, properties: SETTINGS }), 404);

    const list = await owner.get(linkOf(workspace, REL.datastores));
    expect(dataStoresCollectionSchema.safeParse(list.body).success).toBe(true);
    const [embeddedStore] = embedded(list.body, 'datastores');
    expect(embeddedStore).toMatchObject({ managed: true, default: true, status: 'READY', jdbcUrl: null });
    for (const rel of [REL.updateDatastore, REL.makeDefault, REL.deleteDatastore]) expect(hasLink(embeddedStore, rel), rel).toBe(false);
    expectError(await owner.call('PUT', embeddedStore._links.self.href, { name: 'Renamed' }), 403);
    expectError(await owner.call('DELETE', embeddedStore._links.self.href), 403);
    expectError(await owner.call('PUT', `${embeddedStore._links.self.href}/default`), 403);
  });

  it('refuses bad input with 400 and field errors', async () => {
    const create = (body: unknown) => owner.call('POST', linkOf(workspace, REL.newDatastore), body);
    expectError(await create({ name: 'X', dataPlugin: 'loaders/target-nothing', properties: SETTINGS }), 400, { dataPlugin: DATA_STORE_TEXTS.plugin });
    expectError(await create({ name: 'X', dataPlugin: 'extractors/tap-postgres--builtin', properties: SETTINGS }), 400, { dataPlugin: DATA_STORE_TEXTS.plugin });
    expectError(await create({ name: 'X', dataPlugin: 'loaders/target-store--builtin' }), 400, { dataPlugin: DATA_STORE_TEXTS.plugin });
    expectError(await create({ name: 'X', properties: SETTINGS }), 400, { dataPlugin: 'is required' });
    expectError(await create({ name: '  ', dataPlugin: PLUGIN, properties: {} }), 400, {
      name: DATA_STORE_TEXTS.nameRequired,
      'properties.host': DATA_STORE_TEXTS.required,
      'properties.database': DATA_STORE_TEXTS.required,
      'properties.user': DATA_STORE_TEXTS.required,
    });
    expectError(await create({ name: 'x'.repeat(300), dataPlugin: PLUGIN, properties: { ...SETTINGS, port: 70000, host: 'bad host!', nope: 1, schema: 'a"b' } }), 400, {
      name: DATA_STORE_TEXTS.nameTooLong,
      'properties.port': DATA_STORE_TEXTS.port,
      'properties.host': DATA_STORE_TEXTS.host,
      'properties.nope': DATA_STORE_TEXTS.unknownSetting,
      'properties.schema': DATA_STORE_TEXTS.identifier,
    });
    expectError(await create({ name: 'X', dataPlugin: PLUGIN, properties: { ...SETTINGS, password: 42 } }), 400, { 'properties.password': /text/ });
    expectError(await create({ name: 'X', dataPlugin: PLUGIN, properties: 'host=evil' }), 400, { properties: /.+/ });
    expect(await world.server.db.selectFrom('data_stores').select('id').where('name', '=', 'X').execute()).toEqual([]);
  });

  it('creates a PostgreSQL store (201, PROVISIONING, its check queued), shows the jdbcUrl without the password, and never returns the password', async () => {
    const created = await owner.call('POST', linkOf(workspace, REL.newDatastore), { name: 'Warehouse', dataPlugin: 'loaders/target-postgres', properties: SETTINGS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(dataStoreSchema.safeParse(created.body).success).toBe(true);
    expect(created.body).toMatchObject({
      name: 'Warehouse',
      dataPlugin: PLUGIN,
      status: 'PROVISIONING',
      managed: false,
      default: false,
      draft: false,
      jdbcUrl: 'jdbc:postgresql://127.0.0.1:5432/test?user=postgres&currentSchema=ds_api',
      properties: { ...SETTINGS, password: MASK },
    });
    expect(JSON.stringify(created.body)).not.toContain('s3cret-pass');
    expect(hasLink(created.body, REL.updateDatastore)).toBe(true);
    expect(hasLink(created.body, REL.deleteDatastore)).toBe(true);
    expect(hasLink(created.body, REL.makeDefault)).toBe(false); // not checked yet
    expect((await checkJobOf(created.body.id))?.status).toBe('QUEUED');
    expect(await storedProperties(created.body.id)).toMatchObject({ password: 's3cret-pass' });

    expectError(await owner.call('POST', linkOf(workspace, REL.newDatastore), { name: 'warehouse', dataPlugin: PLUGIN, properties: SETTINGS }), 400, { name: DATA_STORE_TEXTS.nameTaken });

    const list = await owner.get(linkOf(workspace, REL.datastores));
    const listed = embedded(list.body, 'datastores').find((s: Body) => s.id === created.body.id);
    expect(listed.properties.password).toBe(MASK);
    expect(JSON.stringify(list.body)).not.toContain('s3cret-pass');
    expect(JSON.stringify((await owner.get(linkOf(created.body, REL.self))).body)).not.toContain('s3cret-pass');

    // Others: a member is offered nothing and refused; to another workspace's admin it does not exist.
    for (const who of [world.member.api, world.outsider.api]) {
      // another workspace's admin is told nothing exists; a member, who sees the workspace, is refused
      const refused = who === world.outsider.api ? 404 : 403;
      expectError(await who.get(linkOf(created.body, REL.self)), refused);
      expectError(await who.call('PUT', linkOf(created.body, REL.updateDatastore), { name: 'Stolen' }), refused);
      expectError(await who.call('DELETE', linkOf(created.body, REL.deleteDatastore)), refused);
      expectError(await who.call('PUT', `${linkOf(created.body, REL.self)}/default`), refused);
    }
    expectError(await owner.get('/api/datastores/00000000-0000-4000-8000-000000000000'), 404);
  });

  it('a check that fails leaves the store FAILED with its reason; one that passes makes it READY and offers make-default', async () => {
    const store = (await owner.call('POST', linkOf(workspace, REL.newDatastore), { name: 'Checked', dataPlugin: PLUGIN, properties: SETTINGS })).body;
    await endCheck(store.id, { ok: false, reason: 'connect ECONNREFUSED 127.0.0.1:1' });
    const failed = (await owner.get(linkOf(store, REL.self))).body;
    expect(failed).toMatchObject({ status: 'FAILED', statusMessage: 'connect ECONNREFUSED 127.0.0.1:1' });
    expect(hasLink(failed, REL.makeDefault)).toBe(false);

    // An update without the password keeps it; the mask keeps it; a new one replaces it. Each save is checked again.
    const renamed = await owner.call('PUT', linkOf(failed, REL.updateDatastore), { name: 'Checked again', properties: { ...SETTINGS, password: undefined, port: '5432' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Checked again', status: 'PROVISIONING', statusMessage: null, properties: { password: MASK } });
    expect(await storedProperties(store.id)).toMatchObject({ password: 's3cret-pass', port: '5432' });
    await endCheck(store.id, { ok: true });
    const masked = await owner.call('PUT', linkOf(failed, REL.updateDatastore), { properties: { ...SETTINGS, password: MASK } });
    expect(masked.body.name).toBe('Checked again');
    expect(await storedProperties(store.id)).toMatchObject({ password: 's3cret-pass' });
    await endCheck(store.id, { ok: true });
    await owner.call('PUT', linkOf(failed, REL.updateDatastore), { properties: { ...SETTINGS, password: 'n3w-pass' } });
    expect(await storedProperties(store.id)).toMatchObject({ password: 'n3w-pass' });
    expectError(await owner.call('PUT', linkOf(failed, REL.updateDatastore), { properties: { host: '' } }), 400, { 'properties.host': DATA_STORE_TEXTS.required });
    await endCheck(store.id, { ok: true });

    const ready = (await owner.get(linkOf(store, REL.self))).body;
    expect(ready.status).toBe('READY');
    expect(hasLink(ready, REL.makeDefault)).toBe(true);
    expect(JSON.stringify(ready)).not.toContain('n3w-pass');

    // make-default: the store becomes the default (no make-default, no delete); the embedded store may become default again.
    const made = await owner.call('PUT', linkOf(ready, REL.makeDefault));
    expect(made.status).toBe(200);
    expect(made.body.default).toBe(true);
    expect(hasLink(made.body, REL.makeDefault)).toBe(false);
    expect(hasLink(made.body, REL.deleteDatastore)).toBe(false);
    expectError(await owner.call('DELETE', linkOf(ready, REL.self)), 403);
    const stores = embedded((await owner.get(linkOf(workspace, REL.datastores))).body, 'datastores');
    expect(stores[0].id).toBe(store.id);
    expect(stores.filter((s: Body) => s.default)).toHaveLength(1);
    const managed = stores.find((s: Body) => s.managed);
    expect(hasLink(managed, REL.makeDefault)).toBe(true);
    expect(hasLink(managed, REL.deleteDatastore)).toBe(false);
    expect((await owner.get(linkOf(workspace, REL.datastore))).body.id).toBe(store.id);

    const back = await owner.call('PUT', linkOf(managed, REL.makeDefault));
    expect(back.body).toMatchObject({ managed: true, default: true });
    const again = (await owner.get(linkOf(store, REL.self))).body;
    expect(again.default).toBe(false);
    expect(await owner.call('DELETE', linkOf(again, REL.deleteDatastore))).toMatchObject({ status: 204 });
    expectError(await owner.get(linkOf(store, REL.self)), 404);
    expect(await world.server.db.selectFrom('jobs').select('id').where('datastore_id', '=', store.id).execute()).toEqual([]);
  });

  it('keeps a draft without its check: required settings may wait, well-formedness may not', async () => {
    const draft = await owner.call('POST', linkOf(workspace, REL.newDatastore), { name: 'Later', dataPlugin: PLUGIN, properties: { database: 'test' }, draft: true });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect(draft.body).toMatchObject({ status: 'DRAFT', draft: true });
    expect(hasLink(draft.body, REL.makeDefault)).toBe(false);
    expect(await checkJobOf(draft.body.id)).toBeUndefined();
    expectError(await owner.call('POST', linkOf(workspace, REL.newDatastore), { name: 'Later 2', dataPlugin: PLUGIN, properties: { port: 0 }, draft: true }), 400, { 'properties.port': DATA_STORE_TEXTS.port });
    expectError(await owner.call('PUT', linkOf(draft.body, REL.updateDatastore), { properties: { database: 'test' } }), 400, { 'properties.host': DATA_STORE_TEXTS.required });
    const saved = await owner.call('PUT', linkOf(draft.body, REL.updateDatastore), { properties: SETTINGS });
    expect(saved.body).toMatchObject({ status: 'PROVISIONING', draft: false });
    expect((await checkJobOf(draft.body.id))?.status).toBe('QUEUED');
  });
});

describe('data store updates', () => {
  it('refuses a body that changes nothing', async () => {
    const store = (await owner.call('POST', linkOf(workspace, REL.newDatastore), { name: 'Nothing to change', dataPlugin: PLUGIN, properties: SETTINGS })).body;
    expectError(await owner.call('PUT', linkOf(store, REL.updateDatastore), {}), 400, { properties: 'must change name or properties' });
    expectError(await owner.call('PUT', linkOf(store, REL.updateDatastore), 'null'), 400);
    expectError(await owner.call('PUT', linkOf(store, REL.updateDatastore), { draft: true }), 400, { properties: 'must change name or properties' });
  });
});

describe("PUT /api/workspaces/{w}/datastores/{id}: the reference's create or update", () => {
  const at = (workspaceId: string, id: string) => `/api/workspaces/${workspaceId}/datastores/${id}`;

  it("creates at a free id (201, the id kept, its check queued, as 'new datastore') and updates the workspace's own store there (200, as 'update datastore')", async () => {
    const id = randomUUID();
    const created = await owner.call('PUT', at(DEMO.workspaceId, id), { name: 'Put warehouse', dataPlugin: 'loaders/target-postgres', properties: SETTINGS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(dataStoreSchema.safeParse(created.body).success).toBe(true);
    expect(created.body).toMatchObject({ id, name: 'Put warehouse', dataPlugin: PLUGIN, status: 'PROVISIONING', properties: { ...SETTINGS, password: MASK } });
    expect(linkOf(created.body, REL.self)).toBe(`${world.baseUrl}/api/datastores/${id}`);
    expect((await checkJobOf(id))?.status).toBe('QUEUED');
    await endCheck(id, { ok: true });

    const updated = await owner.call('PUT', at(DEMO.workspaceId, id), { name: 'Put warehouse, renamed', dataPlugin: PLUGIN, properties: { ...SETTINGS, password: MASK, schema: 'ds_put' } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Put warehouse, renamed', status: 'PROVISIONING', properties: { schema: 'ds_put', password: MASK } });
    expect(await storedProperties(id)).toMatchObject({ password: 's3cret-pass', schema: 'ds_put' });
    expect((await checkJobOf(id))?.status).toBe('QUEUED');
  });

  it('refuses bad input with 400 and field errors (404 for an id that is not one), writing nothing; the embedded store is not changed there (403)', async () => {
    const count = async () => (await world.server.db.selectFrom('data_stores').select('id').execute()).length;
    const before = await count();
    const id = randomUUID();
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { name: 'No loader', properties: SETTINGS }), 400, { dataPlugin: 'is required' });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { name: 'X', dataPlugin: 'loaders/target-nothing', properties: SETTINGS }), 400, { dataPlugin: DATA_STORE_TEXTS.plugin });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { name: ' ', dataPlugin: PLUGIN, properties: { ...SETTINGS, port: 70000 } }), 400, { name: DATA_STORE_TEXTS.nameRequired, 'properties.port': DATA_STORE_TEXTS.port });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { name: 'X', dataPlugin: PLUGIN, properties: 'host=evil' }), 400, { properties: /.+/ });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, 'not-an-id'), { name: 'X', dataPlugin: PLUGIN, properties: SETTINGS }), 404);
    expect(await count()).toBe(before);

    const existing = await owner.call('PUT', at(DEMO.workspaceId, id), { name: 'Put existing', dataPlugin: PLUGIN, properties: SETTINGS });
    expect(existing.status).toBe(201);
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: 'loaders/target-store', name: 'Moved' }), 400, { dataPlugin: /cannot change/ });
    expectError(await owner.call('PUT', at(DEMO.workspaceId, id), { dataPlugin: PLUGIN, draft: true }), 400, { properties: 'must change name or properties' });

    const embeddedStore = (await owner.get(linkOf(workspace, REL.datastore))).body;
    expectError(await owner.call('PUT', at(DEMO.workspaceId, String(embeddedStore.id)), { name: 'Renamed' }), 403);
    expect((await owner.get(linkOf(embeddedStore, REL.self))).body.name).toBe(embeddedStore.name);
  });

  it("refuses a plain member (403) and another workspace's admin (404, as for no such id); creating at another workspace's store id is a 409 that changes nothing", async () => {
    const mine = await owner.call('PUT', at(DEMO.workspaceId, randomUUID()), { name: 'Put private', dataPlugin: PLUGIN, properties: SETTINGS });
    expect(mine.status).toBe(201);
    const id = String(mine.body.id);
    expectError(await world.member.api.call('PUT', at(DEMO.workspaceId, id), { name: 'Stolen' }), 403);
    expectError(await world.member.api.call('PUT', at(DEMO.workspaceId, randomUUID()), { name: 'Mine', dataPlugin: PLUGIN, properties: SETTINGS }), 403);
    expectError(await world.outsider.api.call('PUT', at(DEMO.workspaceId, id), { name: 'Stolen' }), 404);
    expectError(await world.outsider.api.call('PUT', at(outsiderWorkspaceId, id), { name: 'Stolen', dataPlugin: PLUGIN, properties: SETTINGS }), 409);
    expect((await owner.get(linkOf(mine.body, REL.self))).body.name).toBe('Put private');
    expect(await world.server.db.selectFrom('data_stores').select('workspace_id').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ workspace_id: DEMO.workspaceId });
  });
});
