import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HUGE_TEXTS, hostileString, hostileStringWithHuge } from './hostile.fixture';
import { datasetFormForTable } from './loadedData';
import { defaultAlias, emptyQuery, MAX_LIMIT, normaliseQuery, queryProblem, quoteName, quoteText, sameQuery, truncateName, writeQuery, type QueryState } from './queryBuilder';
import { applyQueryEdit, editQuery, initialQueryMode, type QueryEdit } from './queryBuilderEdit';
import { builderEdit, builderState } from './queryBuilder.fixture';
import { readQuery } from './queryBuilderRead';
import { aggregateColumns, describeQueryBuilder, refKey, refOfKey, withFunction, type BuilderTable } from './queryBuilderView';

const ORDERS = 'orders';
const col = (column: string, table = ORDERS) => ({ table, column });
const TABLES: BuilderTable[] = [
  { name: 'orders', columns: [{ name: 'id', type: 'bigint' }, { name: 'customer_id', type: 'bigint' }, { name: 'status', type: 'text' }, { name: 'amount', type: 'double precision' }, { name: 'ordered_at', type: 'timestamp with time zone' }] },
  { name: 'customers', columns: [{ name: 'id', type: 'bigint' }, { name: 'name', type: 'text' }, { name: 'country', type: 'text' }] },
  { name: 'web_sessions', columns: [{ name: 'id', type: 'text' }, { name: 'source', type: 'text' }] },
  { name: 'pg_stats', columns: [{ name: 'id', type: 'bigint' }] },
];

const apply = (sql: string, ...edits: QueryEdit[]) => edits.reduce(applyQueryEdit, sql);
const stateOf = (sql: string): QueryState => {
  const read = readQuery(sql);
  if (!read.ok || read.state === null) throw new Error(read.ok ? 'no query' : read.problem);
  return read.state;
};

describe('the query builder writes SQL from picks', () => {
  it('starts on a table with its first rows, then counts them by a column, most first', () => {
    const start = apply('', { type: 'table', table: ORDERS });
    expect(start).toBe('SELECT *\nFROM "orders"\nLIMIT 100');
    const counted = apply(
      start,
      { type: 'groupBy', columns: [col('status')] },
      { type: 'aggregate', index: 0, aggregate: { fn: 'count', column: null, alias: '' } },
      { type: 'sort', index: 0, sort: { key: { kind: 'aggregate', index: 0 }, direction: 'desc' } },
    );
    expect(counted).toBe('SELECT "status", count(*) AS "row_count"\nFROM "orders"\nGROUP BY "status"\nORDER BY "row_count" DESC\nLIMIT 100');
  });

  it('writes every filter with its value as a literal, and every aggregate', () => {
    const operators = ['=', '≠', '<', '≤', '>', '≥', 'contains', 'starts with', 'is empty', 'is not empty'] as const;
    const sql = writeQuery({
      ...emptyQuery(ORDERS),
      filters: operators.map((operator) => ({ column: col('status'), operator, value: "it's" })),
      groupBy: [col('status')],
      aggregates: [
        { fn: 'count', column: null, alias: '' },
        { fn: 'sum', column: col('amount'), alias: '' },
        { fn: 'avg', column: col('amount'), alias: 'mean' },
        { fn: 'min', column: col('ordered_at'), alias: '' },
        { fn: 'max', column: col('ordered_at'), alias: '' },
        { fn: 'distinct count', column: col('customer_id'), alias: '' },
      ],
    });
    expect(sql).toBe(
      [
        'SELECT "status", count(*) AS "row_count", sum("amount") AS "sum_amount", avg("amount") AS "mean", min("ordered_at") AS "min_ordered_at", max("ordered_at") AS "max_ordered_at", count(DISTINCT "customer_id") AS "distinct_customer_id"',
        'FROM "orders"',
        `WHERE "status" = 'it''s'`,
        `  AND "status" <> 'it''s'`,
        `  AND "status" < 'it''s'`,
        `  AND "status" <= 'it''s'`,
        `  AND "status" > 'it''s'`,
        `  AND "status" >= 'it''s'`,
        `  AND strpos(lower("status"::text), lower('it''s')) > 0`,
        `  AND starts_with(lower("status"::text), lower('it''s'))`,
        `  AND coalesce("status"::text, '') = ''`,
        `  AND coalesce("status"::text, '') <> ''`,
        'GROUP BY "status"',
      ].join('\n'),
    );
  });

  it('quotes every name and escapes every value, a backslash in an escape string', () => {
    expect(quoteName('a"b')).toBe('"a""b"');
    expect(quoteText("o'k")).toBe("'o''k'");
    expect(quoteText("\\'; DROP TABLE x; --")).toBe("E'\\\\''; DROP TABLE x; --'");
    const sql = writeQuery({ ...emptyQuery('we"ird'), columns: [col('SELECT', 'we"ird')], filters: [{ column: col('x', 'we"ird'), operator: '=', value: "'; DROP TABLE orders; --" }] });
    expect(sql).toBe(`SELECT "SELECT"\nFROM "we""ird"\nWHERE "x" = '''; DROP TABLE orders; --'`);
  });

  it('joins along an obvious key and names each column with its table', () => {
    const sql = apply(
      apply('', { type: 'table', table: ORDERS }),
      { type: 'join', join: { table: 'customers', column: 'id', from: col('customer_id') } },
      { type: 'groupBy', columns: [col('country', 'customers')] },
      { type: 'aggregate', index: 0, aggregate: { fn: 'sum', column: col('amount'), alias: 'revenue' } },
      { type: 'sort', index: 0, sort: { key: { kind: 'column', column: col('country', 'customers') }, direction: 'asc' } },
    );
    expect(sql).toBe(
      'SELECT "customers"."country", sum("orders"."amount") AS "revenue"\nFROM "orders"\nLEFT JOIN "customers" ON "customers"."id" = "orders"."customer_id"\nGROUP BY "customers"."country"\nORDER BY "customers"."country" ASC\nLIMIT 100',
    );
    // removing the join takes what was read through it along
    expect(apply(sql, { type: 'removeJoin', table: 'customers' })).toBe('SELECT sum("amount") AS "revenue"\nFROM "orders"\nLIMIT 100');
  });

  it('keeps result names apart and sorts following their aggregate', () => {
    let sql = apply('', { type: 'table', table: ORDERS }, { type: 'groupBy', columns: [col('status')] });
    sql = apply(sql, { type: 'aggregate', index: 0, aggregate: { fn: 'count', column: null, alias: 'status' } }, { type: 'aggregate', index: 1, aggregate: { fn: 'count', column: null, alias: '' } });
    expect(stateOf(sql).aggregates.map((a) => a.alias)).toEqual(['status_2', 'row_count']);
    sql = apply(sql, { type: 'sort', index: 0, sort: { key: { kind: 'aggregate', index: 1 }, direction: 'desc' } });
    // a builder-given name follows its aggregate; the sort follows it by place
    sql = apply(sql, { type: 'aggregate', index: 1, aggregate: { fn: 'max', column: col('amount'), alias: 'row_count' } });
    expect(sql).toContain('max("amount") AS "max_amount"');
    expect(sql).toContain('ORDER BY "max_amount" DESC');
    // removing the first aggregate moves the sort's place with it; removing its own drops the sort
    sql = apply(sql, { type: 'aggregate', index: 0, aggregate: null });
    expect(stateOf(sql).sort).toEqual([{ key: { kind: 'aggregate', index: 0 }, direction: 'desc' }]);
    expect(stateOf(apply(sql, { type: 'aggregate', index: 0, aggregate: null })).sort).toEqual([]);
  });

  it('a summary shows its groups: picked columns give way, and sorts by ungrouped columns go', () => {
    const rows = apply('', { type: 'table', table: ORDERS }, { type: 'columns', columns: [col('status'), col('amount')] }, { type: 'sort', index: 0, sort: { key: { kind: 'column', column: col('amount') }, direction: 'desc' } });
    expect(rows).toBe('SELECT "status", "amount"\nFROM "orders"\nORDER BY "amount" DESC\nLIMIT 100');
    expect(apply(rows, { type: 'groupBy', columns: [col('status')] })).toBe('SELECT "status"\nFROM "orders"\nGROUP BY "status"\nLIMIT 100');
  });

  it('another table starts over, keeping the limit; clearing the limit drops it', () => {
    const sql = apply('', { type: 'table', table: ORDERS }, { type: 'limit', limit: 20 }, { type: 'columns', columns: [col('status')] }, { type: 'table', table: 'customers' });
    expect(sql).toBe('SELECT *\nFROM "customers"\nLIMIT 20');
    expect(apply(sql, { type: 'limit', limit: null })).toBe('SELECT *\nFROM "customers"');
    expect(apply(sql, { type: 'limit', limit: 0 })).toBe('SELECT *\nFROM "customers"');
    expect(apply(sql, { type: 'limit', limit: MAX_LIMIT + 1 })).toBe('SELECT *\nFROM "customers"');
  });

  it('names are cut to the 63 bytes PostgreSQL keeps, never inside a character', () => {
    expect(truncateName('a'.repeat(70))).toBe('a'.repeat(63));
    expect(truncateName('é'.repeat(40))).toBe('é'.repeat(31));
    expect(truncateName('😀'.repeat(20))).toBe('😀'.repeat(15));
  });
});

describe('the query builder reads back what it wrote, and leaves other SQL alone', () => {
  it("reads the first chart's query of a table ('Build your first chart')", () => {
    const { query } = datasetFormForTable({ name: 'web_sessions', columns: [{ name: 'id', type: 'text' }, { name: 'source', type: 'text' }] });
    expect(stateOf(query)).toEqual({
      table: 'web_sessions',
      joins: [],
      columns: [],
      filters: [],
      groupBy: [col('source', 'web_sessions')],
      aggregates: [{ fn: 'count', column: null, alias: 'row_count' }],
      sort: [
        { key: { kind: 'aggregate', index: 0 }, direction: 'desc' },
        { key: { kind: 'column', column: col('source', 'web_sessions') }, direction: 'asc' },
      ],
      limit: 20,
    });
    expect(stateOf(datasetFormForTable('orders').query)).toMatchObject({ table: 'orders', columns: [], limit: 100 });
    expect(initialQueryMode(query)).toBe('build');
  });

  it('reads hand-typed SQL in its grammar: any case, bare names folded, no AS, numbers, a semicolon', () => {
    expect(stateOf("select Status, COUNT(*) from Orders where amount >= 10.5 and status != 'x' group by status order by count desc limit 5;")).toEqual({
      table: 'orders',
      joins: [],
      columns: [],
      filters: [
        { column: col('amount'), operator: '≥', value: '10.5' },
        { column: col('status'), operator: '≠', value: 'x' },
      ],
      groupBy: [col('status')],
      aggregates: [{ fn: 'count', column: null, alias: 'count' }],
      sort: [{ key: { kind: 'aggregate', index: 0 }, direction: 'desc' }],
      limit: 5,
    });
    expect(stateOf("SELECT * FROM t WHERE a = -1 AND b = E'x\\\\y\\'z'").filters.map((f) => f.value)).toEqual(['-1', "x\\y'z"]);
    expect(readQuery('   ')).toEqual({ ok: true, state: null });
  });

  it.each([
    ['select month, revenue from demo.orders', /with its schema/],
    ['SELECT 1', /something else at "1"/],
    ['SELECT * FROM orders -- all of it', /comment/],
    ['SELECT * FROM orders /* x */', /comment/],
    ['SELECT * FROM orders o', /alias/],
    ['SELECT status AS s FROM orders', /renames a column/],
    ['SELECT DISTINCT status FROM orders', /DISTINCT/],
    ['SELECT * FROM orders WHERE a = 1 OR b = 2', /OR/],
    ['SELECT * FROM orders WHERE (a = 1)', /something else/],
    ['SELECT status, count(*) FROM orders GROUP BY status HAVING count(*) > 1', /HAVING/],
    ['SELECT * FROM orders ORDER BY a NULLS LAST', /NULLS/],
    ['SELECT count(amount) FROM orders', /counts the values of a column/],
    ['SELECT status, count(*) FROM orders', /without grouping/],
    ['SELECT count(*) FROM orders GROUP BY status', /without showing it/],
    ['SELECT count(*) AS n, status FROM orders GROUP BY status', /groups first/],
    ['SELECT * FROM orders JOIN customers ON customers.id = orders.customer_id', /inner join/],
    ['SELECT status FROM orders LEFT JOIN customers ON customers.id = orders.customer_id', /names each column with its table/],
    ['SELECT orders.status FROM orders LEFT JOIN customers ON customers.id = customers.x', /joins customers on something other/],
    ['SELECT x.status FROM orders', /x is not a table of the query/],
    ['SELECT status, count(*) AS status FROM orders GROUP BY status', /both named status/],
    ['SELECT status, status FROM orders', /shows orders.status twice/],
    ['SELECT * FROM orders LIMIT 0', /limit is beyond/],
    ['SELECT * FROM orders LIMIT 99999999999999', /limit is beyond/],
    ["SELECT * FROM orders WHERE a = N'x'", /N'…'/],
    ["SELECT * FROM orders WHERE a = E'\\n'", /escape/],
    ["SELECT * FROM orders WHERE a = 'x", /not closed/],
    ['SELECT * FROM ""', /empty quoted name/],
    ['SELECT * FROM orders WHERE a = $1', /"\$"/],
    ['SELECT * FROM orders; SELECT 1', /something else/],
    ['SELECT * FROM orders WHERE a =-1', /something else/],
    ['SELECT * FROM select', /something else/],
  ])('%s is not readable (%s)', (sql, problem) => {
    const read = readQuery(sql);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problem).toMatch(problem);
    expect(initialQueryMode(sql)).toBe('sql');
    // and a pick leaves it exactly as it is
    expect(applyQueryEdit(sql, { type: 'table', table: ORDERS })).toBe(sql);
  });

  it('a pick that changes nothing keeps the SQL as typed', () => {
    const typed = 'select status, count(*) as n from orders group by status';
    expect(applyQueryEdit(typed, { type: 'groupBy', columns: [col('status')] })).toBe(typed);
    expect(applyQueryEdit(typed, { type: 'table', table: ORDERS })).toBe(typed);
    expect(applyQueryEdit('', { type: 'limit', limit: 3 })).toBe('');
    expect(applyQueryEdit('', { type: 'table', table: '' })).toBe('');
  });
});

describe('query builder properties', () => {
  it('normalising is idempotent, and writing reads back as the normal state', () => {
    fc.assert(
      fc.property(builderState, (state) => {
        const normal = normaliseQuery(state);
        expect(normaliseQuery(normal)).toEqual(normal);
        expect(queryProblem(normal)).toBeNull();
        expect(queryProblem(state) === null).toBe(sameQuery(normal, state));
        const sql = writeQuery(state);
        expect(writeQuery(normal)).toBe(sql);
        if (normal.table === '') {
          expect(sql).toBe('');
          return;
        }
        expect(readQuery(sql)).toEqual({ ok: true, state: normal });
        expect(initialQueryMode(sql)).toBe('build');
      }),
      { numRuns: 400 },
    );
  });

  it('any text: reading never throws, and what it reads it writes back the same', () => {
    const sqlish = fc.oneof(
      hostileStringWithHuge,
      builderState.map(writeQuery),
      // what the builder writes, cut or spliced with hostile text
      fc.tuple(builderState.map(writeQuery), fc.nat(), hostileString).map(([sql, at, extra]) => sql.slice(0, at % (sql.length + 1)) + extra + sql.slice(at % (sql.length + 1))),
    );
    fc.assert(
      fc.property(sqlish, (sql) => {
        const read = readQuery(sql);
        if (!read.ok) {
          expect(read.problem.length).toBeGreaterThan(0);
          expect(applyQueryEdit(sql, { type: 'table', table: ORDERS })).toBe(sql);
          return;
        }
        if (read.state === null) return;
        expect(readQuery(writeQuery(read.state))).toEqual({ ok: true, state: read.state });
      }),
      { numRuns: 400 },
    );
  });

  it('very long text is read (or refused) in one pass', () => {
    for (const huge of HUGE_TEXTS) {
      expect(readQuery(huge).ok).toBe(false);
      expect(readQuery(`SELECT ${huge}`).ok).toBe(false);
      expect(readQuery(`SELECT * FROM "${huge.replaceAll('"', '""')}"`).ok).toBe(true);
    }
  });

  it('any run of picks from no query keeps a query the builder reads', () => {
    fc.assert(
      fc.property(fc.array(builderEdit(['orders', 'customers', 'web_sessions']), { maxLength: 12 }), (edits) => {
        let sql = '';
        let state: QueryState | null = null;
        for (const edit of edits) {
          sql = applyQueryEdit(sql, edit);
          const next = editQuery(state, edit);
          state = next === null ? null : normaliseQuery(next);
          if (state?.table === '') state = null;
          const read = readQuery(sql);
          expect(read.ok).toBe(true);
          // the text and the state the picks make agree
          if (read.ok) expect(read.state === null ? null : writeQuery(read.state)).toBe(state === null ? null : writeQuery(state));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('what the query builder shows', () => {
  it('offers the store tables (not the system catalogs), the columns, and joins along <x>_id', () => {
    const sql = apply('', { type: 'table', table: ORDERS });
    const view = describeQueryBuilder(sql, TABLES);
    if (!view.ok) throw new Error(view.problem);
    expect(view.tables).toEqual(['orders', 'customers', 'web_sessions']);
    expect(view.columns.map((c) => [c.label, c.numeric])).toEqual([
      ['id', true],
      ['customer_id', true],
      ['status', false],
      ['amount', true],
      ['ordered_at', false],
    ]);
    expect(view.joinChoices.map((j) => [j.label, j.join])).toEqual([['customers on orders.customer_id', { table: 'customers', column: 'id', from: col('customer_id') }]]);
    expect(view.hints).toEqual([]);
    expect(view.sortChoices.map((s) => s.label)).toEqual(['id', 'customer_id', 'status', 'amount', 'ordered_at']);

    const joined = describeQueryBuilder(apply(sql, { type: 'join', join: view.joinChoices[0]!.join }, { type: 'groupBy', columns: [col('country', 'customers')] }, { type: 'aggregate', index: 0, aggregate: { fn: 'sum', column: col('status'), alias: '' } }), TABLES);
    if (!joined.ok) throw new Error(joined.problem);
    expect(joined.joinChoices).toEqual([]);
    expect(joined.joined).toEqual([{ table: 'customers', label: 'customers on orders.customer_id = customers.id' }]);
    expect(joined.columns.map((c) => c.label)).toContain('customers.country');
    expect(joined.sortChoices.map((s) => s.label)).toEqual(['customers.country', 'sum_status']);
    expect(joined.hints).toEqual(['sum_status adds up orders.status, which is not a column of numbers.']);
  });

  it('joins a prefixed plural table, and says what is missing', () => {
    const prefixed: BuilderTable[] = [
      { name: 'shop_order_items', columns: [{ name: 'category_id', type: 'bigint' }] },
      { name: 'shop_categories', columns: [{ name: 'id', type: 'bigint' }] },
    ];
    const view = describeQueryBuilder(apply('', { type: 'table', table: 'shop_order_items' }), prefixed);
    expect(view.ok && view.joinChoices.map((j) => j.join.table)).toEqual(['shop_categories']);
    expect(describeQueryBuilder('', prefixed)).toMatchObject({ ok: true, state: null, hints: ['Pick a table to start.'] });
    expect(describeQueryBuilder('', [])).toMatchObject({ ok: true, hints: ['The store has no tables yet: run a pipeline that loads into it.'] });
    const gone = describeQueryBuilder(apply('', { type: 'table', table: 'gone' }, { type: 'filter', index: 0, filter: { column: col('x', 'gone'), operator: '=', value: '' } }), TABLES);
    expect(gone.ok && gone.hints).toEqual(['The store lists no table gone.', 'Filter 1 compares with empty text: type a value.']);
    expect(gone.ok && gone.tables[0]).toBe('gone');
    expect(gone.ok && gone.columns.map((c) => [c.label, c.type])).toEqual([['x', null]]);
    expect(describeQueryBuilder('SELECT 1', TABLES)).toMatchObject({ ok: false });
  });

  it('another aggregate function keeps a column it may read, else takes the first it may', () => {
    const view = describeQueryBuilder(apply('', { type: 'table', table: ORDERS }), TABLES);
    if (!view.ok) throw new Error(view.problem);
    const count = { fn: 'count', column: null, alias: 'n' } as const;
    expect(withFunction(count, 'sum', view.columns)).toEqual({ fn: 'sum', column: col('id'), alias: 'n' });
    expect(withFunction({ ...count, fn: 'max', column: col('status') }, 'avg', view.columns)).toEqual({ fn: 'avg', column: col('id'), alias: 'n' });
    expect(withFunction({ ...count, fn: 'max', column: col('status') }, 'distinct count', view.columns)).toEqual({ fn: 'distinct count', column: col('status'), alias: 'n' });
    expect(withFunction({ ...count, fn: 'sum', column: col('amount') }, 'count', view.columns)).toEqual(count);
    expect(withFunction(count, 'sum', view.columns.filter((c) => !c.numeric))).toBeNull();
    expect(aggregateColumns('sum', view.columns, null).map((c) => c.label)).toEqual(['id', 'customer_id', 'amount']);
  });

  it('option keys name a column and come back as it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (table, column) => {
        expect(refOfKey(refKey({ table, column }))).toEqual({ table, column });
      }),
    );
    expect(refOfKey('nonsense')).toBeNull();
    expect(refOfKey('[1,2]')).toBeNull();
  });
});

describe('the query builder, checked by hand: names, limits and why a state is not the normal one', () => {
  const base = emptyQuery(ORDERS);

  it('an empty query is a table and nothing else', () => {
    expect(emptyQuery('t')).toEqual({ table: 't', joins: [], columns: [], filters: [], groupBy: [], aggregates: [], sort: [], limit: null });
    // no table: nothing else is kept
    expect(normaliseQuery({ ...base, table: '', columns: [col('status', '')], limit: 5 })).toEqual(emptyQuery(''));
  });

  it('counts the bytes of every width of character', () => {
    expect(truncateName('\u0080'.repeat(40))).toBe('\u0080'.repeat(31));
    expect(truncateName('\u007f'.repeat(70))).toBe('\u007f'.repeat(63));
    expect(truncateName('\u0800'.repeat(30))).toBe('\u0800'.repeat(21));
    expect(truncateName('€'.repeat(30))).toBe('€'.repeat(21));
    expect(truncateName('\u{10000}'.repeat(20))).toBe('\u{10000}'.repeat(15));
    expect(truncateName('ab', 1)).toBe('a');
  });

  it('drops NUL characters from names and values', () => {
    expect(normaliseQuery({ ...base, table: 'or\u0000ders', columns: [col('sta\u0000tus')] })).toEqual({ ...base, columns: [col('status')] });
  });

  it('names an aggregate after its function and column, a count row_count', () => {
    expect(defaultAlias('sum', col('amount'))).toBe('sum_amount');
    expect(defaultAlias('count', col('amount'))).toBe('row_count');
    expect(defaultAlias('sum', null)).toBe('row_count');
    expect(defaultAlias('distinct count', col('customer_id'))).toBe('distinct_customer_id');
  });

  it('numbers a taken name on until one is free, cut to leave room for the number', () => {
    const state = normaliseQuery({
      ...base,
      groupBy: [col('status')],
      aggregates: [
        { fn: 'count', column: null, alias: 'status' },
        { fn: 'count', column: null, alias: 'status' },
        { fn: 'count', column: null, alias: 'x'.repeat(63) },
        { fn: 'count', column: null, alias: 'x'.repeat(63) },
      ],
    });
    expect(state.aggregates.map((a) => a.alias)).toEqual(['status_2', 'status_3', 'x'.repeat(63), `${'x'.repeat(61)}_2`]);
  });

  it('keeps columns of the same name from different tables apart', () => {
    const join = { table: 'customers', column: 'id', from: col('customer_id') };
    expect(writeQuery({ ...base, joins: [join], columns: [col('id'), col('id', 'customers')] })).toBe(
      'SELECT "orders"."id", "customers"."id"\nFROM "orders"\nLEFT JOIN "customers" ON "customers"."id" = "orders"."customer_id"',
    );
  });

  it('keeps sorts by different columns and by different aggregates, each once', () => {
    const sorts = normaliseQuery({
      ...base,
      groupBy: [col('status'), col('amount')],
      aggregates: [
        { fn: 'count', column: null, alias: '' },
        { fn: 'sum', column: col('amount'), alias: '' },
      ],
      sort: [
        { key: { kind: 'column', column: col('amount') }, direction: 'asc' },
        { key: { kind: 'column', column: col('status') }, direction: 'desc' },
        { key: { kind: 'column', column: col('status') }, direction: 'asc' },
        { key: { kind: 'aggregate', index: 1 }, direction: 'desc' },
        { key: { kind: 'aggregate', index: 0 }, direction: 'asc' },
        { key: { kind: 'aggregate', index: 1 }, direction: 'asc' },
      ],
    }).sort;
    expect(sorts).toEqual([
      { key: { kind: 'column', column: col('amount') }, direction: 'asc' },
      { key: { kind: 'column', column: col('status') }, direction: 'desc' },
      { key: { kind: 'aggregate', index: 1 }, direction: 'desc' },
      { key: { kind: 'aggregate', index: 0 }, direction: 'asc' },
    ]);
  });

  it('drops an aggregate of a function it does not know', () => {
    expect(normaliseQuery({ ...base, aggregates: [{ fn: 'median' as 'sum', column: col('amount'), alias: 'm' }] }).aggregates).toEqual([]);
  });

  it('keeps a limit from 1 to the largest, whole', () => {
    expect([0, 1, 2.7, MAX_LIMIT, MAX_LIMIT + 1].map((limit) => normaliseQuery({ ...base, limit }).limit)).toEqual([null, 1, 2, MAX_LIMIT, null]);
  });

  it('compares states by value, numbers and texts too', () => {
    expect(sameQuery({ ...base, limit: 5 }, { ...base, limit: 6 })).toBe(false);
    expect(sameQuery({ ...base, limit: 5 }, { ...base, limit: 5 })).toBe(true);
    expect(sameQuery({ ...base, columns: [col('a')] }, { ...base, columns: [col('b')] })).toBe(false);
    expect(sameQuery({ ...base, columns: [col('a')] }, { ...base, columns: [] })).toBe(false);
    expect(sameQuery(base, { ...base, limit: 5 })).toBe(false);
  });

  it('says why a state is not the one it would write', () => {
    const join = { table: 'customers', column: 'id', from: col('customer_id') };
    const problems: [QueryState, string][] = [
      [{ ...base, table: 'or\u0000ders' }, 'It contains a NUL character or half a character, which PostgreSQL text cannot hold.'],
      [{ ...base, columns: [col('\ud800')] }, 'It contains a NUL character or half a character, which PostgreSQL text cannot hold.'],
      [{ ...base, joins: [join, join] }, 'It joins customers twice.'],
      [{ ...base, joins: [{ ...join, from: col('x', 'web') }] }, 'It joins customers on web, which is not joined before it.'],
      [{ ...base, groupBy: [col('status'), col('status')] }, 'It groups by orders.status twice.'],
      [{ ...base, columns: [col('status'), col('status')] }, 'It shows orders.status twice.'],
      [{ ...base, aggregates: [{ fn: 'count', column: null, alias: 'n'.repeat(70) }] }, `The name ${'n'.repeat(40)}… is longer than PostgreSQL's 63 bytes.`],
      [{ ...base, groupBy: [col('status')], aggregates: [{ fn: 'count', column: null, alias: 'status' }] }, 'Two result columns are both named status.'],
      [
        { ...base, sort: [{ key: { kind: 'column', column: col('status') }, direction: 'asc' }, { key: { kind: 'column', column: col('status') }, direction: 'desc' }] },
        'It sorts by the same thing twice.',
      ],
      [
        { ...base, groupBy: [col('status')], aggregates: [{ fn: 'count', column: null, alias: 'row_count' }], sort: [{ key: { kind: 'column', column: col('amount') }, direction: 'asc' }] },
        'It sorts by orders.amount, which it does not group by.',
      ],
      [{ ...base, limit: 0 }, 'Its limit is beyond what the builder offers (1 to 1,000,000,000).'],
      [{ ...base, columns: [col('x', 'elsewhere')] }, 'The builder would write it differently.'],
    ];
    expect(problems.map(([state]) => queryProblem(state))).toEqual(problems.map(([, problem]) => problem));
    // what it writes as it is has no problem
    expect(queryProblem({ ...base, joins: [join], groupBy: [col('status'), col('country', 'customers')], aggregates: [{ fn: 'count', column: null, alias: 'row_count' }], sort: [{ key: { kind: 'column', column: col('country', 'customers') }, direction: 'asc' }, { key: { kind: 'aggregate', index: 0 }, direction: 'desc' }] })).toBeNull();
  });
});
