import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { biggestStream, tableNamed, datasetFormForTable, runTablesPath, firstChartPath, isCompletedRun, pipelineTablesPath, storeTablesPath, tablesLoadedBy, tableTitle } from './loadedData';
import type { StoreTable } from './resources';
import { parseRoute } from './routes';

const BASE = 'http://api.test/api';
const embedded = { id: 's1', _links: { self: { href: `${BASE}/datastores/s1` }, tables: { href: `${BASE}/workspaces/w1/tables` } } };
const ownPostgres = { id: 's2', _links: { self: { href: `${BASE}/datastores/s2` } } };
const table = (name: string, rows: number | null, lastLoad: StoreTable['lastLoad'] = null): StoreTable => ({ name, columns: [], rows, lastLoad, _links: {} });
const load = (pipelineId: string, jobId: string) => ({ loaded: '2026-01-01T00:00:00Z', rows: 1, pipelineId, jobId });

describe('loaded data one click away (issue 38)', () => {
  it("a store's tables are one path away only when the store offers its 'tables' link", () => {
    expect(storeTablesPath('w1', embedded)).toBe('/lab/w1/datastores/s1');
    expect(storeTablesPath('w1', embedded, 'web_sessions')).toBe('/lab/w1/datastores/s1?table=web_sessions');
    expect(storeTablesPath('w1', ownPostgres)).toBeNull();
    expect(storeTablesPath('w1', null)).toBeNull();
    expect(pipelineTablesPath('w1', { _links: {}, _embedded: { datastore: embedded } }, 'orders')).toBe('/lab/w1/datastores/s1?table=orders');
    expect(pipelineTablesPath('w1', { _links: {}, _embedded: { datastore: ownPostgres } })).toBeNull();
    expect(pipelineTablesPath('w1', { _links: {} })).toBeNull();
  });

  it('only a completed run leads to its tables', () => {
    expect(isCompletedRun({ status: 'COMPLETE' })).toBe(true);
    for (const status of ['QUEUED', 'RUNNING', 'ERROR', 'STOPPED', 'SKIPPED', null]) expect(isCompletedRun({ status })).toBe(false);
    expect(isCompletedRun(null)).toBe(false);
  });

  it("a completed run's 'View tables' opens its store on the stream it loaded most", () => {
    const pipeline = { _links: {}, _embedded: { datastore: embedded } };
    expect(runTablesPath('w1', pipeline, { status: 'COMPLETE', rowsByStream: { customers: 50, orders: 400 } })).toBe('/lab/w1/datastores/s1?table=orders');
    expect(runTablesPath('w1', pipeline, { status: 'COMPLETE' })).toBe('/lab/w1/datastores/s1');
    expect(runTablesPath('w1', pipeline, { status: 'ERROR', rowsByStream: { orders: 1 } })).toBeNull();
    expect(runTablesPath('w1', { _links: {}, _embedded: { datastore: ownPostgres } }, { status: 'COMPLETE' })).toBeNull();
    expect(runTablesPath('w1', pipeline, null)).toBeNull();
    expect(biggestStream({ rowsByStream: { b: 2, a: 2 } })).toBe('a');
    expect(biggestStream({ rowsByStream: {} })).toBeNull();
  });

  it('a table named by a link: that name, else the stream behind a table prefix', () => {
    const named = (...names: string[]) => names.map((name) => ({ name }));
    expect(tableNamed(named('orders', 'x_orders'), 'orders')?.name).toBe('orders');
    expect(tableNamed(named('first_import_orders', 'a_first_import_orders', 'customers'), 'orders')?.name).toBe('first_import_orders');
    expect(tableNamed(named('myorders'), 'orders')).toBeUndefined();
  });

  it("a run's tables: those its job loaded (else its pipeline), biggest first", () => {
    const tables = [table('customers', 50, load('p1', 'j1')), table('orders', 400, load('p1', 'j1')), table('files', 9, load('p2', 'j9')), table('old', 900, load('p1', 'j0')), table('manual', 5)];
    expect(tablesLoadedBy(tables, { pipelineId: 'p1', jobId: 'j1' }).map((t) => t.name)).toEqual(['orders', 'customers']);
    expect(tablesLoadedBy(tables, { pipelineId: 'p1', jobId: 'j-unrecorded' }).map((t) => t.name)).toEqual(['old', 'orders', 'customers']);
    expect(tablesLoadedBy(tables, { pipelineId: 'p1' }).map((t) => t.name)).toEqual(['old', 'orders', 'customers']);
    expect(tablesLoadedBy(tables, { pipelineId: 'p3' })).toEqual([]);
    // a table whose rows could not be counted comes after those counted
    expect(tablesLoadedBy([table('a', null, load('p', 'j')), table('b', 0, load('p', 'j'))], { pipelineId: 'p', jobId: 'j' }).map((t) => t.name)).toEqual(['b', 'a']);
  });

  it('a first chart opens the new dataset editor on the table, and the form starts on its first rows', () => {
    expect(firstChartPath('w1', 'web_sessions')).toBe('/lab/w1/datasets?edit=new&table=web_sessions');
    expect(parseRoute(firstChartPath('w1', 'a b&c'))).toMatchObject({ name: 'labDatasets', query: { edit: 'new', table: 'a b&c' } });
    expect(datasetFormForTable('web_sessions')).toMatchObject({ title: 'Web sessions', query: 'SELECT * FROM web_sessions LIMIT 100', rawData: '', visualisation: '' });
    expect(datasetFormForTable('Order Lines').query).toBe('SELECT * FROM "Order Lines" LIMIT 100');
    expect(tableTitle('__')).toBe('__');
    // with its columns: rows counted by the first column that groups them (not an id, key, email or name)
    const sessions = { name: 'first_import_web_sessions', columns: [{ name: 'id', type: 'text' }, { name: 'customer_id', type: 'bigint' }, { name: 'email', type: 'text' }, { name: 'source', type: 'text' }, { name: 'device', type: 'text' }] };
    expect(datasetFormForTable(sessions)).toMatchObject({
      title: 'First import web sessions by source',
      query: 'SELECT source, count(*) AS row_count FROM first_import_web_sessions GROUP BY source ORDER BY row_count DESC, source LIMIT 20',
    });
    expect(datasetFormForTable({ name: 'events', columns: [{ name: 'Event Type', type: 'character varying' }] }).query).toBe(
      'SELECT "Event Type", count(*) AS row_count FROM events GROUP BY "Event Type" ORDER BY row_count DESC, "Event Type" LIMIT 20',
    );
    expect(datasetFormForTable({ name: 'ids', columns: [{ name: 'id', type: 'text' }, { name: 'n', type: 'bigint' }] }).query).toBe('SELECT * FROM ids LIMIT 100');
  });

  it('any table name makes a query naming exactly that table, and a title that is never empty', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 63 }), (name) => {
        const { query, title } = datasetFormForTable(name);
        const quoted = query.slice('SELECT * FROM '.length, -' LIMIT 100'.length);
        const unquoted = quoted.startsWith('"') ? quoted.slice(1, -1).replace(/""/g, '"') : quoted;
        expect(unquoted).toBe(name);
        expect(title.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('loaded data, checked by hand', () => {
  const form = (title: string, query: string) => ({ title, alias: '', description: '', tags: '', channelId: '', query, rawData: '', visualisation: '', metadata: '' });

  it('needs a store id, and opens no table for an empty name', () => {
    expect(storeTablesPath('w1', { ...embedded, id: '' })).toBeNull();
    expect(storeTablesPath('w1', { _links: embedded._links })).toBeNull();
    expect(storeTablesPath('w1', undefined)).toBeNull();
    expect(storeTablesPath('w1', embedded, '')).toBe('/lab/w1/datastores/s1');
    expect(storeTablesPath('w1', embedded, null)).toBe('/lab/w1/datastores/s1');
    expect(isCompletedRun(undefined)).toBe(false);
    expect(isCompletedRun({})).toBe(false);
  });

  it('titles a table in words: runs of _ - . and spaces as one space, the first letter capitalised', () => {
    expect(tableTitle('web__sessions')).toBe('Web sessions');
    expect(tableTitle('a-b.c')).toBe('A b c');
    expect(tableTitle('_orders_')).toBe('Orders');
    expect(tableTitle('Order   Lines')).toBe('Order Lines');
    expect(tableTitle('x')).toBe('X');
    expect(tableTitle('-')).toBe('-');
  });

  it('groups by a text column of any text type and case, never one naming each row', () => {
    const one = (name: string, type = 'text') => datasetFormForTable({ name: 't', columns: [{ name, type }] }).title;
    for (const type of ['text', 'TEXT', 'character varying', 'character', 'varchar', 'char', 'citext']) expect(one('source', type)).toBe('T by source');
    for (const type of ['bigint', 'jsonb', 'text[]', 'timestamp']) expect(one('source', type)).toBe('T');
    for (const name of ['id', 'uuid', 'guid', 'key', 'hash', 'email', 'name', 'url', 'token', 'code', 'user_ID', 'page_url', 'Name']) expect(one(name)).toBe('T');
    for (const name of ['valid', 'keys', 'zipcode', 'names_list', 'idea']) expect(one(name)).toBe(`T by ${name.replace(/_/g, ' ')}`);
    expect(datasetFormForTable({ name: 't' })).toEqual(form('T', 'SELECT * FROM t LIMIT 100'));
  });

  it('writes the whole form of a grouped first chart, its title in words', () => {
    expect(datasetFormForTable({ name: 'web_sessions', columns: [{ name: 'id', type: 'text' }, { name: 'traffic-source.kind', type: 'text' }, { name: 'device', type: 'text' }] })).toEqual(
      form(
        'Web sessions by traffic source kind',
        'SELECT "traffic-source.kind", count(*) AS row_count FROM web_sessions GROUP BY "traffic-source.kind" ORDER BY row_count DESC, "traffic-source.kind" LIMIT 20',
      ),
    );
    expect(datasetFormForTable({ name: 'e', columns: [{ name: '__', type: 'text' }] }).title).toBe('E by __');
    expect(datasetFormForTable({ name: 'e', columns: [{ name: '_traffic--source_', type: 'text' }] }).title).toBe('E by traffic source');
  });

  it('finds the biggest stream among finite counts, ties by name', () => {
    expect(biggestStream({ rowsByStream: { a: Number.POSITIVE_INFINITY, b: 3, c: Number.NaN } })).toBe('b');
    expect(biggestStream({ rowsByStream: { z: 5, y: 5, x: 4 } })).toBe('y');
    expect(biggestStream({ rowsByStream: { small: 1, big: 10 } })).toBe('big');
    expect(biggestStream({ rowsByStream: null })).toBeNull();
    expect(biggestStream({})).toBeNull();
  });

  it('prefers the shortest prefixed table, then the first by name', () => {
    const named = (...names: string[]) => names.map((name) => ({ name }));
    expect(tableNamed(named('bb_orders', 'aa_orders', 'a_orders_x'), 'orders')?.name).toBe('aa_orders');
    expect(tableNamed(named('long_orders', 'x_orders'), 'orders')?.name).toBe('x_orders');
    expect(tableNamed(named('_orders'), 'orders')?.name).toBe('_orders');
    expect(tableNamed([], 'orders')).toBeUndefined();
  });

  it("takes the pipeline's tables when the job is not on any load, and null rows last", () => {
    const tables = [table('b', 5, load('p1', 'j0')), table('a', 5, load('p1', 'j0')), table('c', null, load('p1', 'j0'))];
    expect(tablesLoadedBy(tables, { pipelineId: 'p1', jobId: null }).map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(tablesLoadedBy(tables, { pipelineId: 'p1', jobId: '' }).map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(tables.map((t) => t.name)).toEqual(['b', 'a', 'c']);
    // an uncounted table after one of 0 rows, whichever comes first
    expect(tablesLoadedBy([table('b', 0, load('p', 'j')), table('a', null, load('p', 'j'))], { pipelineId: 'p', jobId: 'j' }).map((t) => t.name)).toEqual(['b', 'a']);
  });
});
