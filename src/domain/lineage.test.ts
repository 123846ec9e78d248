import fc from 'fast-check';
import { parse } from 'libpg-query';
import { describe, expect, it } from 'vitest';
import { ALL_COLUMNS, columnLineage, type KnownColumns, type QueryLineage } from './lineage';

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
