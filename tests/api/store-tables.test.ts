import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { REL } from '../../src/domain/relations';
import { storeTableSampleSchema, storeTablesSchema } from '../../src/domain/resources';
import { expectError, hasLink, linkOf } from './helpers/http';
import { makePipeline, runLoad, type StreamLoad } from './helpers/storeLoads';
import { login, startWorld, type World } from './helpers/world';

// The store browser's API (issue 20): the 'tables' link of the workspace and of its embedded store
// lists what the store holds (columns with types, rows, the run that last loaded each table), and a
// table's self link gives its first 20 rows, read as the workspace's dataset SQL is.

let world: World;
let pipelineId: string;
let jobId: string;

const EVENTS: StreamLoad = {
  stream: 'browser_events',
  key: ['id'],
  schema: { type: 'object', properties: { id: { type: ['integer'] }, kind: { type: ['string'] }, at: { type: ['string'], format: 'date-time' }, value: { type: ['number', 'null'] } } },
  records: Array.from({ length: 25 }, (_, i) => ({ id: i + 1, kind: i % 2 === 0 ? 'view' : 'click', at: `2026-03-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`, value: i * 1.5 })),
};

const workspaceUrl = (id = DEMO.workspaceId) => `/api/workspaces/${id}`;

async function tablesLink(): Promise<string> {
  const workspace = await world.owner.api.get(workspaceUrl());
  return linkOf(workspace.body, REL.tables);
}

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  pipelineId = await makePipeline(world, 'Store browser loads');
  jobId = await runLoad(world, pipelineId, [EVENTS]);
}, 120_000);
afterAll(() => world?.close());

describe('the tables link', () => {
  it('is offered to admins on the workspace and on the embedded store, with one href', async () => {
    const href = await tablesLink();
    const stores = await world.owner.api.get(linkOf((await world.owner.api.get(workspaceUrl())).body, REL.datastores));
    const embedded = (stores.body._embedded.datastores as { managed?: boolean }[]).find((s) => s.managed === true);
    expect(embedded).toBeDefined();
    expect(linkOf(embedded, REL.tables)).toBe(href);
  });

  it('is not offered to a member, and the route refuses one and a caller from outside the workspace', async () => {
    const href = await tablesLink();
    expect(hasLink((await world.member.api.get(workspaceUrl())).body, REL.tables)).toBe(false);
    expectError(await world.member.api.get(href), 403);
    expectError(await world.outsider.api.get(href), 404);
    expectError(await world.outsider.api.get(`${href}/browser_events`), 404);
    expect((await world.anonymous.get(href)).status).toBe(401);
  });
});

describe('what the store holds', () => {
  it('lists each table with its columns and types, its rows and the run that last loaded it', async () => {
    const answer = await world.owner.api.get(await tablesLink());
    expect(answer.status).toBe(200);
    const body = storeTablesSchema.parse(answer.body);
    const events = body.tables.find((t) => t.name === 'browser_events');
    expect(events).toBeDefined();
    expect(events!.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['id', 'kind', 'at', 'value']));
    expect(Object.fromEntries(events!.columns.filter((c) => ['id', 'kind', 'at'].includes(c.name)).map((c) => [c.name, c.type]))).toEqual({ id: 'bigint', kind: 'text', at: 'timestamp with time zone' });
    expect(events!.rows).toBe(25);
    expect(events!.rowsAtLeast).toBe(false);
    expect(events!.lastLoad).toMatchObject({ rows: 25, jobId, pipelineId, pipelineName: 'Store browser loads' });
    expect(Number.isNaN(Date.parse(events!.lastLoad!.loaded))).toBe(false);
    // sorted by name, so the browser and autocomplete read it in a stable order
    const names = body.tables.map((t) => t.name);
    expect(names).toEqual([...names].sort());
  });

  it("gives a table's columns and its first 20 rows", async () => {
    const list = storeTablesSchema.parse((await world.owner.api.get(await tablesLink())).body);
    const events = list.tables.find((t) => t.name === 'browser_events')!;
    const answer = await world.owner.api.get(linkOf(events, REL.self));
    expect(answer.status).toBe(200);
    const sample = storeTableSampleSchema.parse(answer.body);
    expect(sample.name).toBe('browser_events');
    expect(sample.rows).toHaveLength(20);
    expect(sample.truncated).toBe(true);
    expect(sample.columns).toEqual(events.columns);
    expect(sample.rows[0]).toMatchObject({ kind: expect.any(String) });
  });

  it('answers 404 for a table the store does not have, however its name is written', async () => {
    const href = await tablesLink();
    for (const name of ['no_such_table', 'browser_events; DROP TABLE browser_events', 'browser_events" --', '../../datasets', 'pg_authid', 'BROWSER_EVENTS']) {
      expectError(await world.owner.api.get(`${href}/${encodeURIComponent(name)}`), 404);
    }
    // and the table is still there
    expect((await world.owner.api.get(`${href}/browser_events`)).status).toBe(200);
  });

  it("never shows another workspace's tables: a second workspace's store has none of them", async () => {
    const root = await world.owner.api.get('/api/');
    const draft = await world.owner.api.call('POST', linkOf(root.body, REL.newWorkspace));
    const created = await world.owner.api.call('PUT', linkOf(draft.body, REL.createWorkspace), { name: 'Second lab' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const href = linkOf(created.body, REL.tables);
    expect(href).not.toBe(await tablesLink());
    const listed = storeTablesSchema.parse((await world.owner.api.get(href)).body);
    expect(listed.tables.map((t) => t.name)).not.toContain('browser_events');
    expectError(await world.owner.api.get(`${href}/browser_events`), 404);
  });
});
