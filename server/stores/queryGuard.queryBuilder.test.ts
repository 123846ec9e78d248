import fc from 'fast-check';
import { parse } from 'libpg-query';
import { describe, expect, it } from 'vitest';
// The property is about the server's own guard: the SQL the builder writes in the browser is what
// the dataset routes check, so the test reads the guard itself rather than a copy of its rules.
import { builderEdit, builderState } from '../../src/domain/queryBuilder.fixture';
import { normaliseQuery, queryTables, takesValue, truncateName, writeQuery, type QueryState } from '../../src/domain/queryBuilder';
import { applyQueryEdit } from '../../src/domain/queryBuilderEdit';
import { readQuery } from '../../src/domain/queryBuilderRead';
import { checkQuery, QueryRefused } from './queryGuard';

// Issue 38: SQL the query builder writes from any state — hostile names and values included —
// parses with PostgreSQL's own parser (libpg-query) and passes the dataset query guard; and the
// parse tree holds exactly the builder's tables, names and values, so no value or name ever
// became SQL of its own.

const systemTable = (state: QueryState) => queryTables(state).some((table) => table.toLowerCase().startsWith('pg_'));

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every value of `key` anywhere under `node`, in the order the tree lists them. */
function collect(node: unknown, key: string, found: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const item of node) collect(item, key, found);
  else if (isNode(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) found.push(v);
      collect(v, key, found);
    }
  }
  return found;
}

const svalOf = (node: unknown): string | undefined => (isNode(node) && isNode(node.sval) && typeof node.sval.sval === 'string' ? node.sval.sval : isNode(node) && isNode(node.sval) ? '' : undefined);

/** The string constants of the WHERE clause, in order. */
const whereStrings = (select: Node): string[] => collect(select.whereClause, 'A_Const').flatMap((c) => svalOf(c) ?? []);

async function checkWritten(state: QueryState): Promise<void> {
  const sql = writeQuery(state);
  const normal = normaliseQuery(state);
  if (normal.table === '') {
    expect(sql).toBe('');
    return;
  }
  if (systemTable(normal)) {
    // the guard never reads the system catalogs' names; the builder does not offer them
    await expect(checkQuery(sql)).rejects.toBeInstanceOf(QueryRefused);
    return;
  }
  const checked = await checkQuery(sql);
  expect(checked.text).toBe(sql);
  expect(checked.tables).toEqual([...new Set(queryTables(normal).map((t) => truncateName(t)))].sort());

  const tree = (await parse(sql)) as { stmts: { stmt: { SelectStmt?: Node } }[] };
  expect(tree.stmts).toHaveLength(1);
  const select = tree.stmts[0]!.stmt.SelectStmt!;
  // the values typed are the literals PostgreSQL reads, each once, in order
  const expected = normal.filters.flatMap((f) => (takesValue(f.operator) ? [f.value] : ['', '']));
  expect(whereStrings(select)).toEqual(expected);
  // names: the result's aggregate names are the builder's aliases, the ORDER BY and LIMIT its own
  expect(collect(select.targetList, 'ResTarget').flatMap((t) => (isNode(t) && typeof t.name === 'string' ? [t.name] : []))).toEqual(normal.aggregates.map((a) => a.alias));
  expect(collect(select, 'sortClause')[0] ?? []).toHaveLength(normal.sort.length);
  expect(select.limitCount === undefined ? null : ((select.limitCount as { A_Const: { ival: { ival?: number } } }).A_Const.ival.ival ?? 0)).toBe(normal.limit);
  expect(collect(select, 'JoinExpr')).toHaveLength(normal.joins.length);
  expect(collect(select, 'SubLink')).toEqual([]);
}

describe('SQL the query builder writes passes the dataset query guard', () => {
  it('from any state, hostile names and values included', async () => {
    await fc.assert(fc.asyncProperty(builderState, checkWritten), { numRuns: 300 });
  });

  it('after any run of picks, and what the guard accepts the builder reads back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(builderEdit(['orders', 'customers', "o'k\"; --"]), { maxLength: 10 }), async (edits) => {
        let sql = '';
        for (const edit of edits) sql = applyQueryEdit(sql, edit);
        const read = readQuery(sql);
        expect(read.ok).toBe(true);
        if (read.ok && read.state !== null) await checkWritten(read.state);
      }),
      { numRuns: 150 },
    );
  });

  it('the worst of a value stays a value', async () => {
    for (const value of ["'; DROP TABLE orders; --", "\\'; DROP TABLE orders; --", "x' OR '1'='1", '$1', '$$; DROP TABLE x; $$', '*/ DELETE FROM orders /*', "E'\\\\'", '\u0000', '\uD800']) {
      await checkWritten({ table: 'orders', joins: [], columns: [], filters: [{ column: { table: 'orders', column: 'status' }, operator: '=', value }], groupBy: [], aggregates: [], sort: [], limit: 5 });
    }
  });
});
