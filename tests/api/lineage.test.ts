import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDbOf } from '../../server/db/storeDatabase';
import { DEMO } from '../../server/seed';
import { ensureStoreRole, storeSchemaName } from '../../server/stores/storeRole';
import { datasetLineageSchema, pipelineLineageSchema, tableLineageSchema, type DatasetLineage, type LineageTable, type PipelineLineage, type TableLineage } from '../../src/domain/lineageResources';
import { REL } from '../../src/domain/relations';
import { expectError, hasLink, linkOf } from './helpers/http';
import { makePipeline, runLoad, type StreamLoad } from './helpers/storeLoads';
import { login, startWorld, type World } from './helpers/world';
import { outsiderWorkspace } from './lab/labWorld';

// Lineage (issue 41) through the API, on PGlite and on PostgreSQL: a dataset's columns back to the
// tables they read, the pipeline, stream and run that loaded each and the pipeline's extractor, and
// the dashboard that shows the dataset; a pipeline's impact; a failed or stale upstream marked
// downstream; and nothing of another workspace, whatever the dataset's SQL names.

let world: World;
let pipelineId: string;
let jobId: string;
let orders: string;
let customers: string;
let datasetId: string;
let rawDatasetId: string;
const W = DEMO.workspaceId;
const ALIAS = 'lineage-totals';

const ORDERS: StreamLoad = {
  stream: 'orders',
  key: ['id'],
  schema: { type: 'object', properties: { id: { type: ['integer'] }, customer_id: { type: ['integer'] }, amount: { type: ['number'] } } },
  records: [
    { id: 1, customer_id: 1, amount: 10 },
    { id: 2, customer_id: 2, amount: 5.5 },
    { id: 3, customer_id: 1, amount: 2 },
  ],
};
const CUSTOMERS: StreamLoad = {
  stream: 'customers',
  key: ['id'],
  schema: { type: 'object', properties: { id: { type: ['integer'] }, name: { type: ['string'] } } },
  records: [
    { id: 1, name: 'Ada' },
    { id: 2, name: 'Grace' },
  ],
};

async function lineageAs(who: 'owner' | 'member', id = datasetId): Promise<DatasetLineage> {
  const dataset = await world[who].api.get(`/api/datasets/${id}`);
  const answer = await world[who].api.get(linkOf(dataset.body, REL.lineage));
  expect(answer.status).toBe(200);
  return datasetLineageSchema.parse(answer.body);
}

async function impact(): Promise<PipelineLineage> {
  const pipeline = await world.owner.api.get(`/api/pipelines/${pipelineId}`);
  const answer = await world.owner.api.get(linkOf(pipeline.body, REL.lineage));
  expect(answer.status).toBe(200);
  return pipelineLineageSchema.parse(answer.body);
}

/** The store browser's table, as the owner's 'tables' list offers it, and its 'lineage' link followed. */
async function tableLineageOf(name: string): Promise<TableLineage> {
  const tables = (await world.owner.api.get(`/api/workspaces/${W}/tables`)).body.tables as { name: string }[];
  const table = tables.find((t) => t.name === name)!;
  const answer = await world.owner.api.get(linkOf(table, REL.lineage));
  expect(answer.status).toBe(200);
  return tableLineageSchema.parse(answer.body);
}

const tableNamed = (body: { tables: LineageTable[] }, name: string) => body.tables.find((t) => t.name === name)!;

async function setQuery(id: string, query: string): Promise<void> {
  await world.server.db.updateTable('datasets').set({ query }).where('id', '=', id).execute();
}

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  pipelineId = await makePipeline(world, 'Lineage shop');
  jobId = await runLoad(world, pipelineId, [ORDERS, CUSTOMERS]);
  const tables = (await world.owner.api.get(`/api/workspaces/${W}/tables`)).body.tables as { name: string; lastLoad: { pipelineId: string } | null }[];
  const ours = tables.filter((t) => t.lastLoad?.pipelineId === pipelineId).map((t) => t.name);
  orders = ours.find((t) => t.endsWith('orders'))!;
  customers = ours.find((t) => t.endsWith('customers'))!;
  const published = await world.owner.api.call('POST', `/api/workspaces/${W}/datasets`, {
    title: 'Totals by customer',
    alias: ALIAS,
    query: `SELECT c.name AS customer, sum(o.amount) AS total, count(*) AS orders FROM ${orders} o JOIN ${customers} c ON c.id = o.customer_id GROUP BY c.name`,
  });
  expect(published.status).toBe(201);
  datasetId = String(published.body.id);
  const raw = await world.owner.api.call('POST', `/api/workspaces/${W}/datasets`, { title: 'Raw lineage numbers', alias: 'lineage-raw', rawData: '[{"n":1}]' });
  expect(raw.status).toBe(201);
  rawDatasetId = String(raw.body.id);
  // the workspace's dashboard shows the dataset
  const workspace = await world.server.db.selectFrom('workspaces').select('app_properties').where('id', '=', W).executeTakeFirstOrThrow();
  const properties = { ...workspace.app_properties, DASHBOARD_PAGE_TITLE: 'Shop board', DASHBOARD_CONTENT: `# Shop\n\n<DatasetChart alias="${ALIAS}" />\n` };
  await world.server.db.updateTable('workspaces').set({ app_properties: JSON.stringify(properties) }).where('id', '=', W).execute();
}, 120_000);
afterAll(() => world?.close());

describe("a dataset's lineage", () => {
  it('traces each column to the table columns it reads, marked direct, transformation or aggregation', async () => {
    const body = await lineageAs('member');
    expect(body.columns.map((c) => ({ name: c.name, kind: c.kind, sources: c.sources }))).toEqual([
      { name: 'customer', kind: 'direct', sources: [{ table: customers, column: 'name', kind: 'direct' }] },
      { name: 'total', kind: 'aggregation', sources: [{ table: orders, column: 'amount', kind: 'aggregation' }] },
      { name: 'orders', kind: null, sources: [] },
    ]);
    expect(body.status).toBe('fresh');
    expect(body.refused).toBeNull();
    expect(body._links?.self).toEqual({ href: expect.stringContaining(`/api/datasets/${datasetId}/lineage`) });
  });

  it('leads each table to the pipeline, stream and run that loaded it, and to its extractor', async () => {
    const body = await lineageAs('member');
    expect(body.tables.map((t) => t.name).sort()).toEqual([customers, orders].sort());
    const table = tableNamed(body, orders);
    expect(table).toMatchObject({
      exists: true,
      status: 'fresh',
      columns: ['id', 'customer_id', 'amount'],
      rows: 3,
      stream: 'orders',
      pipeline: { id: pipelineId, name: 'Lineage shop' },
      loadedBy: { id: jobId, status: 'COMPLETE' },
      latestRun: { id: jobId, status: 'COMPLETE' },
      extractors: [{ plugin: 'tap-demo' }],
    });
    expect(Date.parse(table.loaded ?? '')).toBeGreaterThan(Date.now() - 600_000);
    expect(tableNamed(body, customers).stream).toBe('customers');
  });

  it('names the dashboards that show the dataset', async () => {
    expect((await lineageAs('member')).dashboards).toEqual([{ title: 'Shop board', status: 'fresh', datasets: [ALIAS] }]);
  });

  it("offers a member the lineage but none of the Lab's links; an admin follows them to the table, pipeline and run", async () => {
    const member = await lineageAs('member');
    for (const table of member.tables) expect(table._links ?? {}).toEqual({});
    const owner = await lineageAs('owner');
    const table = tableNamed(owner, orders);
    expect(linkOf(table, REL.pipeline)).toContain(`/api/pipelines/${pipelineId}`);
    expect(linkOf(table, REL.loadedBy)).toContain(`/api/jobs/${jobId}`);
    expect((await world.owner.api.get(linkOf(table, REL.loadedBy))).status).toBe(200);
    expect((await world.owner.api.get(linkOf(table, REL.table))).status).toBe(200);
    expect((await world.owner.api.get(linkOf(table, REL.lineage))).body.pipelineId).toBe(pipelineId);
  });

  it('is offered only for a dataset with a query: raw data has none, and its route refuses', async () => {
    const raw = await world.member.api.get(`/api/datasets/${rawDatasetId}`);
    expect(hasLink(raw.body, REL.lineage)).toBe(false);
    expectError(await world.member.api.get(`/api/datasets/${rawDatasetId}/lineage`), 403);
  });

  it("is never reached by another workspace's caller, nor without a token", async () => {
    expectError(await world.outsider.api.get(`/api/datasets/${datasetId}/lineage`), 404);
    expectError(await world.outsider.api.get(`/api/pipelines/${pipelineId}/lineage`), 404);
    expect((await world.anonymous.get(`/api/datasets/${datasetId}/lineage`)).status).toBe(401);
  });
});

describe("a store table's lineage (the store browser)", () => {
  it('leads the table to the pipeline, stream and run that loaded it, and on to the datasets reading it and their dashboards', async () => {
    const body = await tableLineageOf(orders);
    expect(body).toMatchObject({ name: orders, status: 'fresh' });
    expect(body.table).toMatchObject({ name: orders, exists: true, stream: 'orders', pipeline: { id: pipelineId, name: 'Lineage shop' }, loadedBy: { id: jobId, status: 'COMPLETE' }, extractors: [{ plugin: 'tap-demo' }] });
    const ours = body.datasets.find((d) => d.id === datasetId);
    expect(ours).toMatchObject({ title: 'Totals by customer', alias: ALIAS, status: 'fresh', tables: [orders] });
    expect(body.datasets.every((d) => d.tables.length === 1 && d.tables[0] === orders)).toBe(true);
    expect(body.dashboards).toEqual([{ title: 'Shop board', status: 'fresh', datasets: [ALIAS] }]);
    // its links: itself, its table (the sample), and the table's own admin links
    expect(linkOf(body, REL.self)).toContain(`/api/workspaces/${W}/tables/${orders}/lineage`);
    expect((await world.owner.api.get(linkOf(body, REL.table))).body.name).toBe(orders);
    expect((await world.owner.api.get(linkOf(body.table, REL.lineage))).body.pipelineId).toBe(pipelineId);
  });

  it('is for the admins the store browser is for: a member is offered no tables and is refused the lineage', async () => {
    expectError(await world.member.api.get(`/api/workspaces/${W}/tables`), 403);
    expectError(await world.member.api.get(`/api/workspaces/${W}/tables/${orders}/lineage`), 403);
  });

  it("is never reached by another workspace's caller", async () => {
    expectError(await world.outsider.api.get(`/api/workspaces/${W}/tables/${orders}/lineage`), 404);
    expect((await world.anonymous.get(`/api/workspaces/${W}/tables/${orders}/lineage`)).status).toBe(401);
  });

  it('answers 404 for a table the store does not have, whatever its name', async () => {
    for (const name of ['no_such_table', `${orders}"; DROP TABLE ${orders}; --`, `${orders}' OR '1'='1`, '../customers', '%00', 'pg_catalog.pg_user', 'x'.repeat(300)]) {
      expectError(await world.owner.api.get(`/api/workspaces/${W}/tables/${encodeURIComponent(name)}/lineage`), 404);
    }
    // and the table is still there
    expect((await tableLineageOf(orders)).table.exists).toBe(true);
  });
});

describe('what no query reaches', () => {
  let elsewhere: string;

  beforeAll(async () => {
    // another workspace with a table of its own, loaded by a run it records
    elsewhere = await outsiderWorkspace(world);
    const schema = await ensureStoreRole(world.server.db, elsewhere).then(() => storeSchemaName(elsewhere));
    await sql`CREATE TABLE ${sql.id(schema, 'secret_orders')} (id integer, card_number text)`.execute(storeDbOf(world.server.db));
    await world.server.db.insertInto('store_loads').values({ workspace_id: elsewhere, table_name: 'secret_orders', job_id: null, pipeline_id: null, loaded: new Date(), rows: 1 }).execute();
  });

  it("finds nothing of another workspace's table named bare: the table is missing here, its columns and loads unknown", async () => {
    await setQuery(datasetId, 'SELECT * FROM secret_orders');
    try {
      const body = await lineageAs('member');
      expect(body.tables).toEqual([expect.objectContaining({ name: 'secret_orders', exists: false, status: 'missing', columns: [], loaded: null, pipeline: null, loadedBy: null })]);
      expect(body.columns).toEqual([expect.objectContaining({ name: '*', sources: [{ table: 'secret_orders', column: '*', kind: 'direct' }] })]);
      expect(body.status).toBe('missing');
      expect(JSON.stringify(body)).not.toContain('card_number');
      expect(JSON.stringify(body)).not.toContain(elsewhere);
    } finally {
      await setQuery(datasetId, `SELECT c.name AS customer, sum(o.amount) AS total, count(*) AS orders FROM ${orders} o JOIN ${customers} c ON c.id = o.customer_id GROUP BY c.name`);
    }
  });

  it("answers 404 for another workspace's table in the store browser's lineage", async () => {
    expectError(await world.owner.api.get(`/api/workspaces/${W}/tables/secret_orders/lineage`), 404);
    expectError(await world.owner.api.get(`/api/workspaces/${W}/tables/${encodeURIComponent(`${storeSchemaName(elsewhere)}.secret_orders`)}/lineage`), 404);
  });

  it('answers the refusal for a table named in another schema, and a table that does not exist as missing', async () => {
    const schema = storeSchemaName(elsewhere);
    await setQuery(datasetId, `SELECT card_number FROM "${schema}".secret_orders`);
    try {
      const refused = await lineageAs('owner');
      expect(refused.refused).toMatch(/without a schema/);
      expect(refused).toMatchObject({ status: 'failed', columns: [], tables: [] });
      await setQuery(datasetId, `SELECT o.amount, ghost.x FROM ${orders} o JOIN no_such_table ghost ON true`);
      const missing = await lineageAs('owner');
      expect(missing.columns.map((c) => [c.name, c.status])).toEqual([
        ['amount', 'fresh'],
        ['x', 'missing'],
      ]);
      expect(tableNamed(missing, 'no_such_table')).toMatchObject({ exists: false, status: 'missing', _links: {} });
      expect(missing.status).toBe('missing');
    } finally {
      await setQuery(datasetId, `SELECT c.name AS customer, sum(o.amount) AS total, count(*) AS orders FROM ${orders} o JOIN ${customers} c ON c.id = o.customer_id GROUP BY c.name`);
    }
  });
});

describe('a table a dbt model built', () => {
  const MODEL_QUERY = 'SELECT customer, total FROM totals_by_customer';
  let transformId: string;
  let builtBy: string;
  let elsewhere: string;

  beforeAll(async () => {
    // a second pipeline's run built totals_by_customer from the shop's tables, as the runner records it from dbt's manifest
    transformId = await makePipeline(world, 'Lineage transform');
    builtBy = await runLoad(world, transformId, []);
    const store = storeDbOf(world.server.db);
    await sql`CREATE TABLE ${sql.id(storeSchemaName(W), 'totals_by_customer')} (customer text, total numeric)`.execute(store);
    await sql`CREATE TABLE ${sql.id(storeSchemaName(W), 'plain_table')} (customer text)`.execute(store);
    await world.server.db
      .insertInto('store_models')
      .values({ workspace_id: W, table_name: 'totals_by_customer', model: 'totals', inputs: JSON.stringify([customers, orders].sort()), job_id: builtBy, pipeline_id: transformId, built_at: new Date() })
      .execute();
    // another workspace's model of a table named as one of ours: never ours
    elsewhere = await outsiderWorkspace(world);
    await world.server.db.insertInto('store_models').values({ workspace_id: elsewhere, table_name: 'plain_table', model: 'secret_model', inputs: JSON.stringify(['secret_input']), job_id: null, pipeline_id: null, built_at: new Date() }).execute();
  });

  it('carries the model, its inputs and the run that built it instead of "unloaded", and follows the inputs upstream', async () => {
    await setQuery(datasetId, MODEL_QUERY);
    try {
      const body = await lineageAs('member');
      expect(tableNamed(body, 'totals_by_customer')).toMatchObject({
        exists: true,
        status: 'fresh',
        model: { name: 'totals', inputs: [customers, orders].sort(), run: { id: builtBy, status: 'COMPLETE' } },
        pipeline: { id: transformId, name: 'Lineage transform' },
        loadedBy: { id: builtBy, status: 'COMPLETE' },
        extractors: [],
        stream: null,
        _links: {},
      });
      expect(Date.parse(tableNamed(body, 'totals_by_customer').loaded ?? '')).toBeGreaterThan(Date.now() - 600_000);
      // the inputs come along, upstream, each with the run that loaded it
      expect(body.tables.map((t) => [t.name, t.upstream ?? false])).toEqual([['totals_by_customer', false], ...[customers, orders].sort().map((t) => [t, true])]);
      expect(tableNamed(body, orders)).toMatchObject({ upstream: true, loadedBy: { id: jobId }, stream: 'orders', model: null });
      expect(body.status).toBe('fresh');
      // an admin follows the model's run and pipeline, as the policy offers them
      const owner = await lineageAs('owner');
      expect(linkOf(tableNamed(owner, 'totals_by_customer'), REL.loadedBy)).toContain(builtBy);
      expect(linkOf(tableNamed(owner, 'totals_by_customer'), REL.pipeline)).toContain(transformId);
      expect((await world.owner.api.get(linkOf(tableNamed(owner, 'totals_by_customer'), REL.loadedBy))).status).toBe(200);
    } finally {
      await setQuery(datasetId, `SELECT c.name AS customer, sum(o.amount) AS total, count(*) AS orders FROM ${orders} o JOIN ${customers} c ON c.id = o.customer_id GROUP BY c.name`);
    }
  });

  it("is marked by an input that is gone, and by its pipeline's failed run", async () => {
    await setQuery(datasetId, MODEL_QUERY);
    const inputs = (list: string[]) => world.server.db.updateTable('store_models').set({ inputs: JSON.stringify(list) }).where('workspace_id', '=', W).where('table_name', '=', 'totals_by_customer').execute();
    try {
      await inputs([orders, 'dropped_table']);
      const missing = await lineageAs('member');
      expect(tableNamed(missing, 'totals_by_customer').status).toBe('missing');
      expect(tableNamed(missing, 'dropped_table')).toMatchObject({ exists: false, status: 'missing', upstream: true });
      expect(missing.status).toBe('missing');
      await inputs([customers, orders].sort());
      const failed = await runLoad(world, transformId, [], 1);
      const body = await lineageAs('member');
      expect(tableNamed(body, 'totals_by_customer')).toMatchObject({ status: 'failed', model: { run: { id: builtBy } }, latestRun: { id: failed, status: 'ERROR' } });
      expect(body.status).toBe('failed');
    } finally {
      await inputs([customers, orders].sort());
      await setQuery(datasetId, `SELECT c.name AS customer, sum(o.amount) AS total, count(*) AS orders FROM ${orders} o JOIN ${customers} c ON c.id = o.customer_id GROUP BY c.name`);
    }
  });

  it("never shows another workspace's model of a table named as ours", async () => {
    await setQuery(datasetId, 'SELECT customer FROM plain_table');
    try {
      const body = await lineageAs('owner');
      expect(body.tables).toEqual([expect.objectContaining({ name: 'plain_table', exists: true, status: 'unloaded', model: null, pipeline: null })]);
      expect(JSON.stringify(body)).not.toContain('secret_');
      expect(JSON.stringify(body)).not.toContain(elsewhere);
    } finally {
      await setQuery(datasetId, `SELECT c.name AS customer, sum(o.amount) AS total, count(*) AS orders FROM ${orders} o JOIN ${customers} c ON c.id = o.customer_id GROUP BY c.name`);
    }
  });
});

describe("a pipeline's impact", () => {
  it('lists the tables its runs feed, the datasets reading them and the dashboards showing those', async () => {
    const body = await impact();
    expect(body).toMatchObject({ pipelineId, name: 'Lineage shop', status: 'fresh', latestRun: { id: jobId, status: 'COMPLETE' }, extractors: [{ plugin: 'tap-demo' }] });
    expect(body.tables.map((t) => t.name).sort()).toEqual([customers, orders].sort());
    // the demo's own datasets read the same tables
    const ours = body.datasets.find((d) => d.id === datasetId);
    expect(ours).toMatchObject({ title: 'Totals by customer', alias: ALIAS, status: 'fresh', tables: [customers, orders].sort() });
    expect(linkOf(ours, REL.lineage)).toContain(`/api/datasets/${datasetId}/lineage`);
    expect(body.datasets.every((d) => d.tables.length > 0 && d.tables.every((t) => t === orders || t === customers))).toBe(true);
    expect(body.dashboards).toEqual([{ title: 'Shop board', status: 'fresh', datasets: [ALIAS] }]);
  });

  it('is for admins: a member is offered no pipeline lineage and is refused it', async () => {
    expectError(await world.member.api.get(`/api/pipelines/${pipelineId}/lineage`), 403);
  });
});

describe('a stale or failed upstream, marked downstream', () => {
  it('marks a table stale when two scheduled runs passed since its load, and what reads it', async () => {
    const db = world.server.db;
    await db.updateTable('pipelines').set({ schedule: '0 0 * * * *' }).where('id', '=', pipelineId).execute();
    await db.updateTable('store_loads').set({ loaded: new Date(Date.now() - 3 * 3_600_000) }).where('pipeline_id', '=', pipelineId).execute();
    try {
      const body = await lineageAs('member');
      expect(body.tables.map((t) => t.status)).toEqual(['stale', 'stale']);
      expect(body.columns.map((c) => c.status)).toEqual(['stale', 'stale', 'fresh']);
      expect(body.status).toBe('stale');
      expect(body.dashboards[0]?.status).toBe('stale');
    } finally {
      await db.updateTable('pipelines').set({ schedule: null }).where('id', '=', pipelineId).execute();
    }
  });

  it('marks the tables of a pipeline whose latest run failed, the datasets reading them and their dashboards', async () => {
    const failed = await runLoad(world, pipelineId, [], 1);
    const body = await lineageAs('member');
    expect(tableNamed(body, orders)).toMatchObject({ status: 'failed', loadedBy: { id: jobId }, latestRun: { id: failed, status: 'ERROR' } });
    expect(body.columns.map((c) => c.status)).toEqual(['failed', 'failed', 'fresh']);
    expect(body.status).toBe('failed');
    expect(body.dashboards).toEqual([{ title: 'Shop board', status: 'failed', datasets: [ALIAS] }]);
    const pipeline = await impact();
    expect(pipeline.status).toBe('failed');
    expect(pipeline.latestRun).toMatchObject({ id: failed, status: 'ERROR' });
    expect(pipeline.datasets.find((d) => d.id === datasetId)?.status).toBe('failed');
    expect(new Set(pipeline.datasets.map((d) => d.status))).toEqual(new Set(['failed']));
    expect(pipeline.dashboards.map((d) => d.status)).toEqual(['failed']);
    const table = await tableLineageOf(orders);
    expect(table.status).toBe('failed');
    expect(table.datasets.find((d) => d.id === datasetId)?.status).toBe('failed');
    expect(table.dashboards.map((d) => d.status)).toEqual(['failed']);
  });
});
