import fc from 'fast-check';
import { parse } from 'libpg-query';
import { describe, expect, it } from 'vitest';
import { ALL_COLUMNS, columnLineage, MAX_LINEAGE_SELECTS, type KnownColumns, type QueryLineage } from './lineage';

// The lineage function reads the tree PostgreSQL's own parser makes (libpg-query, as the server
// parses every dataset query): the tests parse real SQL, never a hand-made tree.

const KNOWN: KnownColumns = new Map([
  ['orders', ['id', 'customer_id', 'amount', 'created']],
  ['customers', ['id', 'name', 'country']],
  ['events', ['id', 'customer_id', 'kind', 'at']],
]);

async function lineage(sql: string, known: KnownColumns = KNOWN): Promise<QueryLineage> {
  return columnLineage(await parse(sql), known);
}

/** Each output column as `name ← table.column:kind, …`, for readable expectations. */
async function traced(sql: string, known: KnownColumns = KNOWN): Promise<string[]> {
  const { columns } = await lineage(sql, known);
  return columns.map((c) => {
    const read = [...c.sources.map((s) => `${s.table}.${s.column}:${s.kind}`), ...c.unresolved.map((u) => `?${u}`)];
    return `${c.name} ← ${read.join(', ')}`.trimEnd();
  });
}

describe('columnLineage', () => {
  it('marks a plain column direct, an expression a transformation and an aggregate an aggregation', async () => {
    expect(await traced('SELECT id, amount * 1.2 AS gross, upper(created::text), sum(amount) FROM orders GROUP BY id')).toEqual([
      'id ← orders.id:direct',
      'gross ← orders.amount:transformation',
      'upper ← orders.created:transformation',
      'sum ← orders.amount:aggregation',
    ]);
    expect((await lineage('SELECT count(*), 1 AS one, now() FROM orders')).columns.map((c) => [c.name, c.kind, c.sources.length])).toEqual([
      ['count', null, 0],
      ['one', null, 0],
      ['now', null, 0],
    ]);
  });

  it('follows aliases of tables and columns, and qualified references', async () => {
    expect(await traced('SELECT o.amount AS value, c.name FROM orders o JOIN customers AS c ON c.id = o.customer_id WHERE c.country = $$UK$$')).toEqual([
      'value ← orders.amount:direct',
      'name ← customers.name:direct',
    ]);
    // renamed columns of a table alias
    expect(await traced('SELECT x, y FROM customers AS c(x, y)')).toEqual(['x ← customers.id:direct', 'y ← customers.name:direct']);
  });

  it('traces through CTEs and subqueries, keeping the strongest step', async () => {
    const sql = `WITH totals AS (SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id),
      named AS (SELECT c.name, t.total FROM totals t JOIN customers c ON c.id = t.customer_id)
      SELECT name, round(total) AS total, (SELECT max(at) FROM events e WHERE e.customer_id = 1) AS last_event FROM named`;
    expect(await traced(sql)).toEqual(['name ← customers.name:direct', 'total ← orders.amount:aggregation', 'last_event ← events.at:aggregation']);
    expect(await traced('SELECT s.n FROM (SELECT amount AS n FROM orders) s')).toEqual(['n ← orders.amount:direct']);
    expect((await lineage(sql)).tables).toEqual(['customers', 'events', 'orders']);
  });

  it('expands SELECT * and t.* through the known columns, a USING column once', async () => {
    expect(await traced('SELECT * FROM customers')).toEqual(['id ← customers.id:direct', 'name ← customers.name:direct', 'country ← customers.country:direct']);
    expect(await traced('SELECT c.*, o.amount FROM customers c JOIN orders o ON o.customer_id = c.id')).toEqual([
      'id ← customers.id:direct',
      'name ← customers.name:direct',
      'country ← customers.country:direct',
      'amount ← orders.amount:direct',
    ]);
    expect((await traced('SELECT * FROM orders JOIN events USING (id, customer_id)')).map((c) => c.split(' ')[0])).toEqual(['id', 'customer_id', 'amount', 'created', 'kind', 'at']);
    expect((await traced('SELECT * FROM orders NATURAL JOIN customers')).map((c) => c.split(' ')[0])).toEqual(['id', 'customer_id', 'amount', 'created', 'name', 'country']);
    // through a subquery and a CTE that select *
    expect(await traced('WITH w AS (SELECT * FROM customers) SELECT x.* FROM (SELECT * FROM w) x')).toEqual([
      'id ← customers.id:direct',
      'name ← customers.name:direct',
      'country ← customers.country:direct',
    ]);
  });

  it("keeps one '*' column for a table whose columns are unknown, and places its named columns", async () => {
    expect(await traced('SELECT * FROM mystery')).toEqual([`* ← mystery.*:direct`]);
    expect(await traced('SELECT m.* , c.name FROM mystery m, customers c')).toEqual(['* ← mystery.*:direct', 'name ← customers.name:direct']);
    expect(await traced('SELECT a, name FROM mystery, customers')).toEqual(['a ← mystery.a:direct', 'name ← customers.name:direct']);
    // two unknown tables: an unqualified column could be either's
    expect(await traced('SELECT a, m.b FROM mystery m, other')).toEqual(['a ← ?a', 'b ← mystery.b:direct']);
    expect(await traced('SELECT * FROM mystery m JOIN customers c ON true')).toEqual(['* ← mystery.*:direct', 'id ← customers.id:direct', 'name ← customers.name:direct', 'country ← customers.country:direct']);
  });

  it('reads both sides of UNION and INTERSECT, the left of EXCEPT, and VALUES', async () => {
    expect(await traced('SELECT name FROM customers UNION ALL SELECT kind FROM events')).toEqual(['name ← customers.name:direct, events.kind:direct']);
    expect(await traced('SELECT id FROM customers EXCEPT SELECT customer_id FROM orders')).toEqual(['id ← customers.id:direct']);
    expect(await traced('SELECT id FROM customers INTERSECT SELECT customer_id FROM orders')).toEqual(['id ← customers.id:direct, orders.customer_id:direct']);
    expect(await traced('SELECT v.label FROM (VALUES (1, $$a$$)) AS v(n, label)')).toEqual(['label ←']);
  });

  it('marks window aggregates and rankings as aggregations of their partition and order, lag as a transformation', async () => {
    expect(
      await traced(`SELECT sum(amount) OVER (PARTITION BY customer_id ORDER BY created) AS running,
        row_number() OVER (PARTITION BY customer_id ORDER BY created DESC) AS rn,
        lag(amount) OVER (ORDER BY created) AS previous FROM orders`),
    ).toEqual([
      'running ← orders.amount:aggregation, orders.customer_id:aggregation, orders.created:aggregation',
      'rn ← orders.customer_id:aggregation, orders.created:aggregation',
      'previous ← orders.amount:transformation',
    ]);
  });

  it('follows LATERAL subqueries and functions to the columns before them', async () => {
    const sql = `SELECT c.name, recent.at, n FROM customers c
      CROSS JOIN LATERAL (SELECT e.at FROM events e WHERE e.customer_id = c.id ORDER BY e.at DESC LIMIT 1) recent
      LEFT JOIN LATERAL generate_series(1, c.id) AS n ON true`;
    expect(await traced(sql)).toEqual(['name ← customers.name:direct', 'at ← events.at:direct', 'n ← customers.id:transformation']);
    expect(await traced('SELECT d.doubled FROM orders o, LATERAL (SELECT o.amount * 2 AS doubled) d')).toEqual(['doubled ← orders.amount:transformation']);
  });

  it('traces a recursive CTE through its recursive term', async () => {
    expect(await traced('WITH RECURSIVE r(n) AS (SELECT id FROM orders UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r')).toEqual(['n ← orders.id:transformation']);
  });

  it('names unnamed columns as PostgreSQL does', async () => {
    const { columns } = await lineage(
      "SELECT 1, 'x'::text, amount::numeric, CASE WHEN amount > 0 THEN 1 END, CASE WHEN true THEN 1 ELSE amount END, coalesce(amount, 0), (SELECT name FROM customers LIMIT 1), EXISTS (SELECT 1), ARRAY[1], greatest(1, 2), current_date, nullif(amount, 0) FROM orders",
    );
    expect(columns.map((c) => c.name)).toEqual(['?column?', 'text', 'amount', 'case', 'amount', 'coalesce', 'name', 'exists', 'array', 'greatest', 'current_date', 'nullif']);
  });

  it('lets a CTE shadow a table of the same name, and keeps a scalar subquery direct', async () => {
    expect(await traced('WITH orders AS (SELECT name AS amount FROM customers) SELECT amount FROM orders')).toEqual(['amount ← customers.name:direct']);
    expect(await traced('SELECT (SELECT c.name FROM customers c WHERE c.id = o.customer_id) AS customer FROM orders o')).toEqual(['customer ← customers.name:direct']);
  });

  it('answers no columns for a tree that is no SELECT, and never reads a prototype', async () => {
    expect(columnLineage(await parse('DELETE FROM orders'), KNOWN)).toEqual({ columns: [], tables: [] });
    for (const tree of [null, undefined, 1, 'SELECT 1', [], {}, { stmts: 'x' }, { stmts: [{ stmt: { SelectStmt: { targetList: 'x', fromClause: [{ RangeVar: null }] } } }] }]) {
      expect(() => columnLineage(tree, KNOWN)).not.toThrow();
    }
    expect(await traced('SELECT "__proto__", "constructor" FROM "hasOwnProperty"', new Map([['hasOwnProperty', ['__proto__', 'constructor']]]))).toEqual([
      '__proto__ ← hasOwnProperty.__proto__:direct',
      'constructor ← hasOwnProperty.constructor:direct',
    ]);
  });

  it('stops at its depth limit instead of the stack', async () => {
    const deep = `SELECT ${'('.repeat(900)}amount${')'.repeat(900)} + 1 FROM orders`;
    const nested = `SELECT amount FROM ${'(SELECT amount FROM '.repeat(150)}orders${') s'.repeat(150)}`;
    for (const sql of [deep, nested]) expect(() => columnLineage(JSON.parse(JSON.stringify(parseSyncFallback(sql))), KNOWN)).not.toThrow();
    expect(await traced(nested)).toEqual(['amount ← orders.amount:direct']);
  });
});

/** A deep parse where the parser accepts it; a synthetic deep tree where it does not. */
function parseSyncFallback(sql: string): unknown {
  let tree: unknown = { ColumnRef: { fields: [{ String: { sval: 'amount' } }] } };
  for (let i = 0; i < 2_000; i++) tree = { A_Expr: { kind: 'AEXPR_OP', lexpr: tree, rexpr: { A_Const: { ival: { ival: 1 } } } } };
  return sql.length > 0 ? { stmts: [{ stmt: { SelectStmt: { targetList: [{ ResTarget: { val: tree } }], fromClause: [{ RangeVar: { relname: 'orders' } }] } } }] } : tree;
}

// ---- properties on generated queries ------------------------------------------------------------

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const bytes = (name: string) => new TextEncoder().encode(name).length;

/** Identifiers a tenant could type between double quotes: keywords, quotes, dots, spaces, prototype names, other scripts. */
const identifier = fc
  .oneof(
    fc.constantFrom('id', 'amount', 'select', 'from', 'Order', 'a.b', 'a b', 'x"y', "o'k", '__proto__', 'constructor', 'toString', 'é', '日付', '*', '?column?', 'pg_x', '$1', '--', '/*'),
    fc.string({ unit: fc.constantFrom('a', 'Z', '_', '0', ' ', '"', '.', '*', 'é', '–', '\\'), minLength: 1, maxLength: 12 }),
  )
  // PostgreSQL truncates names at 63 bytes and a name is never empty
  .filter((name) => name.length > 0 && bytes(name) <= 63 && !name.includes('\u0000'));

const table = fc.record({
  name: identifier,
  columns: fc.uniqueArray(identifier, { minLength: 1, maxLength: 5 }),
});

type Wrap = 'plain' | 'transformation' | 'aggregation' | 'window' | 'constant';
const item = fc.record({ column: fc.nat(), wrap: fc.constantFrom<Wrap>('plain', 'plain', 'transformation', 'aggregation', 'window', 'constant'), alias: fc.option(identifier, { nil: undefined }) });

const EXPRESSIONS: Record<Wrap, (ref: string) => string> = {
  plain: (ref) => ref,
  transformation: (ref) => `coalesce(${ref}::text, 'none')`,
  aggregation: (ref) => `count(DISTINCT ${ref})`,
  window: (ref) => `max(${ref}::text) OVER (PARTITION BY 1)`,
  constant: () => `42`,
};
const EXPECTED_KIND: Record<Wrap, string | null> = { plain: 'direct', transformation: 'transformation', aggregation: 'aggregation', window: 'aggregation', constant: null };

/** A FROM item reading `t`: the table itself, behind an alias, a subquery or a CTE selecting *. */
const source = fc.constantFrom('table', 'alias', 'subquery', 'cte', 'lateral');

function fromClause(how: string, t: string): { with: string; from: string; qualifier: string } {
  switch (how) {
    case 'alias':
      return { with: '', from: `${t} AS "t 1"`, qualifier: '"t 1"' };
    case 'subquery':
      return { with: '', from: `(SELECT * FROM ${t}) AS sub`, qualifier: 'sub' };
    case 'cte':
      return { with: `WITH "c""te" AS (SELECT * FROM ${t}) `, from: '"c""te"', qualifier: '"c""te"' };
    case 'lateral':
      return { with: '', from: `(SELECT 1 AS one) o CROSS JOIN LATERAL (SELECT * FROM ${t}) AS l`, qualifier: 'l' };
    default:
      return { with: '', from: t, qualifier: t };
  }
}

describe('columnLineage on generated queries', () => {
  it('accounts for every output column, named as written, each read by its kind', async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.array(item, { minLength: 1, maxLength: 6 }), source, fc.boolean(), async (t, items, how, qualify) => {
        const { with: withClause, from, qualifier } = fromClause(how, quote(t.name));
        const chosen = items.map((i) => ({ ...i, column: t.columns[i.column % t.columns.length]! }));
        const list = chosen.map((i) => {
          const ref = qualify ? `${qualifier}.${quote(i.column)}` : quote(i.column);
          return `${EXPRESSIONS[i.wrap](ref)}${i.alias === undefined ? '' : ` AS ${quote(i.alias)}`}`;
        });
        const sql = `${withClause}SELECT ${list.join(', ')} FROM ${from}`;
        const result = columnLineage(await parse(sql), new Map([[t.name, t.columns]]));
        expect(result.columns).toHaveLength(chosen.length);
        expect(result.tables).toEqual([t.name]);
        result.columns.forEach((column, i) => {
          const wanted = chosen[i]!;
          const name = wanted.alias ?? (wanted.wrap === 'plain' ? wanted.column : wanted.wrap === 'constant' ? '?column?' : wanted.wrap === 'transformation' ? 'coalesce' : wanted.wrap === 'aggregation' ? 'count' : 'max');
          expect(column.name).toBe(name);
          expect(column.kind).toBe(EXPECTED_KIND[wanted.wrap]);
          expect(column.unresolved).toEqual([]);
          expect(column.sources).toEqual(wanted.wrap === 'constant' ? [] : [{ table: t.name, column: wanted.column, kind: EXPECTED_KIND[wanted.wrap] }]);
        });
      }),
    );
  });

  it('lists every known column of every table for SELECT *, each a direct copy of itself', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(table, { minLength: 1, maxLength: 3, selector: (t) => t.name }), source, async (tables, how) => {
        const known = new Map(tables.map((t) => [t.name, t.columns]));
        const [first, ...rest] = tables;
        const { with: withClause, from } = fromClause(how, quote(first!.name));
        const sql = `${withClause}SELECT * FROM ${[from, ...rest.map((t) => quote(t.name))].join(', ')}`;
        const result = columnLineage(await parse(sql), known);
        const expected = (how === 'lateral' ? [['one']] : []).length;
        expect(result.columns).toHaveLength(expected + tables.reduce((n, t) => n + t.columns.length, 0));
        const copied = result.columns.slice(expected);
        const wanted = tables.flatMap((t) => t.columns.map((c) => ({ name: c, sources: [{ table: t.name, column: c, kind: 'direct' }] })));
        expect(copied.map((c) => ({ name: c.name, sources: c.sources }))).toEqual(wanted);
      }),
    );
  });

  it('keeps the same lineage when a query is wrapped in a CTE or a subquery that selects it all', async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.array(item, { minLength: 1, maxLength: 5 }), fc.constantFrom('cte', 'subquery', 'union'), async (t, items, wrap) => {
        // distinct output names, so the wrapper can select them all
        const list = items.map((i, n) => `${EXPRESSIONS[i.wrap](quote(t.columns[i.column % t.columns.length]!))} AS "c${n}"`);
        const inner = `SELECT ${list.join(', ')} FROM ${quote(t.name)}`;
        const wrapped = wrap === 'cte' ? `WITH w AS (${inner}) SELECT * FROM w` : wrap === 'subquery' ? `SELECT q.* FROM (${inner}) q` : `${inner} UNION ${inner}`;
        const known = new Map([[t.name, t.columns]]);
        expect(columnLineage(await parse(wrapped), known).columns).toEqual(columnLineage(await parse(inner), known).columns);
      }),
    );
  });

  it('never throws and names only tables the query reads, whatever it is', async () => {
    const fragment = fc.constantFrom(
      'SELECT', '*', 'a', 'b', 't', 'u', ',', '(', ')', 'FROM', 'JOIN', 'ON', 'true', 'USING (a)', 'WITH x AS', 'AS', 'x', 'UNION', 'LATERAL',
      'sum(a)', 'OVER ()', 'WHERE', 'a = 1', 'GROUP BY', 'VALUES (1)', '.', '"a.b"', 'NATURAL', 'RECURSIVE', 'EXISTS', 'ARRAY', '::text', 'CASE WHEN a THEN b END',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fragment, { maxLength: 25 }), async (parts) => {
        let tree: unknown;
        try {
          tree = await parse(parts.join(' '));
        } catch {
          return; // not SQL: the guard refuses it before any lineage is asked for
        }
        const result = columnLineage(tree, new Map([['t', ['a', 'b']]]));
        for (const column of result.columns) {
          for (const s of column.sources) expect(result.tables).toContain(s.table);
          if (column.sources.some((s) => s.column === ALL_COLUMNS)) expect(column.name).toBe(ALL_COLUMNS);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---- rule by rule, each answer written out in full ------------------------------------------------

/** One output column as the lineage answers it. */
const col = (name: string, sources: { table: string; column: string; kind: 'direct' | 'transformation' | 'aggregation' }[] = [], unresolved: string[] = []) => {
  const order = ['direct', 'transformation', 'aggregation'];
  const kind = sources.length === 0 ? null : sources.map((s) => s.kind).reduce((a, b) => (order.indexOf(a) >= order.indexOf(b) ? a : b));
  return { name, kind, sources, unresolved };
};
const src = (table: string, column: string, kind: 'direct' | 'transformation' | 'aggregation' = 'direct') => ({ table, column, kind });

describe('columnLineage, rule by rule', () => {
  it('keeps the strongest kind of a column read twice, names an unplaced reference once, and takes the column kind from the strongest source', async () => {
    expect(await lineage('SELECT sum(amount) + amount AS s FROM orders')).toEqual({ columns: [col('s', [src('orders', 'amount', 'aggregation')])], tables: ['orders'] });
    expect(await lineage('SELECT a + a AS t FROM mystery m, other')).toEqual({ columns: [col('t', [], ['a'])], tables: ['mystery', 'other'] });
    const { columns } = await lineage('SELECT sum(id) + amount AS m FROM orders');
    expect(columns).toEqual([{ name: 'm', kind: 'aggregation', sources: [src('orders', 'id', 'aggregation'), src('orders', 'amount', 'transformation')], unresolved: [] }]);
  });

  it('carries unresolved references and unknown columns out of a subquery', async () => {
    expect((await lineage('SELECT s.v FROM (SELECT a AS v FROM mystery m, other) s')).columns).toEqual([col('v', [], ['a'])]);
    expect((await lineage('SELECT s.x FROM (SELECT * FROM mystery) s')).columns).toEqual([col('x', [src('mystery', 'x')])]);
    // the same unknown table twice is still one table to place a column in
    expect((await lineage('SELECT s.x FROM (SELECT m.*, m.* FROM mystery m) s')).columns).toEqual([col('x', [src('mystery', 'x')])]);
    // a subquery over two unknown tables: a qualified column of it cannot be placed
    expect((await lineage('SELECT j.x FROM (mystery CROSS JOIN other) AS j')).columns).toEqual([col('x', [], ['j.x'])]);
    // a CTE over an unknown table
    expect((await lineage('WITH w AS (SELECT * FROM mystery) SELECT w.x FROM w')).columns).toEqual([col('x', [src('mystery', 'x')])]);
  });

  it('reads a star column of a set operation as the unknown columns of its tables', async () => {
    expect((await lineage('SELECT w.x FROM (SELECT * FROM mystery UNION ALL SELECT * FROM mystery) w')).columns).toEqual([col('x', [src('mystery', 'x')])]);
    expect((await lineage('SELECT w.x FROM (SELECT 1 AS a UNION ALL SELECT * FROM mystery) w')).columns).toEqual([col('x', [src('mystery', 'x')])]);
    // a right side with fewer columns (PostgreSQL refuses it later; the lineage does not throw)
    expect((await lineage('SELECT id, name FROM customers UNION SELECT id FROM orders')).columns).toEqual([
      col('id', [src('customers', 'id'), src('orders', 'id')]),
      col('name', [src('customers', 'name')]),
    ]);
  });

  it('looks a CTE up through the WITH clauses around a subquery, and a CTE reads the table it shadows', async () => {
    expect((await lineage('WITH a AS (SELECT name FROM customers) SELECT s.name FROM (WITH b AS (SELECT 1 AS one) SELECT a.name FROM a, b) s')).columns).toEqual([
      col('name', [src('customers', 'name')]),
    ]);
    // not RECURSIVE: the CTE's own name inside it is the table
    expect(await lineage('WITH customers AS (SELECT name AS id, id AS name FROM customers) SELECT id FROM customers')).toEqual({ columns: [col('id', [src('customers', 'name')])], tables: ['customers'] });
    // renamed in FROM
    expect((await lineage('WITH w AS (SELECT id, name FROM customers) SELECT a, name FROM w AS x(a)')).columns).toEqual([col('a', [src('customers', 'id')]), col('name', [src('customers', 'name')])]);
    // schema-qualified names are tables, never CTEs
    expect(await lineage('WITH orders AS (SELECT 1 AS amount) SELECT amount FROM public.orders')).toEqual({ columns: [col('amount', [src('public.orders', 'amount')])], tables: ['public.orders'] });
    expect(await lineage('SELECT amount FROM db.public.orders')).toEqual({ columns: [col('amount', [src('db.public.orders', 'amount')])], tables: ['db.public.orders'] });
  });

  it('runs a recursive CTE until its sources stop growing, and reads a RECURSIVE one without a union once', async () => {
    // each round moves every column one place: after two rounds each reads all three
    const all = [src('orders', 'id'), src('orders', 'customer_id'), src('orders', 'amount')];
    expect((await lineage('WITH RECURSIVE r(a, b, c) AS (SELECT id, customer_id, amount FROM orders UNION ALL SELECT b, c, a FROM r) SELECT a FROM r')).columns).toEqual([col('a', all)]);
    expect(await lineage('WITH RECURSIVE r AS (SELECT amount FROM orders) SELECT amount FROM r')).toEqual({ columns: [col('amount', [src('orders', 'amount')])], tables: ['orders'] });
    // a rotation over seven columns takes seven rounds to reach every column
    const seven = 'WITH RECURSIVE r(a, b, c, d, e, f, g) AS (SELECT id, customer_id, amount, created, kind, at, name FROM orders, events, customers UNION ALL SELECT b, c, d, e, f, g, a FROM r) SELECT a FROM r';
    expect((await traced(seven)).map((line) => line.split(', ').length)).toEqual([7]);
  });

  it('reads a data-modifying CTE as no columns and no tables', async () => {
    expect(await lineage('WITH d AS (DELETE FROM orders WHERE id IN (SELECT customer_id FROM events) RETURNING id) SELECT * FROM d')).toEqual({ columns: [], tables: [] });
    expect(await lineage('WITH d AS (DELETE FROM orders RETURNING id) SELECT d.id, amount FROM d, orders')).toEqual({ columns: [col('id', [], ['d.id']), col('amount', [src('orders', 'amount')])], tables: ['orders'] });
  });

  it('names the tables read by subqueries in every clause, though those clauses choose rows only', async () => {
    const sql = `SELECT DISTINCT ON ((SELECT 1 FROM t1)) o.id FROM orders o
      JOIN customers c ON c.id IN (SELECT customer_id FROM t2)
      WHERE o.id IN (SELECT id FROM t3)
      GROUP BY o.id, (SELECT 1 FROM t4)
      HAVING count(*) > (SELECT 1 FROM t5)
      WINDOW w AS (PARTITION BY (SELECT 1 FROM t6))
      ORDER BY (SELECT 1 FROM t7)
      LIMIT (SELECT 1 FROM t8) OFFSET (SELECT 1 FROM t9)`;
    expect(await lineage(sql)).toEqual({ columns: [col('id', [src('orders', 'id')])], tables: ['customers', 'orders', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9'] });
  });

  it('reads FROM items: a table sample, XMLTABLE, a function, a subquery without an alias, VALUES', async () => {
    expect(await lineage('SELECT amount FROM orders TABLESAMPLE SYSTEM (10)')).toEqual({ columns: [col('amount', [src('orders', 'amount')])], tables: ['orders'] });
    expect(await lineage("SELECT x.a FROM XMLTABLE((SELECT '/r' FROM paths) PASSING doc COLUMNS a int) x")).toEqual({ columns: [col('a', [], ['x.a'])], tables: ['paths'] });
    expect(await lineage("SELECT o.amount FROM XMLTABLE('/r' PASSING '<r/>' COLUMNS a int), orders o")).toEqual({ columns: [col('amount', [src('orders', 'amount')])], tables: ['orders'] });
    expect(await lineage('SELECT o.amount FROM (SELECT 1 AS one), orders o')).toEqual({ columns: [col('amount', [src('orders', 'amount')])], tables: ['orders'] });
    expect(await lineage('SELECT o.amount FROM coalesce(1, 2), orders o')).toEqual({ columns: [col('amount', [src('orders', 'amount')])], tables: ['orders'] });
    // a function's column is named by its alias, its renames, else the function
    expect((await lineage('SELECT * FROM generate_series(1, 3)')).columns).toEqual([col('generate_series')]);
    expect((await lineage('SELECT * FROM generate_series(1, 3) AS n')).columns).toEqual([col('n')]);
    expect((await lineage('SELECT * FROM generate_series(1, 3) AS g(x)')).columns).toEqual([col('x')]);
    expect((await lineage('SELECT * FROM generate_series(1, 3) WITH ORDINALITY')).columns).toEqual([col('generate_series'), col('ordinality')]);
    expect((await lineage('SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(a, b)')).columns).toEqual([col('a'), col('b')]);
    expect((await lineage('SELECT * FROM current_date, localtimestamp(2)')).columns).toEqual([col('current_date'), col('localtimestamp')]);
    expect((await lineage('SELECT g.g FROM orders o, generate_series(1, o.id) AS g')).columns).toEqual([col('g', [src('orders', 'id', 'transformation')])]);
    // VALUES: columnN, and an outer query's columns seen from inside
    expect((await lineage("SELECT * FROM (VALUES (1, 'a')) v")).columns).toEqual([col('column1'), col('column2')]);
    expect((await lineage('SELECT (SELECT v.x FROM (VALUES (o.amount)) v(x)) AS y FROM orders o')).columns).toEqual([col('y', [src('orders', 'amount')])]);
  });

  it('lets a subquery that is not LATERAL see the enclosing query, not the items before it', async () => {
    expect((await lineage('SELECT (SELECT s.v FROM customers o, (SELECT o.amount AS v) s) AS x FROM orders o')).columns).toEqual([col('x', [src('orders', 'amount')])]);
  });

  it('places the columns of an unknown table renamed by its alias nowhere', async () => {
    expect(await lineage('SELECT x, m.y FROM mystery AS m(x, y)')).toEqual({ columns: [col('x', [], ['m.x']), col('y', [], ['m.y'])], tables: ['mystery'] });
  });

  it('merges the columns of USING and NATURAL joins by the join type', async () => {
    expect((await lineage('SELECT * FROM orders FULL JOIN events USING (id)')).columns).toEqual([
      col('id', [src('orders', 'id', 'transformation'), src('events', 'id', 'transformation')]),
      col('customer_id', [src('orders', 'customer_id')]),
      col('amount', [src('orders', 'amount')]),
      col('created', [src('orders', 'created')]),
      col('customer_id', [src('events', 'customer_id')]),
      col('kind', [src('events', 'kind')]),
      col('at', [src('events', 'at')]),
    ]);
    expect((await lineage('SELECT id FROM mystery FULL JOIN other USING (id)')).columns).toEqual([col('id', [src('mystery', 'id', 'transformation'), src('other', 'id', 'transformation')])]);
    expect((await lineage('SELECT id FROM orders FULL JOIN (mystery CROSS JOIN other) USING (id)')).columns).toEqual([col('id', [src('orders', 'id', 'transformation')])]);
    expect((await lineage('SELECT customer_id FROM orders RIGHT JOIN events USING (customer_id)')).columns).toEqual([col('customer_id', [src('events', 'customer_id')])]);
    expect((await lineage('SELECT customer_id FROM orders LEFT JOIN events USING (customer_id)')).columns).toEqual([col('customer_id', [src('orders', 'customer_id')])]);
    expect((await lineage('SELECT id FROM mystery JOIN orders USING (id)')).columns).toEqual([col('id', [src('mystery', 'id')])]);
    expect((await lineage('SELECT id FROM orders RIGHT JOIN mystery USING (id)')).columns).toEqual([col('id', [src('mystery', 'id')])]);
    expect((await lineage('SELECT id FROM (mystery CROSS JOIN other) JOIN orders USING (id)')).columns).toEqual([col('id', [], ['id'])]);
    // a FULL join takes the unknown columns of a side only where that side has no such known column
    expect((await lineage('SELECT id FROM (orders CROSS JOIN mystery) FULL JOIN events USING (id)')).columns).toEqual([col('id', [src('orders', 'id', 'transformation'), src('events', 'id', 'transformation')])]);
    expect((await lineage('SELECT x FROM (SELECT 1 AS y) a FULL JOIN mystery USING (x)')).columns).toEqual([col('x', [src('mystery', 'x', 'transformation')])]);
    // SELECT * lists a merged column read from an unknown side, or from none
    expect((await lineage('SELECT * FROM mystery JOIN orders USING (id)')).columns).toEqual([
      col('id', [src('mystery', 'id')]),
      col('*', [src('mystery', '*')]),
      col('customer_id', [src('orders', 'customer_id')]),
      col('amount', [src('orders', 'amount')]),
      col('created', [src('orders', 'created')]),
    ]);
    expect((await lineage('SELECT * FROM (mystery CROSS JOIN other) JOIN orders USING (id)')).columns).toEqual([
      col('id', [], ['id']),
      col('*', [src('mystery', '*')]),
      col('*', [src('other', '*')]),
      col('customer_id', [src('orders', 'customer_id')]),
      col('amount', [src('orders', 'amount')]),
      col('created', [src('orders', 'created')]),
    ]);
    // an ON join keeps both sides' columns of the same name
    expect((await lineage('SELECT * FROM orders o JOIN events e ON true')).columns.map((c) => c.name)).toEqual(['id', 'customer_id', 'amount', 'created', 'id', 'customer_id', 'kind', 'at']);
    // an aliased join renames its columns in order, the merged ones first
    expect((await lineage('SELECT j.a, j.b, j.created FROM (orders JOIN events USING (id)) AS j(a, b)')).columns).toEqual([
      col('a', [src('orders', 'id')]),
      col('b', [src('orders', 'customer_id')]),
      col('created', [src('orders', 'created')]),
    ]);
  });

  it('reads through a join: an unknown side, a qualified side, a star of one side', async () => {
    expect((await lineage('SELECT x FROM mystery m JOIN customers c ON true')).columns).toEqual([col('x', [src('mystery', 'x')])]);
    expect((await lineage('SELECT c.name FROM mystery m JOIN customers c ON true')).columns).toEqual([col('name', [src('customers', 'name')])]);
    expect((await lineage('SELECT c.* FROM orders o JOIN customers c ON true')).columns).toEqual([col('id', [src('customers', 'id')]), col('name', [src('customers', 'name')]), col('country', [src('customers', 'country')])]);
    expect((await lineage('SELECT z.* FROM orders')).columns).toEqual([col('*', [], ['z.*'])]);
  });

  it('reads a whole row as every column of it, and an outer column when the inner FROM lacks it', async () => {
    expect((await lineage('SELECT c FROM customers c')).columns).toEqual([col('c', [src('customers', 'id', 'transformation'), src('customers', 'name', 'transformation'), src('customers', 'country', 'transformation')])]);
    expect((await lineage('SELECT (SELECT amount FROM customers LIMIT 1) AS a FROM orders')).columns).toEqual([col('a', [src('orders', 'amount')])]);
    // two unknown tables inside: the outer query is not asked
    expect((await lineage('SELECT (SELECT amount FROM mystery, other) AS a FROM orders')).columns).toEqual([col('a', [], ['amount'])]);
    expect((await lineage('SELECT z.a FROM orders')).columns).toEqual([col('a', [], ['z.a'])]);
  });

  it('marks user-defined aggregates by DISTINCT, ORDER BY and FILTER, and reads their order and filter', async () => {
    expect((await lineage('SELECT my_agg(DISTINCT amount) AS x FROM orders')).columns).toEqual([col('x', [src('orders', 'amount', 'aggregation')])]);
    expect((await lineage('SELECT my_agg(amount ORDER BY created) AS x FROM orders')).columns).toEqual([col('x', [src('orders', 'amount', 'aggregation'), src('orders', 'created', 'aggregation')])]);
    expect((await lineage('SELECT my_agg(amount) FILTER (WHERE id > 0) AS x FROM orders')).columns).toEqual([col('x', [src('orders', 'amount', 'aggregation'), src('orders', 'id', 'aggregation')])]);
    expect((await lineage('SELECT sum(amount) FILTER (WHERE id > 0) OVER () AS x FROM orders')).columns).toEqual([col('x', [src('orders', 'amount', 'aggregation'), src('orders', 'id', 'aggregation')])]);
    expect((await lineage('SELECT my_fn(amount) AS x FROM orders')).columns).toEqual([col('x', [src('orders', 'amount', 'transformation')])]);
  });

  it('reads subqueries by their link: IN compares, ARRAY collects, EXISTS reads nothing', async () => {
    expect((await lineage('SELECT amount IN (SELECT customer_id FROM events) AS x FROM orders')).columns).toEqual([
      col('x', [src('orders', 'amount', 'transformation'), src('events', 'customer_id', 'transformation')]),
    ]);
    expect(await lineage('SELECT ARRAY(SELECT amount FROM orders) AS a')).toEqual({ columns: [col('a', [src('orders', 'amount', 'aggregation')])], tables: ['orders'] });
    expect(await lineage('SELECT EXISTS (SELECT amount FROM orders) AS e')).toEqual({ columns: [col('e')], tables: ['orders'] });
    expect(await lineage('SELECT (SELECT FROM orders) AS x')).toEqual({ columns: [col('x')], tables: ['orders'] });
    // values under nodes the parser writes without a type (a JSON value) are computed
    expect((await lineage("SELECT json_object('k' VALUE amount) AS j FROM orders")).columns).toEqual([col('j', [src('orders', 'amount', 'transformation')])]);
  });

  it('names more unnamed columns as PostgreSQL does', async () => {
    const { columns } = await lineage(
      `SELECT amount + 1, (ARRAY[amount])[1], (c).country, name COLLATE "C", GROUPING(country), ARRAY(SELECT 1), amount IN (SELECT id FROM customers),
        (o.*)::text, CASE WHEN true THEN 1 END::text, CASE WHEN true THEN 'a' ELSE 'b'::text END, ROW(1, 2), least(1, 2), current_time(2),
        xmlconcat('<a/>', '<b/>'), xmlelement(name x), xmlforest(1 AS a), xmlparse(document '<a/>'), xmlpi(name p), xmlroot('<a/>', version '1.0'),
        xmlserialize(document '<a/>' AS text), '<a/>' IS DOCUMENT
      FROM orders o, customers c GROUP BY country`,
    );
    expect(columns.map((c) => c.name)).toEqual([
      '?column?', 'array', 'country', 'name', 'grouping', 'array', '?column?', 'text', 'text', 'case', 'row', 'least', 'current_time',
      'xmlconcat', 'xmlelement', 'xmlforest', 'xmlparse', 'xmlpi', 'xmlroot', 'xmlserialize', '?column?',
    ]);
  });

  it('reads the statement, or its SelectStmt, as it reads the whole parse result', async () => {
    const tree = (await parse('SELECT o.amount, c.name FROM orders o JOIN customers c ON c.id = o.customer_id')) as { stmts: [{ stmt: { SelectStmt: Record<string, unknown> } }] };
    const expected = { columns: [col('amount', [src('orders', 'amount')]), col('name', [src('customers', 'name')])], tables: ['customers', 'orders'] };
    expect(columnLineage(tree.stmts[0].stmt, KNOWN)).toEqual(expected);
    expect(columnLineage(tree.stmts[0].stmt.SelectStmt, KNOWN)).toEqual(expected);
    // a body without the set operation's 'op' still reads as a SELECT
    const { op: _op, ...withoutOp } = tree.stmts[0].stmt.SelectStmt;
    expect(columnLineage(withoutOp, KNOWN)).toEqual(expected);
    // a set operation's body: op, larg and rarg only
    const union = (await parse('SELECT id FROM orders UNION SELECT id FROM events')) as { stmts: [{ stmt: { SelectStmt: Record<string, unknown> } }] };
    expect(columnLineage(union.stmts[0].stmt.SelectStmt, KNOWN)).toEqual({ columns: [col('id', [src('orders', 'id'), src('events', 'id')])], tables: ['events', 'orders'] });
    // a VALUES body without 'op'
    const values = (await parse('VALUES (1)')) as { stmts: [{ stmt: { SelectStmt: Record<string, unknown> } }] };
    const { op: _valuesOp, ...valuesWithoutOp } = values.stmts[0].stmt.SelectStmt;
    expect(columnLineage(valuesWithoutOp, KNOWN)).toEqual({ columns: [col('column1')], tables: [] });
    // another statement's body, even one with a subquery, is no SELECT
    const deletion = (await parse('DELETE FROM orders WHERE id IN (SELECT customer_id FROM events)')) as { stmts: [{ stmt: { DeleteStmt: unknown } }] };
    expect(columnLineage(deletion.stmts[0].stmt.DeleteStmt, KNOWN)).toEqual({ columns: [], tables: [] });
  });
});

// ---- trees the parser does not make, read defensively ---------------------------------------------

type Json = Record<string, unknown>;
/** The SelectStmt body of a parse, to be bent by a test. */
async function selectBody(sql: string): Promise<Json> {
  const tree = (await parse(sql)) as { stmts: [{ stmt: { SelectStmt: Json } }] };
  return tree.stmts[0].stmt.SelectStmt;
}
const at = (node: unknown, ...path: (string | number)[]): Json => path.reduce<Json>((n, key) => (n as Record<string | number, Json>)[key]!, node as Json);

describe('columnLineage on bent trees', () => {
  it('takes a name only when it is text, and skips list items that are no ResTarget', async () => {
    const body = await selectBody('SELECT amount, id FROM orders');
    at(body, 'targetList', 0, 'ResTarget')['name'] = 7;
    body['targetList'] = [at(body, 'targetList', 0), { Garbage: at(body, 'targetList', 1, 'ResTarget') }];
    expect(columnLineage(body, KNOWN)).toEqual({ columns: [col('amount', [src('orders', 'amount')])], tables: ['orders'] });
  });

  it('reads a reference without fields, a star without a named qualifier and a table without a name', async () => {
    const body = await selectBody('SELECT x, m.* FROM mystery m');
    at(body, 'targetList', 0, 'ResTarget', 'val', 'ColumnRef')['fields'] = [];
    at(body, 'targetList', 1, 'ResTarget', 'val', 'ColumnRef', 'fields')[0] = { A_Const: { ival: { ival: 1 } } };
    expect(columnLineage(body, KNOWN)).toEqual({ columns: [col('?column?', [src('mystery', '')]), col('*', [], ['.*'])], tables: ['mystery'] });
    // a name node without its text, and a field that is no name node
    const odd = await selectBody('SELECT x, y FROM mystery');
    at(odd, 'targetList', 0, 'ResTarget', 'val', 'ColumnRef')['fields'] = [{ String: {} }];
    at(odd, 'targetList', 1, 'ResTarget', 'val', 'ColumnRef')['fields'] = [{ A_Const: { ival: { ival: 1 } } }];
    expect(columnLineage(odd, KNOWN)).toEqual({ columns: [col('', [src('mystery', '')]), col('?column?', [src('mystery', '')])], tables: ['mystery'] });
    // a value function in FROM without its operator
    const fn = await selectBody('SELECT * FROM current_date');
    delete at(fn, 'fromClause', 0, 'RangeFunction', 'functions', 0, 'List', 'items', 0, 'SQLValueFunction')['op'];
    expect(columnLineage(fn, KNOWN)).toEqual({ columns: [col('')], tables: [] });
    const nameless = await selectBody('SELECT * FROM orders');
    at(nameless, 'fromClause', 0)['RangeVar'] = {};
    expect(columnLineage(nameless, KNOWN)).toEqual({ columns: [col('*', [src('', '*')])], tables: [''] });
  });

  it('reads VALUES rows, CTEs, subqueries and functions that are not what they should be as nothing', async () => {
    expect(columnLineage({ valuesLists: [null], op: 'SETOP_NONE' }, KNOWN)).toEqual({ columns: [], tables: [] });
    // a CTE list item that is no CommonTableExpr defines nothing: 'orders' stays the table
    const cte = await selectBody('WITH orders AS (SELECT name AS amount FROM customers) SELECT amount FROM orders');
    const ctes = at(cte, 'withClause', 'ctes') as unknown as Json[];
    ctes[0] = { Garbage: ctes[0]!['CommonTableExpr'] };
    expect(columnLineage(cte, KNOWN)).toEqual({ columns: [col('amount', [src('orders', 'amount')])], tables: ['orders'] });
    const subquery = await selectBody('SELECT s.x FROM (SELECT 1) s');
    delete at(subquery, 'fromClause', 0, 'RangeSubselect')['subquery'];
    expect(columnLineage(subquery, KNOWN)).toEqual({ columns: [col('x', [], ['s.x'])], tables: [] });
    const fn = await selectBody('SELECT * FROM generate_series(1, 3)');
    at(fn, 'fromClause', 0, 'RangeFunction')['functions'] = [null];
    expect(columnLineage(fn, KNOWN)).toEqual({ columns: [col('?column?')], tables: [] });
    const sublink = await selectBody('SELECT (SELECT 1)');
    delete at(sublink, 'targetList', 0, 'ResTarget', 'val', 'SubLink')['subselect'];
    expect(columnLineage(sublink, KNOWN)).toEqual({ columns: [col('?column?')], tables: [] });
  });

  it('reads an alias and a type name wrapped in their node types as bare ones', async () => {
    const aliased = await selectBody('SELECT o.amount, 1::text FROM orders o');
    const rangeVar = at(aliased, 'fromClause', 0, 'RangeVar');
    rangeVar['alias'] = { Alias: rangeVar['alias'] };
    const cast = at(aliased, 'targetList', 1, 'ResTarget', 'val', 'TypeCast');
    cast['typeName'] = { TypeName: cast['typeName'] };
    expect(columnLineage(aliased, KNOWN)).toEqual({ columns: [col('amount', [src('orders', 'amount')]), col('text')], tables: ['orders'] });
  });

  it('names a value function without its operator, and an XML function with an operator it does not know, by position', () => {
    expect(columnLineage({ targetList: [{ ResTarget: { val: { SQLValueFunction: {} } } }], op: 'SETOP_NONE' }, KNOWN)).toEqual({ columns: [col('?column?')], tables: [] });
    expect(columnLineage({ targetList: [{ ResTarget: { val: { XmlExpr: { op: 'toString' } } } }], op: 'SETOP_NONE' }, KNOWN)).toEqual({ columns: [col('?column?')], tables: [] });
  });

  it('reads a SELECT met bare inside an expression for the tables it reads', async () => {
    const inner = await selectBody('SELECT at FROM events');
    expect(columnLineage({ targetList: [{ ResTarget: { name: 'x', val: { SelectStmt: inner } } }], op: 'SETOP_NONE' }, KNOWN)).toEqual({ columns: [col('x')], tables: ['events'] });
  });
});

describe('columnLineage of a whole row inside an expression', () => {
  it('reads every column of o for o.* in an expression, as for a bare o, and names an unknown qualifier', async () => {
    const whole = ['orders.id:transformation', 'orders.customer_id:transformation', 'orders.amount:transformation', 'orders.created:transformation'].join(', ');
    expect(await traced('SELECT to_json(o.*), (o.*)::text, o FROM orders o')).toEqual([`to_json ← ${whole}`, `text ← ${whole}`, `o ← ${whole}`]);
    expect(await traced('SELECT to_json(x.*) FROM orders o')).toEqual(['to_json ← ?x.*']);
  });
});

describe('columnLineage on nested unnamed subqueries', () => {
  /** The tables map, counting each lookup: one lookup per walk of the innermost FROM. */
  const counting = () => {
    let lookups = 0;
    const known = new Map(KNOWN);
    const get = known.get.bind(known);
    known.get = (table: string) => {
      lookups += 1;
      return get(table);
    };
    return { known, lookups: () => lookups };
  };

  it('reads each level once: naming an unnamed (SELECT …) does not walk it again', async () => {
    // each level's name comes from the level below, so walking a level again for its name doubled
    // the work per level: 2^18 walks of the innermost FROM here, seconds on the request path
    const levels = 18;
    const sql = `${'SELECT ('.repeat(levels)}SELECT amount FROM orders${')'.repeat(levels)}`;
    const { known, lookups } = counting();
    expect(await lineage(sql, known)).toEqual({ columns: [{ name: 'amount', kind: 'direct', sources: [{ table: 'orders', column: 'amount', kind: 'direct' }], unresolved: [] }], tables: ['orders'] });
    expect(lookups()).toBe(1);
  });

  it('walks a non-UNION body of WITH RECURSIVE once, at any nesting', async () => {
    // PostgreSQL refuses any recursive body but a UNION: such a body is read once, not seeded then re-read
    const levels = 18;
    const sql = `${'WITH RECURSIVE r AS ('.repeat(levels)}SELECT amount FROM orders${') SELECT amount FROM r'.repeat(levels)}`;
    const { known, lookups } = counting();
    expect(await traced(sql, known)).toEqual(['amount ← orders.amount:direct']);
    expect(lookups()).toBe(1);
  });

  it('stops after MAX_LINEAGE_SELECTS selects when recursive CTEs nest their rounds, and still answers', async () => {
    // each level's UNION reads the level below in its seed and again in each round: 2^16 walks and more without the budget
    const nest = (levels: number) => {
      let sql = 'SELECT id AS n FROM orders';
      for (let level = 0; level < levels; level += 1) sql = `WITH RECURSIVE r(n) AS (SELECT n FROM (${sql}) s UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r`;
      return sql;
    };
    const { known, lookups } = counting();
    // named, not followed: a half-walked query could take a CTE's name for a table
    expect(await lineage(nest(16), known)).toEqual({ columns: [{ name: 'n', kind: null, sources: [], unresolved: ['…'] }], tables: [] });
    // one lookup per walk of the innermost FROM, and no more walks than the budget
    expect(lookups()).toBeGreaterThan(0);
    expect(lookups()).toBeLessThanOrEqual(MAX_LINEAGE_SELECTS);
    // as far as a query of ordinary size goes, it is followed, and no CTE is taken for a table
    expect(await lineage(nest(3))).toEqual({ columns: [{ name: 'n', kind: 'transformation', sources: [{ table: 'orders', column: 'id', kind: 'transformation' }], unresolved: [] }], tables: ['orders'] });
  });

  it('reads a UNION body of a WITH that is not RECURSIVE once, its own name there being the table', async () => {
    // not RECURSIVE: `customers` inside is the table, not the CTE being defined
    expect(await traced('WITH customers AS (SELECT id AS name FROM orders UNION ALL SELECT name FROM customers) SELECT name FROM customers')).toEqual(['name ← orders.id:direct, customers.name:direct']);
    expect((await lineage('WITH customers AS (SELECT id AS name FROM orders UNION ALL SELECT name FROM customers) SELECT name FROM customers')).tables).toEqual(['customers', 'orders']);
  });

  it('reads a recursive body with a WITH of its own under that WITH, seed included', async () => {
    const sql = 'WITH RECURSIVE r(n) AS (WITH RECURSIVE r(n) AS (SELECT id FROM orders UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r';
    expect(await lineage(sql)).toEqual({ columns: [{ name: 'n', kind: 'transformation', sources: [{ table: 'orders', column: 'id', kind: 'transformation' }], unresolved: [] }], tables: ['orders'] });
  });

  it('names each level as PostgreSQL does, by the first column of the level below', async () => {
    expect(await traced('SELECT (SELECT (SELECT amount AS paid FROM orders)), (SELECT count(*) FROM customers), (SELECT (SELECT 1))')).toEqual([
      'paid ← orders.amount:direct',
      // count(*) reads no column of customers, and a constant none at all
      'count ←',
      '?column? ←',
    ]);
  });
});

// ---- the depth limit, level by level ---------------------------------------------------------------
// Each step into a SELECT's list, FROM item, subquery, set operation side, join side or expression
// part is one level; a reference past MAX_LINEAGE_DEPTH (400) is reported as '…', a FROM item or
// SELECT past it is read as nothing.

describe('columnLineage at its depth limit', () => {
  it('follows an expression 400 levels down and no further', async () => {
    // `amount + 1 + 1 …`: the select list is level 1, each `+` one more, the column one past the
    // last `+`, and the operator's name (a list of names) two past it
    const sum = (k: number) => `SELECT amount${' + 1'.repeat(k)} AS x FROM orders`;
    expect(await lineage(sum(398))).toEqual({ columns: [col('x', [src('orders', 'amount', 'transformation')])], tables: ['orders'] });
    expect(await lineage(sum(399))).toEqual({ columns: [col('x', [src('orders', 'amount', 'transformation')], ['…'])], tables: ['orders'] });
    expect(await lineage(sum(400))).toEqual({ columns: [col('x', [], ['…'])], tables: ['orders'] });
  });

  it('reads scalar subqueries nested to the limit', async () => {
    // each subquery is two levels (the select list, then the SELECT): the innermost at 2n, its column and FROM at 2n + 1
    const nested = (n: number) => `SELECT ${'(SELECT '.repeat(n)}amount AS x FROM orders${') AS x'.repeat(n)}`;
    expect(await lineage(nested(199))).toEqual({ columns: [col('x', [src('orders', 'amount')])], tables: ['orders'] });
    expect(await lineage(nested(200))).toEqual({ columns: [col('x', [], ['…'])], tables: [] });
  });

  it('reads FROM items nested to the limit, a join side at level 400 and not a table sample’s table past it', async () => {
    // each FROM subquery is two levels: the innermost SELECT at 398, its join at 399, the join's sides at 400
    const inner = 'SELECT amount FROM events TABLESAMPLE SYSTEM (1) JOIN orders ON true';
    const sql = `SELECT amount FROM ${'(SELECT amount FROM '.repeat(198)}(${inner}) s${') s'.repeat(198)}`;
    expect(await lineage(sql)).toEqual({ columns: [col('amount', [src('orders', 'amount')])], tables: ['orders'] });
  });

  it('names a column by an expression 400 levels down and no further', async () => {
    // `amount::text::text …`: the outermost cast is level 0, the column under k casts at level k
    const casts = (k: number) => `SELECT amount${'::text'.repeat(k)} FROM orders`;
    expect((await lineage(casts(400))).columns.map((c) => c.name)).toEqual(['amount']);
    expect((await lineage(casts(401))).columns.map((c) => c.name)).toEqual(['text']);
  });

  it('names a column through collations, subscripts and CASE defaults 400 levels down and no further', async () => {
    const names = async (sql: string) => (await lineage(sql)).columns.map((c) => c.name);
    const collated = (k: number) => `SELECT amount${' COLLATE "C"'.repeat(k)} FROM orders`;
    expect([...(await names(collated(400))), ...(await names(collated(401)))]).toEqual(['amount', '?column?']);
    const subscripted = (k: number) => `SELECT ${'('.repeat(k)}amount${')[1]'.repeat(k)} FROM orders`;
    expect([...(await names(subscripted(400))), ...(await names(subscripted(401)))]).toEqual(['amount', '?column?']);
    const cased = (k: number) => `SELECT ${'CASE WHEN true THEN 1 ELSE '.repeat(k)}amount${' END'.repeat(k)} FROM orders`;
    expect([...(await names(cased(400))), ...(await names(cased(401)))]).toEqual(['amount', 'case']);
  });

  it('does not reach a table 450 levels down through set operations, CTEs, WHERE, VALUES or joins on the right', async () => {
    // each of these steps is one or two levels: 450 of them are past the limit whatever the start
    // (the constant of the left side at level 401 is past it too: '…')
    expect(await lineage(`${'SELECT 1 AS x UNION ('.repeat(450)}SELECT at AS x FROM events${')'.repeat(450)}`)).toEqual({ columns: [col('x', [], ['…'])], tables: [] });
    expect(await lineage(`${'WITH w AS ('.repeat(450)}SELECT at FROM events${') SELECT * FROM w'.repeat(450)}`)).toEqual({ columns: [], tables: [] });
    expect(await lineage(`${'SELECT 1 AS x WHERE EXISTS ('.repeat(450)}SELECT at FROM events${')'.repeat(450)}`)).toEqual({ columns: [col('x')], tables: [] });
    // a VALUES item is one level, its subquery one more: the item at level 401 is '…'
    expect(await lineage(`${'VALUES (('.repeat(450)}SELECT at FROM events${'))'.repeat(450)}`)).toEqual({ columns: [col('column1', [], ['…'])], tables: [] });
    const rightDeep = (k: number): string => (k === 0 ? 'events CROSS JOIN orders' : `orders JOIN (${rightDeep(k - 1)}) ON true`);
    expect(await lineage(`SELECT 1 AS x FROM ${rightDeep(450)}`)).toEqual({ columns: [col('x')], tables: ['orders'] });
  });

  it('counts three levels for a subquery in a join condition and two for an array element', async () => {
    // SELECT, join, condition: 150 of them put the innermost SELECT at 450
    const onExists = (k: number): string => (k === 0 ? 'SELECT 1 AS x FROM events' : `SELECT 1 AS x FROM orders JOIN customers ON EXISTS (${onExists(k - 1)})`);
    expect(await lineage(onExists(150))).toEqual({ columns: [col('x')], tables: ['customers', 'orders'] });
    // ARRAY[…] and its element list: 300 of them put the column at 601
    expect(await lineage(`SELECT ${'ARRAY['.repeat(300)}amount${']'.repeat(300)} AS x FROM orders`)).toEqual({ columns: [col('x', [], ['…'])], tables: ['orders'] });
  });

  it('cuts a long chain of set operations and joins on its far side', async () => {
    // the leftmost SELECT of 450 UNIONs is at level 450: cut, so every position (named by the left) is gone
    expect(await lineage(`SELECT amount FROM events${' UNION ALL SELECT amount FROM orders'.repeat(450)}`)).toEqual({ columns: [], tables: ['orders'] });
    // the leftmost table of 450 joins is at level 451
    expect(await lineage(`SELECT 1 AS x FROM events${' JOIN orders ON true'.repeat(450)}`)).toEqual({ columns: [col('x')], tables: ['orders'] });
  });
});
