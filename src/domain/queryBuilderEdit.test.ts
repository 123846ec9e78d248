import { describe, expect, it } from 'vitest';
import { emptyQuery, type QueryAggregate, type QueryFilter, type QuerySort, type QueryState } from './queryBuilder';
import { applyQueryEdit, editQuery, initialQueryMode } from './queryBuilderEdit';

// The builder's edits checked by hand, on states written out in full (queryBuilder.test.ts checks
// them through the SQL they write, where normalising hides how a list was edited).

const ORDERS = 'orders';
const ref = (column: string, table = ORDERS) => ({ table, column });
const filter = (column: string, value = 'x'): QueryFilter => ({ column: ref(column), operator: '=', value });
const byAggregate = (index: number, direction: 'asc' | 'desc' = 'asc'): QuerySort => ({ key: { kind: 'aggregate', index }, direction });
const byColumn = (column: string): QuerySort => ({ key: { kind: 'column', column: ref(column) }, direction: 'desc' });
const state = (parts: Partial<QueryState> = {}): QueryState => ({ ...emptyQuery(ORDERS), limit: 100, ...parts });

describe('editQuery places an item in a list', () => {
  const two = state({ filters: [filter('a'), filter('b')] });

  it('replaces the item at an index, removes it with null, and adds one at the length', () => {
    expect(editQuery(two, { type: 'filter', index: 0, filter: filter('c') })).toEqual(state({ filters: [filter('c'), filter('b')] }));
    expect(editQuery(two, { type: 'filter', index: 1, filter: filter('c') })).toEqual(state({ filters: [filter('a'), filter('c')] }));
    expect(editQuery(two, { type: 'filter', index: 0, filter: null })).toEqual(state({ filters: [filter('b')] }));
    expect(editQuery(two, { type: 'filter', index: 1, filter: null })).toEqual(state({ filters: [filter('a')] }));
    expect(editQuery(two, { type: 'filter', index: 2, filter: filter('c') })).toEqual(state({ filters: [filter('a'), filter('b'), filter('c')] }));
  });

  it.each([2, 3, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY])('leaves the state as it is for a removal at %s', (index) => {
    expect(editQuery(two, { type: 'filter', index, filter: null })).toBe(two);
  });

  it.each([3, -1, 0.5, Number.NaN])('leaves the state as it is for a pick at %s', (index) => {
    expect(editQuery(two, { type: 'filter', index, filter: filter('c') })).toBe(two);
    expect(editQuery(two, { type: 'sort', index, sort: byColumn('c') })).toBe(two);
    expect(editQuery(two, { type: 'aggregate', index, aggregate: { fn: 'count', column: null, alias: 'n' } })).toBe(two);
  });

  it('places sorts the same way', () => {
    const sorted = state({ sort: [byColumn('a'), byColumn('b')] });
    expect(editQuery(sorted, { type: 'sort', index: 0, sort: null })).toEqual(state({ sort: [byColumn('b')] }));
    expect(editQuery(sorted, { type: 'sort', index: 1, sort: byColumn('c') })).toEqual(state({ sort: [byColumn('a'), byColumn('c')] }));
    expect(editQuery(sorted, { type: 'sort', index: 2, sort: byColumn('c') })).toEqual(state({ sort: [byColumn('a'), byColumn('b'), byColumn('c')] }));
  });
});

describe('editQuery on aggregates', () => {
  const count: QueryAggregate = { fn: 'count', column: null, alias: 'row_count' };
  const sumAmount: QueryAggregate = { fn: 'sum', column: ref('amount'), alias: 'sum_amount' };
  const edit = (aggregates: QueryAggregate[], aggregate: QueryAggregate | null, index = 0) => editQuery(state({ aggregates }), { type: 'aggregate', index, aggregate })?.aggregates;

  it('lets a name the builder gave follow the function and column it names', () => {
    // the alias is left empty: normalising names it again ('sum_amount')
    expect(edit([count], { ...sumAmount, alias: 'row_count' })).toEqual([{ ...sumAmount, alias: '' }]);
    expect(edit([sumAmount], { fn: 'avg', column: ref('amount'), alias: 'sum_amount' })).toEqual([{ fn: 'avg', column: ref('amount'), alias: '' }]);
    expect(edit([sumAmount], { fn: 'sum', column: ref('tax'), alias: 'sum_amount' })).toEqual([{ fn: 'sum', column: ref('tax'), alias: '' }]);
    expect(edit([sumAmount], { fn: 'sum', column: null, alias: 'sum_amount' })).toEqual([{ fn: 'sum', column: null, alias: '' }]);
    expect(edit([count], { fn: 'count', column: ref('amount'), alias: 'row_count' })).toEqual([{ fn: 'count', column: ref('amount'), alias: '' }]);
  });

  it('keeps a name the analyst gave, a name changed in the same pick, and a name whose aggregate did not change', () => {
    expect(edit([{ ...count, alias: 'n' }], { ...sumAmount, alias: 'n' })).toEqual([{ ...sumAmount, alias: 'n' }]);
    expect(edit([count], { ...sumAmount, alias: 'total' })).toEqual([{ ...sumAmount, alias: 'total' }]);
    expect(edit([sumAmount], sumAmount)).toEqual([sumAmount]);
    // the same column picked again is the same column, whatever object the view sends
    expect(edit([sumAmount], { fn: 'sum', column: ref('amount'), alias: 'sum_amount' })).toEqual([sumAmount]);
    expect(edit([count], count)).toEqual([count]);
    // a new aggregate keeps the name it comes with
    expect(edit([count], { ...sumAmount, alias: 'row_count' }, 1)).toEqual([count, { ...sumAmount, alias: 'row_count' }]);
  });

  it('takes the sorts of a removed aggregate with it, and moves those of the ones after it up', () => {
    const aggregates: QueryAggregate[] = [count, sumAmount, { fn: 'max', column: ref('amount'), alias: 'max_amount' }];
    const sort = [byAggregate(0), byColumn('status'), byAggregate(1, 'desc'), byAggregate(2)];
    expect(editQuery(state({ aggregates, sort }), { type: 'aggregate', index: 1, aggregate: null })).toEqual(
      state({ aggregates: [count, aggregates[2]!], sort: [byAggregate(0), byColumn('status'), byAggregate(1)] }),
    );
    // replacing one keeps every sort where it was
    expect(editQuery(state({ aggregates, sort }), { type: 'aggregate', index: 1, aggregate: { ...sumAmount, alias: 'total' } })?.sort).toEqual(sort);
  });
});

describe('editQuery on tables, joins, columns and the limit', () => {
  const customers = { table: 'customers', column: 'id', from: ref('customer_id') };
  const sessions = { table: 'web_sessions', column: 'id', from: ref('session_id') };

  it('removes the one join named', () => {
    expect(editQuery(state({ joins: [customers, sessions] }), { type: 'removeJoin', table: 'customers' })).toEqual(state({ joins: [sessions] }));
    expect(editQuery(state({ joins: [customers, sessions] }), { type: 'removeJoin', table: 'web_sessions' })).toEqual(state({ joins: [customers] }));
  });

  it('starts over on another table with the limit kept, and nothing but a table without one', () => {
    expect(editQuery(state({ columns: [ref('id')], limit: 7 }), { type: 'table', table: 'customers' })).toEqual({ ...emptyQuery('customers'), limit: 7 });
    expect(editQuery(null, { type: 'table', table: 'customers' })).toEqual({ ...emptyQuery('customers'), limit: 100 });
    const same = state({ columns: [ref('id')] });
    expect(editQuery(same, { type: 'table', table: ORDERS })).toBe(same);
    expect(editQuery(null, { type: 'limit', limit: 5 })).toBeNull();
    expect(editQuery(state(), { type: 'limit', limit: null })).toEqual(state({ limit: null }));
  });
});

describe('applyQueryEdit and the opening mode', () => {
  it('keeps blank SQL as typed when the pick makes no query', () => {
    expect(applyQueryEdit('  \n', { type: 'table', table: '' })).toBe('  \n');
    expect(applyQueryEdit('  \n', { type: 'table', table: ORDERS })).toBe('SELECT *\nFROM "orders"\nLIMIT 100');
  });

  it('opens in the builder only a query it reads', () => {
    expect(initialQueryMode('')).toBe('sql');
    expect(initialQueryMode('  ')).toBe('sql');
    expect(initialQueryMode('SELECT 1')).toBe('sql');
    expect(initialQueryMode('select * from orders')).toBe('build');
  });
});
