import { parse } from 'libpg-query';
import { describe, expect, it } from 'vitest';
import { checkQuery, statementText } from './queryGuard';
import { refusalOf } from './queryRefusal.fixture';

// The guard's rules one by one, each expectation written out here rather than read from the guard's
// own tables (issue 40, item 4: the mutants that survived the other guard tests).


describe('the functions a dataset query may call', () => {
  // The reviewed allow-list, by what an analyst writes: every one called by name (quoted, so a
  // keyword such as COALESCE or CAST reaches the function check as a plain call).
  const ALLOWED = {
    aggregates: ['count', 'sum', 'avg', 'min', 'max', 'string_agg', 'array_agg', 'bool_and', 'bool_or', 'every', 'stddev', 'stddev_pop', 'stddev_samp', 'variance', 'var_pop', 'var_samp', 'percentile_cont', 'percentile_disc', 'mode', 'corr', 'covar_pop', 'covar_samp', 'regr_slope', 'regr_intercept', 'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg'],
    window: ['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value'],
    time: ['now', 'date_trunc', 'date_part', 'extract', 'age', 'make_date', 'make_time', 'make_timestamp', 'make_timestamptz', 'make_interval', 'to_char', 'to_date', 'to_timestamp', 'to_number', 'justify_days', 'justify_hours', 'justify_interval', 'isfinite', 'date_bin', 'timezone', 'current_date', 'current_timestamp', 'localtimestamp', 'statement_timestamp', 'transaction_timestamp', 'generate_series', 'overlaps'],
    strings: ['lower', 'upper', 'initcap', 'length', 'char_length', 'character_length', 'octet_length', 'concat', 'concat_ws', 'substr', 'substring', 'replace', 'translate', 'trim', 'btrim', 'ltrim', 'rtrim', 'left', 'right', 'lpad', 'rpad', 'split_part', 'strpos', 'position', 'overlay', 'reverse', 'repeat', 'starts_with', 'format', 'md5', 'regexp_replace', 'regexp_match', 'regexp_matches', 'regexp_split_to_array', 'string_to_array', 'array_to_string', 'unaccent', 'quote_literal', 'chr', 'ascii'],
    math: ['abs', 'round', 'ceil', 'ceiling', 'floor', 'trunc', 'power', 'pow', 'sqrt', 'cbrt', 'mod', 'ln', 'log', 'log10', 'exp', 'sign', 'div', 'greatest', 'least', 'random', 'pi', 'degrees', 'radians', 'width_bucket', 'num_nonnulls', 'num_nulls'],
    castsAndJson: ['cast', 'to_json', 'to_jsonb', 'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array', 'json_extract_path_text', 'jsonb_extract_path_text', 'jsonb_array_length', 'json_array_length', 'array_length', 'cardinality', 'unnest', 'coalesce', 'nullif'],
  };
  for (const [group, names] of Object.entries(ALLOWED)) {
    it(`accepts each of the ${group}, bare, in capitals or as pg_catalog's`, async () => {
      for (const name of names) {
        expect((await checkQuery(`SELECT "${name}"(1) FROM orders`)).tables, name).toEqual(['orders']);
        await expect(checkQuery(`SELECT pg_catalog."${name}"(1)`), name).resolves.toBeDefined();
        await expect(checkQuery(`SELECT "${name.toUpperCase()}"(1)`), name).resolves.toBeDefined();
      }
    });
  }

  it('refuses an allowed name under any other schema, or with two qualifiers', async () => {
    expect(await refusalOf('SELECT public.count(1)')).toBe('The function public.count is not allowed in a dataset query');
    expect(await refusalOf('SELECT a.pg_catalog.count(1)')).toBe('The function a.pg_catalog.count is not allowed in a dataset query');
    // pg_catalog first is not enough: only pg_catalog.<function> is the parser's own qualification
    expect(await refusalOf('SELECT pg_catalog.a.count(1)')).toBe('The function pg_catalog.a.count is not allowed in a dataset query');
    expect(await refusalOf('SELECT pg_catalog.pg_sleep(1)')).toBe('The function pg_catalog.pg_sleep is not allowed in a dataset query');
  });
});

describe('the types a cast may name', () => {
  // objects looked up by name or by internal id, and transaction internals
  const REFUSED = ['regclass', 'REGTYPE', 'pg_lsn', 'pg_snapshot', 'txid_snapshot', 'xid', 'xid8', 'cid', 'tid', 'oid', 'OID'];
  // (cidr and inet are network addresses, not catalogue ids: a name that only begins like one is not refused)
  const ACCEPTED = ['text', 'integer', 'int8', 'numeric', 'date', 'timestamptz', 'interval', 'jsonb', 'boolean', 'uuid', 'void', 'oidvector', 'xml', 'cidr', 'inet', 'tsvector'];

  it('refuses each internal type, however it is spelled', async () => {
    for (const type of REFUSED) expect(await refusalOf(`SELECT NULL::${type}`)).toBe(`The type ${type.toLowerCase()} is not allowed in a dataset query`);
  });

  it('accepts the everyday types, bare or as pg_catalog.<type>', async () => {
    for (const type of ACCEPTED) {
      await expect(checkQuery(`SELECT NULL::${type}`), type).resolves.toBeDefined();
      await expect(checkQuery(`SELECT NULL::pg_catalog.${type}`), type).resolves.toBeDefined();
    }
  });

  it('refuses a type under another schema or with two qualifiers', async () => {
    expect(await refusalOf('SELECT NULL::public.text')).toBe('The type public.text is not allowed in a dataset query');
    expect(await refusalOf('SELECT NULL::a.pg_catalog.text')).toBe('The type a.pg_catalog.text is not allowed in a dataset query');
  });
});

describe('what a read never contains', () => {
  const REFUSALS: [string, string][] = [
    ['WITH m AS (MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE RETURNING *) SELECT * FROM m', 'A dataset query only reads: INSERT, UPDATE, DELETE and MERGE are refused'],
    ['WITH i AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM i', 'A dataset query only reads: INSERT, UPDATE, DELETE and MERGE are refused'],
    ['SELECT * FROM t FOR KEY SHARE', 'A dataset query cannot lock rows (FOR UPDATE/SHARE)'],
    ['SELECT * INTO copy FROM t', 'SELECT INTO creates a table and is refused'],
    ['SELECT * FROM t WHERE a = $2', 'Parameters such as $1 cannot be used in a dataset query: write the value itself'],
  ];
  for (const [query, message] of REFUSALS) {
    it(`${query}: "${message}"`, async () => {
      expect(await refusalOf(query)).toBe(message);
    });
  }

  it('refuses a CTE or a table named like a system catalog, in any case', async () => {
    expect(await refusalOf('WITH PG_x AS (SELECT 1) SELECT 1')).toBe('The name pg_x is reserved for the system catalogs');
    expect(await refusalOf('WITH "PG_x" AS (SELECT 1) SELECT 1')).toBe('The name PG_x is reserved for the system catalogs');
    expect(await refusalOf('SELECT * FROM "Pg_Class"')).toBe('The system catalogs cannot be read (Pg_Class)');
  });

  it('names every part of a qualified table it refuses', async () => {
    expect(await refusalOf('SELECT * FROM db.public.orders')).toBe('Tables are named without a schema: db.public.orders is refused');
    expect(await refusalOf('SELECT * FROM public.orders')).toBe('Tables are named without a schema: public.orders is refused');
  });
});

describe('statements other than SELECT are named as SQL names them', () => {
  const NAMED: [string, string][] = [
    ['INSERT INTO t VALUES (1)', 'INSERT'],
    ['UPDATE t SET a = 1', 'UPDATE'],
    ['DELETE FROM t', 'DELETE'],
    ['MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE', 'MERGE'],
    ['CREATE TABLE t (a int)', 'CREATE TABLE'],
    ['CREATE TABLE t AS SELECT 1', 'CREATE TABLE AS'],
    ['DROP TABLE t', 'DROP'],
    ['TRUNCATE t', 'TRUNCATE'],
    ['COPY t TO STDOUT', 'COPY'],
    ['SET work_mem = 1', 'SET'],
    ['SHOW work_mem', 'SHOW'],
    ['COMMIT', 'a transaction command (BEGIN, COMMIT, ROLLBACK)'],
    ['EXPLAIN SELECT 1', 'EXPLAIN'],
    ['ALTER TABLE t ADD COLUMN b int', 'ALTER TABLE'],
    ['GRANT SELECT ON t TO public', 'GRANT or REVOKE'],
    ['REVOKE SELECT ON t FROM public', 'GRANT or REVOKE'],
    ["DO 'begin end'", 'DO'],
    ['CALL p()', 'CALL'],
    ["CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'select 1'", 'CREATE FUNCTION'],
    ['CREATE VIEW v AS SELECT 1', 'CREATE VIEW'],
    ['CREATE INDEX i ON t (a)', 'CREATE INDEX'],
    ['VACUUM t', 'VACUUM'],
    ['CREATE ROLE r', 'CREATE ROLE'],
  ];
  for (const [query, name] of NAMED) {
    it(`${query} → ${name}`, async () => {
      expect(await refusalOf(query)).toBe(`Only SELECT is allowed, not ${name}`);
    });
  }
});

describe('the shape of the text', () => {
  it('takes one trailing semicolon, and no other', async () => {
    expect((await checkQuery('SELECT a FROM t ;')).text).toBe('SELECT a FROM t');
    for (const query of [';SELECT 1', 'SELECT 1;;', 'SELECT 1; ;']) {
      expect(await refusalOf(query)).toBe('Exactly one SELECT statement is allowed: remove the extra semicolon');
    }
    expect(await refusalOf('SELECT 1; SELECT 2')).toBe('Exactly one SELECT statement is allowed');
    expect(await refusalOf('   \n\t ')).toBe('The query is empty');
  });

  it('reads control characters inside a literal (the scanner would choke on them raw)', async () => {
    const query = "SELECT 'a\u0001\u0007\u001fb', \"c\u000bd\" FROM t;";
    expect(await checkQuery(query)).toEqual({ text: query.slice(0, -1), tables: ['t'] });
  });

  it('refuses a query nested deeper than a person writes (the walk has a bound), and reads one nested 60 deep', async () => {
    const nested = (depth: number) => `SELECT ${'ARRAY['.repeat(depth)}1${']'.repeat(depth)}`;
    await expect(checkQuery(nested(60))).resolves.toBeDefined();
    expect(await refusalOf(nested(100))).toBe('The query is nested too deeply');
  });

  it('reads a tree nested exactly 200 levels deep, and refuses one nested deeper', async () => {
    // Levels below the statement's node: SelectStmt 1, targetList 2, its item 3, ResTarget 4, val 5;
    // each ARRAY[ three (A_ArrayExpr, elements, the element); the constant 1 three (A_Const, ival,
    // its number). So n arrays reach 3n + 8: 64 arrays are 200 levels, 65 are 203.
    const nested = (depth: number) => `SELECT ${'ARRAY['.repeat(depth)}1${']'.repeat(depth)}`;
    expect(await treeDepth(nested(64))).toBe(200);
    expect(await treeDepth(nested(65))).toBe(203);
    await expect(checkQuery(nested(64))).resolves.toEqual({ text: nested(64), tables: [] });
    expect(await refusalOf(nested(65))).toBe('The query is nested too deeply');
  });

  it('statementText cuts by bytes and trims; without a length it runs to the end', () => {
    expect(statementText('  SELECT 1  ')).toBe('SELECT 1');
    expect(statementText('é; SELECT 1', 3)).toBe('SELECT 1');
    expect(statementText('é; SELECT 1; x', 3, 9)).toBe('SELECT 1');
  });
});

/** How many objects and lists enclose the deepest value of the query's statement node (its own fields are at 1). */
async function treeDepth(query: string): Promise<number> {
  const { stmts } = (await parse(query)) as { stmts: { stmt: unknown }[] };
  const below = (node: unknown): number => (typeof node === 'object' && node !== null ? 1 + Math.max(0, ...Object.values(node).map(below)) : 0);
  return below(stmts[0]?.stmt);
}
