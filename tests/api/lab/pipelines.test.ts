import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASK } from '../../../src/domain/pipelineRules';
import { REL } from '../../../src/domain/relations';
import { pipelineSchema, pipelinesCollectionSchema } from '../../../src/domain/resources';
import { DEMO } from '../../../server/seed';
import { embedded, expectError, hasLink, linkOf, type ApiClient } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { givePostgresComponent, outsiderWorkspace, type Body } from './labWorld';

let world: World;
let owner: ApiClient;
let workspace: { body: unknown };

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  await outsiderWorkspace(world);
  owner = world.owner.api;
  workspace = await owner.get(`/api/workspaces/${DEMO.workspaceId}`);
});
afterAll(() => world?.close());

const DEMO_COMPONENTS = ['extractors/tap-demo', 'loaders/target-store'];

async function initialise(api: ApiClient = owner): Promise<Body> {
  const answer = await api.call('POST', linkOf(workspace.body, REL.newPipeline));
  expect(answer.status).toBe(200);
  return answer.body as Body;
}

async function createPipeline(name: string, extra: Record<string, unknown> = {}): Promise<Body> {
  const draft = await initialise();
  const created = await owner.call('PUT', linkOf(draft, REL.createPipeline), { name, dataComponents: DEMO_COMPONENTS, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as Body;
}

describe('the workspace offers the Lab to its admins only', () => {
  it('offers pipelines, new pipeline, datacomponents, dataplugins and datastores to the owner', () => {
    for (const rel of [REL.pipelines, REL.newPipeline, REL.datacomponents, REL.createDatacomponent, REL.dataplugins, REL.datastores, REL.datastore, REL.newDatastore]) {
      expect(hasLink(workspace.body, rel), rel).toBe(true);
    }
  });

  it('offers none of them to a plain member, and refuses the member (403)', async () => {
    const seen = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    for (const rel of [REL.pipelines, REL.newPipeline, REL.datacomponents, REL.dataplugins, REL.datastores]) expect(hasLink(seen.body, rel), rel).toBe(false);
    expectError(await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}/pipelines`), 403);
    expectError(await world.member.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/pipelines`), 403);
  });
});

describe('initialise, create, read', () => {
  it('initialises an unsaved draft with create and draft links, storing nothing', async () => {
    const before = await world.server.db.selectFrom('pipelines').select('id').execute();
    const draft = await initialise();
    expect(pipelineSchema.safeParse(draft).success).toBe(true);
    expect(draft).toMatchObject({ draft: true, status: 'DRAFT', dataComponents: [], timeout: 0, maxRetries: 0 });
    expect(Object.keys(draft._links).sort()).toEqual([REL.createPipeline, REL.datacomponents, REL.dataplugins, REL.draftPipeline].sort());
    expect(linkOf(draft, REL.createPipeline)).toBe(`${world.baseUrl}/api/workspaces/${DEMO.workspaceId}/pipelines/${draft.id}`);
    expect(await world.server.db.selectFrom('pipelines').select('id').execute()).toHaveLength(before.length);
  });

  it('creates a pipeline from plugin references (201), with its components, the default store and every link of a runnable pipeline', async () => {
    const created = await createPipeline('Demo orders', { schedule: '0 0 0 * * *', timeout: 60, maxRetries: 2 });
    expect(pipelineSchema.safeParse(created).success).toBe(true);
    expect(created).toMatchObject({ name: 'Demo orders', draft: false, status: 'READY', schedule: '0 0 0 * * *', timeout: 60, maxRetries: 2, dataComponents: ['tap-demo', 'target-store'] });
    expect((created._embedded.dataComponents as { dataPlugin: string }[]).map((c) => c.dataPlugin)).toEqual(['extractors/tap-demo--builtin', 'loaders/target-store--builtin']);
    expect(created._embedded.datastore).toMatchObject({ default: true, managed: true, dataPlugin: 'loaders/target-store--builtin' });
    expect(created._embedded['latest job']).toBeNull();
    const offered = Object.keys(created._links).sort();
    expect(offered).toEqual(
      [REL.self, REL.jobs, REL.metrics, REL.environment, REL.createJob, REL.verifyPipeline, REL.state, REL.fullRefresh, REL.streams, REL.updatePipeline, REL.draftPipeline, REL.deletePipeline, REL.addSubscription, REL.datacomponents, REL.dataplugins, REL.lineage].sort(),
    );
    // Absent while nothing runs, nobody watches, and it is no draft.
    for (const rel of [REL.withdrawJob, REL.deleteSubscription, REL.createPipeline]) expect(hasLink(created, rel), rel).toBe(false);
    const read = await owner.get(linkOf(created, REL.self));
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(created.id);
  });

  it('answers 200 when the create link of the same initialised id is used again (an auto-saved draft saved again)', async () => {
    const draft = await initialise();
    const first = await owner.call('PUT', linkOf(draft, REL.draftPipeline), { name: 'Saved twice', dataComponents: ['extractors/tap-demo'] });
    expect(first.status).toBe(201);
    expect(first.body.draft).toBe(true);
    const second = await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: 'Saved twice', dataComponents: DEMO_COMPONENTS });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: draft.id, draft: false });
  });

  it('refuses a save of an initialised id that is malformed (404) or belongs to another workspace (404)', async () => {
    expectError(await owner.call('PUT', `/api/workspaces/${DEMO.workspaceId}/pipelines/not-a-uuid`, { name: 'x' }), 404);
    const elsewhere = await createPipeline('Lives in demo');
    expectError(await owner.call('PUT', `/api/workspaces/${DEMO.sandboxWorkspaceId}/pipelines/${elsewhere.id}`, { name: 'Moved' }), 404);
  });

  it('lists pipelines by name, paged, with search', async () => {
    await createPipeline('Search alpha');
    await createPipeline('Search beta');
    const page = await owner.get(`${linkOf(workspace.body, REL.pipelines)}?search=search&size=1`);
    expect(page.status).toBe(200);
    expect(pipelinesCollectionSchema.safeParse(page.body).success).toBe(true);
    expect(embedded(page.body, 'pipelines').map((p: { name: string }) => p.name)).toEqual(['Search alpha']);
    expect(page.body.page).toMatchObject({ totalElements: 2, totalPages: 2, number: 0 });
    const next = await owner.get(linkOf(page.body, 'next'));
    expect(embedded(next.body, 'pipelines').map((p: { name: string }) => p.name)).toEqual(['Search beta']);
    const none = await owner.get(`${linkOf(workspace.body, REL.pipelines)}?search=${encodeURIComponent('%_')}`);
    expect(none.body.page.totalElements).toBe(0);
  });
});

describe('validation (400 with field errors)', () => {
  it('stores a 5-field schedule with its seconds field', async () => {
    const created = await createPipeline('Five fields', { schedule: '30 9 * * MON-FRI' });
    expect(created.schedule).toBe('0 30 9 * * MON-FRI');
  });

  it('names a blank name, a taken name, a bad schedule and an unknown component', async () => {
    await createPipeline('Taken');
    const draft = await initialise();
    expectError(await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: '  ' }), 400, { name: 'Name is mandatory' });
    expectError(await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: 'taken' }), 400, { name: /already exists/ });
    expectError(await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: 'Cron', schedule: '0 * *' }), 400, { schedule: /6 fields/ });
    expectError(await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: 'Cron', schedule: '* * * * * *' }), 400, { schedule: /once a minute/ });
    expectError(await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: 'Ghost', dataComponents: ['tap-ghost', 'extractors/tap-nothing'] }), 400, {
      'dataComponents.0': /names no data component/,
      'dataComponents.1': /names no data component/,
    });
    expectError(await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: 'Neg', timeout: -1, maxRetries: 1.5 }), 400, { timeout: /0 or more/, maxRetries: /whole number/ });
  });

  it('names a required setting as properties.{component}.{setting}; a draft skips completeness but not types', async () => {
    const draft = await initialise();
    const body = { name: 'Postgres copy', dataComponents: ['extractors/tap-postgres', 'loaders/target-store'], properties: { 'tap-postgres.user': 'ada' } };
    expectError(await owner.call('PUT', linkOf(draft, REL.createPipeline), body), 400, { 'properties.tap-postgres.database': "Setting 'Database' is required" });
    expectError(await owner.call('PUT', linkOf(draft, REL.draftPipeline), { ...body, properties: { 'tap-postgres.port': 'eighty' } }), 400, { 'properties.tap-postgres.port': 'must be a whole number' });
    expectError(await owner.call('PUT', linkOf(draft, REL.draftPipeline), { ...body, properties: { 'tap-mysql.host': 'x' } }), 400, { 'properties.tap-mysql.host': /not a setting/ });
    const saved = await owner.call('PUT', linkOf(draft, REL.draftPipeline), body);
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ draft: true, status: 'DRAFT' });
    // A draft cannot run: no create job, no verify; it is saved to run through 'create pipeline'.
    for (const rel of [REL.createJob, REL.verifyPipeline, REL.updatePipeline]) expect(hasLink(saved.body, rel), rel).toBe(false);
    expectError(await owner.call('POST', `/api/pipelines/${saved.body.id}/jobs`), 403);
    expectError(await owner.call('POST', `/api/pipelines/${saved.body.id}/verification`), 403);
    const stillMissing = await owner.call('PUT', linkOf(saved.body, REL.createPipeline), body);
    expectError(stillMissing, 400, { 'properties.tap-postgres.database': /required/ });
  });

  it('refuses triggers of itself or of no pipeline, and accepts another pipeline or deploy', async () => {
    const first = await createPipeline('Upstream');
    const draft = await initialise();
    expectError(await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: 'Downstream', triggeredBy: ['downstream', 'nothing'] }), 400, {
      'triggeredBy.0': /itself/,
      'triggeredBy.1': /names no pipeline/,
    });
    const saved = await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: 'Downstream', triggeredBy: [first.name, 'deploy'] });
    expect(saved.status).toBe(201);
    expect(saved.body.triggeredBy).toEqual(['Upstream', 'deploy']);
  });

  it('writes nothing when it refuses: no component created for a refused save', async () => {
    const before = await world.server.db.selectFrom('data_components').select('id').where('workspace_id', '=', DEMO.workspaceId).execute();
    const draft = await initialise();
    expectError(await owner.call('PUT', linkOf(draft, REL.createPipeline), { name: '', dataComponents: ['extractors/tap-files'] }), 400, { name: /mandatory/ });
    const after = await world.server.db.selectFrom('data_components').select('id').where('workspace_id', '=', DEMO.workspaceId).execute();
    expect(after).toHaveLength(before.length);
  });
});

describe('update, draft, delete', () => {
  it('updates through update pipeline (200) and goes back to draft through draft pipeline', async () => {
    const created = await createPipeline('To update');
    const updated = await owner.call('PUT', linkOf(created, REL.updatePipeline), { name: 'Updated', dataComponents: ['tap-demo', 'target-store'], script: 'echo hi' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Updated', script: 'echo hi', draft: false });
    const drafted = await owner.call('PUT', linkOf(updated.body, REL.draftPipeline), { name: 'Updated', dataComponents: ['tap-demo'] });
    expect(drafted.status).toBe(200);
    expect(drafted.body.draft).toBe(true);
    expect(hasLink(drafted.body, REL.createPipeline)).toBe(true);
    expect(hasLink(drafted.body, REL.updatePipeline)).toBe(false);
    const back = await owner.call('PUT', linkOf(drafted.body, REL.createPipeline), { name: 'Updated', dataComponents: ['tap-demo', 'target-store'] });
    expect(back.status).toBe(201);
    expect(back.body.draft).toBe(false);
  });

  it('never returns a sensitive property in clear, and keeps it when the form sends the mask back', async () => {
    await givePostgresComponent(world);
    const draft = await initialise();
    const body = { name: 'Secret keeper', dataComponents: ['pg', 'loaders/target-store'], properties: { 'pg.user': 'ada', 'pg.database': 'shop', 'pg.password': 'hunter2' } };
    const created = await owner.call('PUT', linkOf(draft, REL.createPipeline), body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.properties['pg.password']).toBe(MASK);
    expect(JSON.stringify(created.body)).not.toContain('hunter2');
    const again = await owner.call('PUT', linkOf(created.body, REL.updatePipeline), { ...body, properties: created.body.properties });
    expect(again.status).toBe(200);
    const stored = await world.server.db.selectFrom('pipelines').select('properties').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(stored.properties['pg.password']).toBe('hunter2');
  });

  it('deletes a pipeline (204); then it is gone (404)', async () => {
    const created = await createPipeline('To delete');
    expectError(await world.member.api.call('DELETE', linkOf(created, REL.deletePipeline)), 403);
    const deleted = await owner.raw('DELETE', linkOf(created, REL.deletePipeline), undefined);
    expect(deleted.status).toBe(204);
    expectError(await owner.get(linkOf(created, REL.self)), 404);
  });

  it("refuses another workspace's admin (404, as for no such id) and unknown ids (404) on every pipeline route", async () => {
    const created = await createPipeline('Private');
    const stranger = world.outsider.api;
    expectError(await stranger.get(linkOf(created, REL.self)), 404);
    expectError(await stranger.call('PUT', linkOf(created, REL.updatePipeline), { name: 'Mine' }), 404);
    expectError(await stranger.call('DELETE', linkOf(created, REL.deletePipeline)), 404);
    expectError(await stranger.get(linkOf(created, REL.environment)), 404);
    expectError(await owner.get(`/api/pipelines/${randomUUID()}`), 404);
    expectError(await owner.get('/api/pipelines/nope'), 404);
  });
});

describe('table prefixes: pipelines never write each other’s tables unless told to', () => {
  const PREFIX = 'target-store.table_prefix';

  it("gives a new pipeline a prefix from its name, numbered when taken, and keeps it when a save leaves it out", async () => {
    // the form's first auto-save is a draft named after the plugin: its prefix waits for the real name
    const draft = await initialise();
    const drafted = await owner.call('PUT', linkOf(draft, REL.draftPipeline), { name: 'Demo data', dataComponents: DEMO_COMPONENTS });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(201);
    expect(drafted.body.properties[PREFIX]).toBeUndefined();
    const created = await owner.call('PUT', linkOf(drafted.body, REL.createPipeline), { name: 'Second demo import', dataComponents: DEMO_COMPONENTS });
    expect(created.status).toBe(201);
    const first = created.body as Body;
    expect(first.properties[PREFIX]).toBe('second_demo_import_');
    const again = await owner.call('PUT', linkOf(first, REL.updatePipeline), { name: 'Second demo import, renamed', dataComponents: DEMO_COMPONENTS });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.properties[PREFIX]).toBe('second_demo_import_');
    const namesake = await createPipeline('Second-demo import');
    expect(namesake.properties[PREFIX]).toBe('second_demo_import_2_');
  });

  it("refuses a prefix another pipeline of the same extractor loads into, naming it, until the save confirms sharing", async () => {
    const baseline = await createPipeline('Baseline import');
    const draft = await initialise();
    const body = { name: 'Into the baseline tables', dataComponents: DEMO_COMPONENTS, properties: { [PREFIX]: baseline.properties[PREFIX] } };
    const refused = await owner.call('PUT', linkOf(draft, REL.createPipeline), body);
    expectError(refused, 400, { [`properties.${PREFIX}`]: /^Pipeline 'Baseline import' already loads the same data into tables starting with 'baseline_import_'/ });
    expect(await world.server.db.selectFrom('pipelines').select('id').where('id', '=', draft.id as string).executeTakeFirst()).toBeUndefined();
    const shared = await owner.call('PUT', linkOf(draft, REL.createPipeline), { ...body, shareTables: true });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    expect(shared.body.properties[PREFIX]).toBe('baseline_import_');
    // another extractor may use the same prefix: its streams are other tables
    const files = await owner.call('PUT', linkOf(await initialise(), REL.createPipeline), { name: 'Files beside the baseline', dataComponents: ['extractors/tap-files', 'target-store'], properties: { [PREFIX]: 'baseline_import_', 'tap-files.paths': ['x.csv'] } });
    expect(files.status, JSON.stringify(files.body)).toBe(201);
  });

  it("refuses another extractor whose streams land in the same tables, naming the tables and the pipeline, until the save confirms sharing", async () => {
    const demo = await createPipeline('Shop demo');
    expect(demo.properties[PREFIX]).toBe('shop_demo_');
    const files = (paths: string[], prefix: string, name: string) => ({ name, dataComponents: ['extractors/tap-files', 'target-store'], properties: { [PREFIX]: prefix, 'tap-files.paths': paths } });
    // tap-files names a stream after its file: Orders.csv is the stream 'orders', as tap-demo's is
    const clash = files(['exports/Orders.csv', 'exports/customers.json', 'exports/refunds.csv'], 'shop_demo_', 'Shop files');
    const draft = await initialise();
    const refused = await owner.call('PUT', linkOf(draft, REL.createPipeline), clash);
    expectError(refused, 400, { [`properties.${PREFIX}`]: /^Pipeline 'Shop demo' already loads into the tables 'shop_demo_customers' and 'shop_demo_orders', from another extractor: .*confirm that they share these tables\.$/ });
    expect(await world.server.db.selectFrom('pipelines').select('id').where('id', '=', draft.id as string).executeTakeFirst()).toBeUndefined();
    // validation says the same
    expectError(await owner.call('POST', `/api/workspaces/${DEMO.workspaceId}/pipelines/validation`, clash), 400, { [`properties.${PREFIX}`]: /'shop_demo_orders'/ });
    // other tables under the same prefix are no clash (a directory's files are not known before a run)
    const refunds = await owner.call('PUT', linkOf(await initialise(), REL.createPipeline), files(['exports/refunds.csv', 'exports/'], 'shop_demo_', 'Shop refunds'));
    expect(refunds.status, JSON.stringify(refunds.body)).toBe(201);
    const shared = await owner.call('PUT', linkOf(draft, REL.createPipeline), { ...clash, shareTables: true });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    expect(shared.body.properties[PREFIX]).toBe('shop_demo_');
    // the other side is asked too, naming the files pipeline
    expectError(await owner.call('PUT', linkOf(demo, REL.updatePipeline), { name: 'Shop demo', dataComponents: DEMO_COMPONENTS, properties: { [PREFIX]: 'shop_demo_' } }), 400, { [`properties.${PREFIX}`]: /^Pipeline 'Shop files' already loads into the tables 'shop_demo_customers' and 'shop_demo_orders'/ });
    expect((await owner.call('PUT', linkOf(demo, REL.updatePipeline), { name: 'Shop demo', dataComponents: DEMO_COMPONENTS, properties: { [PREFIX]: 'shop_demo_' }, shareTables: true })).status).toBe(200);
    // a prefix is only the start of a table's name: '' + 'shop_demo_orders' is 'shop_demo_' + 'orders'
    expectError(await owner.call('PUT', linkOf(await initialise(), REL.createPipeline), files(['shop_demo_orders.csv'], '', 'Bare shop orders')), 400, { [`properties.${PREFIX}`]: /'shop_demo_orders'/ });
  });

  it('refuses a prefix that is no identifier, and a confirmation that is no boolean', async () => {
    for (const bad of ['Sales', 'a-b', 'x; drop table orders', '1_', 'a'.repeat(31), 7]) {
      expectError(await owner.call('PUT', linkOf(await initialise(), REL.createPipeline), { name: `Bad prefix ${String(bad).slice(0, 20)}`, dataComponents: DEMO_COMPONENTS, properties: { [PREFIX]: bad } }), 400, { [`properties.${PREFIX}`]: /lower-case letters|must be text/ });
    }
    expectError(await owner.call('PUT', linkOf(await initialise(), REL.createPipeline), { name: 'Odd confirmation', dataComponents: DEMO_COMPONENTS, shareTables: 'yes' }), 400, { shareTables: /true or false/ });
  });
});
