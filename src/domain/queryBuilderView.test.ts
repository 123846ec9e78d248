import { describe, expect, it } from 'vitest';
import { applyQueryEdit, type QueryEdit } from './queryBuilderEdit';
import { aggregateColumns, describeQueryBuilder, isNumericType, joinChoices, refOfKey, sortKeyOf, type BuilderTable, type ColumnChoice } from './queryBuilderView';
import { emptyQuery } from './queryBuilder';

// What the query builder shows, checked by hand on whole views (queryBuilder.test.ts walks the
// main paths through the SQL the builder writes).

const ref = (column: string, table = 'orders') => ({ table, column });
const apply = (...edits: QueryEdit[]) => edits.reduce(applyQueryEdit, '');
const TABLES: BuilderTable[] = [
  { name: 'orders', columns: [{ name: 'id', type: 'bigint' }, { name: 'customer_id', type: 'bigint' }, { name: 'status', type: 'text' }, { name: 'amount', type: 'numeric' }] },
  { name: 'customers', columns: [{ name: 'id', type: 'bigint' }, { name: 'name', type: 'text' }] },
];
const choice = (column: string, type: string | null, numeric: boolean, table = 'orders', label = column): ColumnChoice => ({ key: JSON.stringify([table, column]), ref: ref(column, table), label, type, numeric });

describe('query builder view, checked by hand', () => {
  it('reads the types of numbers, trimmed and in any case', () => {
    for (const type of ['smallint', 'integer', 'bigint', 'int', 'int2', 'int4', 'int8', 'numeric', 'numeric(10,2)', 'decimal', 'real', 'double precision', 'float', 'float4', 'float8', 'money', ' integer ', 'BIGINT']) {
      expect(isNumericType(type)).toBe(true);
    }
    for (const type of ['text', 'int16', 'integers', 'interval', 'point', 'bigserial x', 'timestamp', 'character varying', '']) expect(isNumericType(type)).toBe(false);
    expect(isNumericType(null)).toBe(false);
  });

  it('offers a sum the numbers, and the column it reads now', () => {
    const columns = [choice('id', 'bigint', true), choice('status', 'text', false), choice('amount', 'numeric', true)];
    expect(aggregateColumns('sum', columns, ref('status'))).toEqual(columns);
    expect(aggregateColumns('avg', columns, ref('other'))).toEqual([columns[0], columns[2]]);
    expect(aggregateColumns('max', columns, null)).toEqual(columns);
  });

  it('reads back only a key of two texts', () => {
    expect(refOfKey('["orders","id"]')).toEqual(ref('id'));
    for (const key of ['["orders"]', '["orders","id","x"]', '[1,"id"]', '["orders",2]', '{"0":"orders","1":"id","length":2}', 'null', '"orders"']) expect(refOfKey(key)).toBeNull();
  });

  it('names a sort key by its kind', () => {
    expect(sortKeyOf({ kind: 'aggregate', index: 2 })).toBe('aggregate:2');
    expect(sortKeyOf({ kind: 'column', column: ref('id') })).toBe('column:["orders","id"]');
  });

  it('joins along <x>_id to x, xs, xes and (for a y) xies, from the table each column is in, to tables with an id', () => {
    const tables: BuilderTable[] = [
      { name: 'orders', columns: [{ name: 'customer_id', type: 'bigint' }] },
      { name: 'items', columns: [{ name: 'box_id', type: 'bigint' }, { name: 'part_id', type: 'bigint' }, { name: 'category_id', type: 'bigint' }, { name: 'Region_ID', type: 'bigint' }, { name: 'order_id_old', type: 'bigint' }, { name: 'customer_identity', type: 'text' }, { name: 'shelf_id', type: 'bigint' }] },
      { name: 'boxes', columns: [{ name: 'id', type: 'bigint' }] },
      { name: 'parties', columns: [{ name: 'id', type: 'bigint' }] },
      // only a stem ending in y takes -ies: part_id names no table 'paries'
      { name: 'paries', columns: [{ name: 'id', type: 'bigint' }] },
      { name: 'shop_categories', columns: [{ name: 'id', type: 'bigint' }] },
      { name: 'region', columns: [{ name: 'id', type: 'bigint' }] },
      { name: 'shelf', columns: [{ name: 'label', type: 'text' }] },
      { name: 'customers', columns: [{ name: 'id', type: 'bigint' }] },
    ];
    const join = (column: string, table: string) => ({ key: JSON.stringify(['items', column, table]), join: { table, column: 'id', from: ref(column, 'items') }, label: `${table} on items.${column}` });
    expect(joinChoices(emptyQuery('items'), tables)).toEqual([join('box_id', 'boxes'), join('category_id', 'shop_categories'), join('Region_ID', 'region')]);
  });

  it('describes no query yet: the tables, nothing else', () => {
    expect(describeQueryBuilder('', TABLES)).toEqual({ ok: true, state: null, tables: ['orders', 'customers'], columns: [], joinChoices: [], joined: [], summarised: false, sortChoices: [], hints: ['Pick a table to start.'] });
  });

  it('lists each column once, and the columns the SQL names that the store does not', () => {
    const sql = apply(
      { type: 'table', table: 'orders' },
      { type: 'columns', columns: [ref('status'), ref('gone')] },
    );
    const view = describeQueryBuilder(sql, TABLES);
    expect(view.ok && view.columns).toEqual([choice('id', 'bigint', true), choice('customer_id', 'bigint', true), choice('status', 'text', false), choice('amount', 'numeric', true), choice('gone', null, false)]);
    const summed = describeQueryBuilder(apply({ type: 'table', table: 'orders' }, { type: 'aggregate', index: 0, aggregate: { fn: 'sum', column: ref('paid'), alias: '' } }, { type: 'sort', index: 0, sort: { key: { kind: 'column', column: ref('due') }, direction: 'asc' } }), TABLES);
    expect(summed.ok && summed.columns.slice(4)).toEqual([choice('paid', null, false)]);
    const sorted = describeQueryBuilder(apply({ type: 'table', table: 'orders' }, { type: 'sort', index: 0, sort: { key: { kind: 'column', column: ref('due') }, direction: 'asc' } }), TABLES);
    expect(sorted.ok && sorted.columns.slice(4)).toEqual([choice('due', null, false)]);
    expect(sorted.ok && sorted.sortChoices.map((s) => s.key)).toEqual(['id', 'customer_id', 'status', 'amount', 'due'].map((column) => `column:${JSON.stringify(['orders', column])}`));
  });

  it('lists no column for a count or a sort by an aggregate', () => {
    const sql = apply(
      { type: 'table', table: 'orders' },
      { type: 'groupBy', columns: [ref('status')] },
      { type: 'aggregate', index: 0, aggregate: { fn: 'count', column: null, alias: '' } },
      { type: 'sort', index: 0, sort: { key: { kind: 'aggregate', index: 0 }, direction: 'desc' } },
    );
    const view = describeQueryBuilder(sql, TABLES);
    expect(view.ok && view.columns).toEqual([choice('id', 'bigint', true), choice('customer_id', 'bigint', true), choice('status', 'text', false), choice('amount', 'numeric', true)]);
    expect(view.ok && view.sortChoices).toEqual([
      { key: 'column:["orders","status"]', sortKey: { kind: 'column', column: ref('status') }, label: 'status' },
      { key: 'aggregate:0', sortKey: { kind: 'aggregate', index: 0 }, label: 'row_count' },
    ]);
  });

  it('says nothing of missing tables when the store lists none', () => {
    const view = describeQueryBuilder(apply({ type: 'table', table: 'orders' }), []);
    expect(view).toEqual({ ok: true, state: { ...emptyQuery('orders'), limit: 100 }, tables: ['orders'], columns: [], joinChoices: [], joined: [], summarised: false, sortChoices: [], hints: [] });
  });

  it('says when two result columns share a name', () => {
    const both = 'SELECT "orders"."id", "customers"."id" FROM "orders" LEFT JOIN "customers" ON "customers"."id" = "orders"."customer_id"';
    const view = describeQueryBuilder(both, TABLES);
    expect(view.ok && view.hints).toEqual(['Two result columns are both named id: the preview shows one of them.']);
    const grouped = describeQueryBuilder(`${both} GROUP BY "orders"."id", "customers"."id"`, TABLES);
    expect(grouped.ok && grouped.hints).toEqual(['Two result columns are both named id: the preview shows one of them.']);
    expect(describeQueryBuilder('SELECT status, id FROM orders', TABLES)).toMatchObject({ ok: true, hints: [] });
    expect(describeQueryBuilder('SELECT status, customer_id, count(*) AS n, sum(amount) AS s FROM orders GROUP BY status, customer_id', TABLES)).toMatchObject({ ok: true, hints: [] });
  });

  it('asks for a value only where the operator takes one, and an adding-up only of a listed column that is not numbers', () => {
    const filtered = apply(
      { type: 'table', table: 'orders' },
      { type: 'filter', index: 0, filter: { column: ref('status'), operator: 'is empty', value: '' } },
      { type: 'filter', index: 1, filter: { column: ref('status'), operator: '=', value: 'paid' } },
      { type: 'filter', index: 2, filter: { column: ref('status'), operator: '≠', value: '' } },
    );
    expect(describeQueryBuilder(filtered, TABLES)).toMatchObject({ ok: true, hints: ['Filter 3 compares with empty text: type a value.'] });
    const summed = apply(
      { type: 'table', table: 'orders' },
      { type: 'aggregate', index: 0, aggregate: { fn: 'count', column: null, alias: '' } },
      { type: 'aggregate', index: 1, aggregate: { fn: 'min', column: ref('status'), alias: '' } },
      { type: 'aggregate', index: 2, aggregate: { fn: 'sum', column: ref('amount'), alias: '' } },
      { type: 'aggregate', index: 3, aggregate: { fn: 'avg', column: ref('paid'), alias: '' } },
      { type: 'aggregate', index: 4, aggregate: { fn: 'avg', column: ref('status'), alias: '' } },
    );
    expect(describeQueryBuilder(summed, TABLES)).toMatchObject({ ok: true, hints: ['avg_status adds up status, which is not a column of numbers.'] });
  });

  it('offers a system table only when the query already reads it', () => {
    const view = describeQueryBuilder(apply({ type: 'table', table: 'pg_stats' }), [...TABLES, { name: 'pg_stats', columns: [] }]);
    expect(view.ok && view.tables).toEqual(['pg_stats', 'orders', 'customers']);
  });
});
