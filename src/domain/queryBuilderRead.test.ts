import { describe, expect, it } from 'vitest';
import { emptyQuery, type ColumnRef, type QueryState } from './queryBuilder';
import { readQuery } from './queryBuilderRead';

// The reader rule by rule (queryBuilderRead.ts): what it reads, into which state, and why it
// refuses the rest. Expected states are written out by hand from the SQL, as PostgreSQL reads it.

const col = (column: string, table = 't'): ColumnRef => ({ table, column });
const query = (parts: Partial<QueryState>, table = 't'): QueryState => ({ ...emptyQuery(table), ...parts });

const stateOf = (sql: string): QueryState => {
  const read = readQuery(sql);
  if (!read.ok || read.state === null) throw new Error(read.ok ? 'no query' : read.problem);
  return read.state;
};
const problemOf = (sql: string): string => {
  const read = readQuery(sql);
  if (read.ok) throw new Error(`read: ${JSON.stringify(read.state)}`);
  return read.problem;
};
const where = (condition: string) => stateOf(`SELECT * FROM t WHERE ${condition}`).filters;
const whereProblem = (condition: string) => problemOf(`SELECT * FROM t WHERE ${condition}`);
const GRAMMAR = 'The builder reads SELECT … FROM … [LEFT JOIN …] [WHERE …] [GROUP BY …] [ORDER BY …] [LIMIT …] as it writes them.';

describe('readQuery: the start', () => {
  it('reads blank text as no query', () => {
    expect(readQuery('')).toEqual({ ok: true, state: null });
    expect(readQuery(' \n\t')).toEqual({ ok: true, state: null });
  });

  it('reads SELECT after any whitespace, in any case, followed by space, * or a quoted name', () => {
    expect(stateOf(' \t\r\n\fSELECT * FROM t')).toEqual(query({}));
    expect(stateOf('select*from t')).toEqual(query({}));
    expect(stateOf('SeLeCt"a"FROM t')).toEqual(query({ columns: [col('a')] }));
    expect(stateOf('SELECT\na\nFROM\nt')).toEqual(query({ columns: [col('a')] }));
    // however much whitespace comes first
    expect(stateOf(`${' '.repeat(64)}SELECT * FROM t`)).toEqual(query({}));
    expect(stateOf(`${'\n'.repeat(100_000)}SELECT a FROM t`)).toEqual(query({ columns: [col('a')] }));
  });

  it('refuses text that does not start with SELECT, naming the grammar', () => {
    expect(problemOf('WITH x AS (SELECT 1) SELECT * FROM x')).toBe(`It does not start with SELECT. ${GRAMMAR}`);
    expect(problemOf('x SELECT * FROM t')).toBe(`It does not start with SELECT. ${GRAMMAR}`);
    expect(problemOf('selected FROM t')).toBe(`It does not start with SELECT. ${GRAMMAR}`);
    expect(problemOf('(SELECT * FROM t)')).toBe(`It does not start with SELECT. ${GRAMMAR}`);
  });

  it('reports a state the builder would write differently', () => {
    expect(problemOf('SELECT * FROM t LIMIT 0')).toMatch(/^Its limit is beyond/);
  });
});

describe('tokens: strings', () => {
  it('reads a plain string with doubled quotes, backslashes as they are', () => {
    expect(where("a = 'it''s'")).toEqual([{ column: col('a'), operator: '=', value: "it's" }]);
    expect(where("a = ''''")).toEqual([{ column: col('a'), operator: '=', value: "'" }]);
    expect(where("a = 'x\\y'")).toEqual([{ column: col('a'), operator: '=', value: 'x\\y' }]);
    expect(where("a = ''")).toEqual([{ column: col('a'), operator: '=', value: '' }]);
  });

  it('reads an escape string (E or e) with \\\\ and \\\'', () => {
    expect(where("a = E'x\\\\y'")).toEqual([{ column: col('a'), operator: '=', value: 'x\\y' }]);
    expect(where("a = e'\\''")).toEqual([{ column: col('a'), operator: '=', value: "'" }]);
    expect(where("a = E'it''s'")).toEqual([{ column: col('a'), operator: '=', value: "it's" }]);
  });

  it('refuses any other escape, and another prefix', () => {
    expect(whereProblem("a = E'\\n'")).toBe("A text value uses an escape other than \\\\ or \\'.");
    expect(whereProblem("a = E'\\")).toBe("A text value uses an escape other than \\\\ or \\'.");
    expect(whereProblem("a = N'x'")).toBe("It has a N'…' value, which the builder does not write.");
    expect(whereProblem("a = ex'x'")).toBe("It has a ex'…' value, which the builder does not write.");
  });

  it('refuses a string not closed', () => {
    expect(whereProblem("a = 'x")).toBe('A text value is not closed.');
    expect(whereProblem("a = 'x''")).toBe('A text value is not closed.');
    expect(whereProblem("a = E'x")).toBe('A text value is not closed.');
  });
});

describe('tokens: names, words and numbers', () => {
  it('keeps a quoted name as written, doubled quotes undone; folds a bare one to lower case', () => {
    expect(stateOf('SELECT "Status", "a""b", Amount FROM "My Table"')).toEqual(query({ columns: [col('Status', 'My Table'), col('a"b', 'My Table'), col('amount', 'My Table')] }, 'My Table'));
    expect(stateOf('SELECT a_1$, _b, zeta, Alpha, Zulu, a09 FROM T')).toEqual(query({ columns: [col('a_1$'), col('_b'), col('zeta'), col('alpha'), col('zulu'), col('a09')] }));
  });

  it('reads a quoted name that is a keyword or a symbol as a name', () => {
    expect(stateOf('SELECT "*" FROM "select"')).toEqual(query({ columns: [col('*', 'select')] }, 'select'));
    expect(stateOf('SELECT "from" FROM t')).toEqual(query({ columns: [col('from')] }));
  });

  it('refuses an empty or unclosed quoted name', () => {
    expect(problemOf('SELECT * FROM ""')).toBe('It has an empty quoted name ("").');
    expect(problemOf('SELECT * FROM "t')).toBe('A quoted name is not closed.');
    expect(problemOf('SELECT * FROM "t""')).toBe('A quoted name is not closed.');
  });

  it('reads whole and decimal numbers, and a minus before one', () => {
    expect(where('a = 12 AND b = 1.50 AND c = -3 AND d = - 4')).toEqual([
      { column: col('a'), operator: '=', value: '12' },
      { column: col('b'), operator: '=', value: '1.50' },
      { column: col('c'), operator: '=', value: '-3' },
      { column: col('d'), operator: '=', value: '-4' },
    ]);
  });

  it('refuses a number run into letters or dots', () => {
    expect(whereProblem('a = 1x')).toBe('It has a number the builder does not read (1x).');
    expect(whereProblem('a = 1.')).toBe('It has a number the builder does not read (1.).');
    expect(whereProblem('a = 1.5.2')).toBe('It has a number the builder does not read (1.5.).');
    expect(whereProblem('a = 1.x')).toBe('It has a number the builder does not read (1.).');
    expect(whereProblem('a = 15$')).toBe('It has a number the builder does not read (15$).');
    expect(whereProblem('a = 1x5')).toBe('It has a number the builder does not read (1x).');
    expect(whereProblem('a = 1 5')).toBe(`It has something else at "5". ${GRAMMAR}`);
  });

  it('refuses a character the builder never writes', () => {
    expect(whereProblem('a = $1')).toBe('It has "$" where the builder writes none.');
    expect(whereProblem('a : 1')).toBe('It has ":" where the builder writes none.');
    expect(whereProblem('a = [1]')).toBe('It has "[" where the builder writes none.');
    expect(problemOf('SELECT é FROM t')).toBe('It has "é" where the builder writes none.');
  });
});

describe('tokens: comments and operators', () => {
  it('refuses a comment anywhere, also right after an operator', () => {
    const comment = 'It has a comment, which the builder would drop.';
    expect(problemOf('SELECT * FROM t -- x')).toBe(comment);
    expect(problemOf('SELECT * FROM t /* x */')).toBe(comment);
    expect(whereProblem('a =-- x\n 1')).toBe(comment);
    expect(whereProblem('a =/* x */ 1')).toBe(comment);
    expect(whereProblem("a <>--\n'x'")).toBe(comment);
  });

  it('does not take a lone - or / for a comment', () => {
    expect(where('a = -1')).toEqual([{ column: col('a'), operator: '=', value: '-1' }]);
    expect(whereProblem('a = 1 / 2')).toBe(`It has something else at "/". ${GRAMMAR}`);
    expect(whereProblem('a = 1 -')).toBe(`It has something else at "-". ${GRAMMAR}`);
  });

  it('reads a run of operator characters as one operator, as PostgreSQL does', () => {
    expect(where("a<>'x'")).toEqual([{ column: col('a'), operator: '≠', value: 'x' }]);
    expect(where("a!='x'")).toEqual([{ column: col('a'), operator: '≠', value: 'x' }]);
    expect(whereProblem('a =-1')).toBe(`It has something else at "=-1". ${GRAMMAR}`);
    expect(whereProblem("a ~~ 'x'")).toBe(`It has something else at "~~". ${GRAMMAR}`);
    expect(whereProblem("a =<> 'x'")).toBe(`It has something else at "=<>". ${GRAMMAR}`);
    expect(whereProblem('a =>-1')).toBe(`It has something else at "=>-1". ${GRAMMAR}`);
    expect(whereProblem('a =/1')).toBe(`It has something else at "=/1". ${GRAMMAR}`);
    expect(whereProblem('a =** 1')).toBe(`It has something else at "=**". ${GRAMMAR}`);
    expect(whereProblem('a =:1')).toBe('It has ":" where the builder writes none.');
  });
});

describe('where the parser stops', () => {
  it('names the text at the token it cannot read: up to a space, bracket or comma, at most 24 characters', () => {
    expect(problemOf('SELECT 1 FROM t')).toBe(`It has something else at "1". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LIMIT x,y')).toBe(`It has something else at "x". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LIMIT x(y')).toBe(`It has something else at "x". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LIMIT x)y')).toBe(`It has something else at "x". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LIMIT abcdefghijklmnopqrstuvwxyz')).toBe(`It has something else at "abcdefghijklmnopqrstuvwx". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t WHERE (a = 1)')).toBe(`It has something else at "(". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t WHERE a = ,')).toBe(`It has something else at ",". ${GRAMMAR}`);
  });

  it('says "the end" when the text stops too soon', () => {
    expect(problemOf('SELECT * FROM')).toBe(`It has something else at the end. ${GRAMMAR}`);
    expect(problemOf('SELECT a,')).toBe(`It has something else at the end. ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t WHERE a =')).toBe(`It has something else at the end. ${GRAMMAR}`);
  });

  it('refuses a reserved word as a name, and anything after the query', () => {
    expect(problemOf('SELECT * FROM select')).toBe(`It has something else at "select". ${GRAMMAR}`);
    expect(problemOf('SELECT a, order FROM t')).toBe(`It has something else at "order". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t; x')).toBe(`It has something else at "x". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t;;')).toBe(`It has something else at ";". ${GRAMMAR}`);
  });
});

describe('the select list', () => {
  it('reads * as every column, and names as shown columns in order', () => {
    expect(stateOf('SELECT * FROM t;')).toEqual(query({}));
    expect(stateOf('SELECT b, a FROM t')).toEqual(query({ columns: [col('b'), col('a')] }));
    expect(stateOf('SELECT t.b FROM t')).toEqual(query({ columns: [col('b')] }));
  });

  it('reads an aggregate word without brackets as a column', () => {
    expect(stateOf('SELECT count, sum FROM t')).toEqual(query({ columns: [col('count'), col('sum')] }));
  });

  it('refuses * beside columns, DISTINCT and a renamed column', () => {
    expect(problemOf('SELECT *, a FROM t')).toBe(`It has something else at ",". ${GRAMMAR}`);
    expect(problemOf('SELECT DISTINCT a FROM t')).toBe('It selects DISTINCT rows; the builder groups instead.');
    expect(problemOf('SELECT a AS b FROM t')).toBe('It renames a column (AS), which the builder does not.');
    expect(problemOf('SELECT a b FROM t')).toBe('It renames a column (AS), which the builder does not.');
    expect(problemOf('SELECT a "b" FROM t')).toBe('It renames a column (AS), which the builder does not.');
  });

  it('refuses a function the builder does not write', () => {
    expect(problemOf('SELECT lower(a) FROM t')).toBe(`It has something else at "(". ${GRAMMAR}`);
    expect(problemOf('SELECT "count"(*) FROM t')).toBe(`It has something else at "(". ${GRAMMAR}`);
    // words that only an object's prototype knows are no aggregate either
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(problemOf(`SELECT ${word}(a) FROM t`)).toBe(`It has something else at "(". ${GRAMMAR}`);
      expect(problemOf(`SELECT count(*) AS n, ${word}(a) FROM t`)).toBe(`It has something else at "(". ${GRAMMAR}`);
    }
  });
});

describe('aggregates', () => {
  it('reads each function, named after it without AS, as PostgreSQL names the column', () => {
    expect(stateOf('SELECT count(*), sum(a), avg(a), min(b), max(b) FROM t')).toEqual(
      query({
        aggregates: [
          { fn: 'count', column: null, alias: 'count' },
          { fn: 'sum', column: col('a'), alias: 'sum' },
          { fn: 'avg', column: col('a'), alias: 'avg' },
          { fn: 'min', column: col('b'), alias: 'min' },
          { fn: 'max', column: col('b'), alias: 'max' },
        ],
      }),
    );
  });

  it('reads count(DISTINCT …) as a distinct count, named count', () => {
    expect(stateOf('SELECT count(DISTINCT a) FROM t').aggregates).toEqual([{ fn: 'distinct count', column: col('a'), alias: 'count' }]);
    expect(stateOf('SELECT COUNT ( distinct t.a ) AS n FROM t').aggregates).toEqual([{ fn: 'distinct count', column: col('a'), alias: 'n' }]);
  });

  it('takes the name after AS, or a bare or quoted name without it', () => {
    expect(stateOf('SELECT sum(a) AS Total, min(a) AS "Low", max(a) high, avg(a) "Mean" FROM t').aggregates.map((a) => a.alias)).toEqual(['total', 'Low', 'high', 'Mean']);
  });

  it('refuses count of a column, * in another function, and a keyword as its name', () => {
    expect(problemOf('SELECT count(a) FROM t')).toBe('It counts the values of a column; the builder counts rows (count(*)) or distinct values (count(DISTINCT …)).');
    expect(problemOf('SELECT sum(*) FROM t')).toBe(`It has something else at "*". ${GRAMMAR}`);
    expect(problemOf('SELECT sum(a AS x FROM t')).toBe(`It has something else at "AS". ${GRAMMAR}`);
    expect(problemOf('SELECT sum(a) AS from t')).toBe(`It has something else at "from". ${GRAMMAR}`);
  });
});

describe('conditions', () => {
  it('reads each comparison', () => {
    expect(where("a = 'x' AND a <> 'x' AND a != 'x' AND a < 9 AND a <= 9 AND a > 0 AND a >= 0")).toEqual([
      { column: col('a'), operator: '=', value: 'x' },
      { column: col('a'), operator: '≠', value: 'x' },
      { column: col('a'), operator: '≠', value: 'x' },
      { column: col('a'), operator: '<', value: '9' },
      { column: col('a'), operator: '≤', value: '9' },
      { column: col('a'), operator: '>', value: '0' },
      { column: col('a'), operator: '≥', value: '0' },
    ]);
  });

  it('reads contains and starts with as the builder writes them, in any case', () => {
    expect(where("strpos(lower(a::text), lower('x')) > 0")).toEqual([{ column: col('a'), operator: 'contains', value: 'x' }]);
    expect(where("STRPOS(LOWER(t.a :: TEXT), LOWER(E'x\\\\y')) > 0")).toEqual([{ column: col('a'), operator: 'contains', value: 'x\\y' }]);
    expect(where("starts_with(lower(a::text), lower('x'))")).toEqual([{ column: col('a'), operator: 'starts with', value: 'x' }]);
    expect(where('starts_with(lower(a::text), lower(-1))')).toEqual([{ column: col('a'), operator: 'starts with', value: '-1' }]);
  });

  it('reads is empty and is not empty', () => {
    expect(where("coalesce(a::text, '') = ''")).toEqual([{ column: col('a'), operator: 'is empty', value: '' }]);
    expect(where("coalesce(a::text, '') <> ''")).toEqual([{ column: col('a'), operator: 'is not empty', value: '' }]);
    expect(where("coalesce(a::text, '') != ''")).toEqual([{ column: col('a'), operator: 'is not empty', value: '' }]);
  });

  it('reads strpos, starts_with and coalesce without brackets as column names', () => {
    expect(where("strpos = 'x' AND starts_with = 'y' AND coalesce = 'z'")).toEqual([
      { column: col('strpos'), operator: '=', value: 'x' },
      { column: col('starts_with'), operator: '=', value: 'y' },
      { column: col('coalesce'), operator: '=', value: 'z' },
    ]);
  });

  it('refuses contains with another comparison than > 0', () => {
    const contains = (rest: string) => whereProblem(`strpos(lower(a::text), lower('x'))${rest}`);
    expect(contains(' > 1')).toBe(`It has something else at "1". ${GRAMMAR}`);
    expect(contains(' > 0.0')).toBe(`It has something else at "0.0". ${GRAMMAR}`);
    expect(contains(" > '0'")).toBe(`It has something else at "'0'". ${GRAMMAR}`);
    expect(contains(' >= 0')).toBe(`It has something else at ">=". ${GRAMMAR}`);
    expect(contains(' > "0"')).toBe(`It has something else at ${JSON.stringify('"0"')}. ${GRAMMAR}`);
    expect(contains('')).toBe(`It has something else at the end. ${GRAMMAR}`);
    expect(contains(' >')).toBe(`It has something else at the end. ${GRAMMAR}`);
  });

  it('refuses contains and starts with written otherwise', () => {
    expect(whereProblem("strpos(a::text, lower('x')) > 0")).toBe(`It has something else at "a::text". ${GRAMMAR}`);
    expect(whereProblem("strpos(lower(a), lower('x')) > 0")).toBe(`It has something else at ")". ${GRAMMAR}`);
    expect(whereProblem("strpos(lower(a::int), lower('x')) > 0")).toBe(`It has something else at "int". ${GRAMMAR}`);
    expect(whereProblem("starts_with(lower(a::text), upper('x'))")).toBe(`It has something else at "upper". ${GRAMMAR}`);
    expect(whereProblem("starts_with(lower(a::text) lower('x'))")).toBe(`It has something else at "lower". ${GRAMMAR}`);
    expect(whereProblem("starts_with(lower(a::text), lower(x))")).toBe(`It has something else at "x". ${GRAMMAR}`);
    expect(whereProblem("starts_with(lower(a::text), lower('x'), 1)")).toBe(`It has something else at ",". ${GRAMMAR}`);
  });

  it('refuses is empty written otherwise', () => {
    expect(whereProblem("coalesce(a::text, 'x') = ''")).toBe(`It has something else at ")". ${GRAMMAR}`);
    expect(whereProblem("coalesce(a::text, 0) = ''")).toBe(`It has something else at ")". ${GRAMMAR}`);
    expect(whereProblem("coalesce(a::text, '') = 'x'")).toBe(`It has something else at the end. ${GRAMMAR}`);
    expect(whereProblem("coalesce(a::text, '') < ''")).toBe(`It has something else at "<". ${GRAMMAR}`);
    expect(whereProblem("coalesce(a::text, '') LIKE ''")).toBe(`It has something else at "LIKE". ${GRAMMAR}`);
    expect(whereProblem(`coalesce(a::text, '') "=" ''`)).toBe(`It has something else at ${JSON.stringify('"="')}. ${GRAMMAR}`);
    expect(whereProblem("coalesce(a::text) = ''")).toBe(`It has something else at ")". ${GRAMMAR}`);
    expect(whereProblem("coalesce(a::text, '')")).toBe(`It has something else at the end. ${GRAMMAR}`);
  });

  it('refuses another operator or a value that is no literal', () => {
    expect(whereProblem("a LIKE 'x'")).toBe(`It has something else at "LIKE". ${GRAMMAR}`);
    expect(whereProblem('a IS NULL')).toBe(`It has something else at "IS". ${GRAMMAR}`);
    expect(whereProblem(`a "=" 'x'`)).toBe(`It has something else at ${JSON.stringify('"="')}. ${GRAMMAR}`);
    expect(whereProblem("lower(a) = 'x'")).toBe(`It has something else at "(". ${GRAMMAR}`);
    expect(whereProblem('a = b')).toBe(`It has something else at "b". ${GRAMMAR}`);
    expect(whereProblem("a = -'x'")).toBe(`It has something else at "'x'". ${GRAMMAR}`);
    expect(whereProblem('a')).toBe(`It has something else at the end. ${GRAMMAR}`);
  });

  it('keeps every condition joined by AND, and refuses OR', () => {
    expect(where("a = 1 and b <> 'x'")).toEqual([
      { column: col('a'), operator: '=', value: '1' },
      { column: col('b'), operator: '≠', value: 'x' },
    ]);
    expect(whereProblem('a = 1 OR b = 2')).toBe('It has OR; the builder keeps rows that pass every filter (AND).');
    expect(whereProblem('a = 1 AND b = 2 or c = 3')).toBe('It has OR; the builder keeps rows that pass every filter (AND).');
    expect(problemOf('SELECT * FROM t WHERE')).toBe(`It has something else at the end. ${GRAMMAR}`);
  });
});

describe('the table and its joins', () => {
  const JOINED = query({ joins: [{ table: 'c', column: 'id', from: col('cid') }], columns: [col('a')] });

  it('reads a LEFT JOIN whichever side of = the joined key is on', () => {
    expect(stateOf('SELECT t.a FROM t LEFT JOIN c ON c.id = t.cid')).toEqual(JOINED);
    expect(stateOf('SELECT t.a FROM t LEFT JOIN c ON t.cid = c.id')).toEqual(JOINED);
    expect(stateOf('select t.a from t left outer join c on c.id = t.cid')).toEqual(JOINED);
  });

  it('reads a join onto a table joined before it', () => {
    expect(stateOf('SELECT t.a, d.b FROM t LEFT JOIN c ON c.id = t.cid LEFT JOIN d ON c.did = d.id')).toEqual(
      query({
        joins: [
          { table: 'c', column: 'id', from: col('cid') },
          { table: 'd', column: 'id', from: col('did', 'c') },
        ],
        columns: [col('a'), col('b', 'd')],
      }),
    );
  });

  it('refuses a schema, an alias and an inner join', () => {
    expect(problemOf('SELECT * FROM s.t')).toBe('It names a table with its schema; dataset queries name store tables alone.');
    const alias = 'It gives a table another name (an alias), which the builder does not.';
    expect(problemOf('SELECT * FROM t x')).toBe(alias);
    expect(problemOf('SELECT * FROM t AS x')).toBe(alias);
    expect(problemOf('SELECT * FROM t "x"')).toBe(alias);
    expect(problemOf('SELECT * FROM t LEFT JOIN c x ON c.id = t.cid')).toBe(alias);
    expect(problemOf('SELECT * FROM t LEFT JOIN c AS x ON c.id = t.cid')).toBe(alias);
    const inner = 'It has an inner join; the builder writes LEFT JOIN, which keeps every row.';
    expect(problemOf('SELECT * FROM t JOIN c ON c.id = t.cid')).toBe(inner);
    expect(problemOf('SELECT * FROM t INNER JOIN c ON c.id = t.cid')).toBe(inner);
    expect(problemOf('SELECT t.a FROM t LEFT JOIN c ON c.id = t.cid JOIN d ON d.id = t.did')).toBe(inner);
  });

  it('refuses a join written otherwise', () => {
    expect(problemOf('SELECT * FROM t LEFT JOIN c USING (id)')).toBe(`It has something else at "USING". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LEFT c ON c.id = t.cid')).toBe(`It has something else at "c". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON c.id <> t.cid')).toBe(`It has something else at "<>". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON c.id = t.cid AND c.x = 1')).toBe(`It has something else at "AND". ${GRAMMAR}`);
  });

  it('refuses a join on anything but its own column equal to one of a table before it', () => {
    const other = 'It joins c on something other than one of its columns equal to a column of the tables before it.';
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON c.id = c.x')).toBe(other);
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON c.id = cid')).toBe(other);
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON cid = c.id')).toBe(other);
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON id = t.cid')).toBe(other);
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON t.a = t.b')).toBe(other);
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON c.id = x.y')).toBe('It joins c on x, which is not a table before it.');
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON c.id = d.cid LEFT JOIN d ON d.id = t.did')).toBe('It joins c on d, which is not a table before it.');
    expect(problemOf('SELECT * FROM t LEFT JOIN c ON c.id = t.cid LEFT JOIN c ON c.id = t.x')).toBe('It joins c twice.');
  });

  it('with a join, every column names its table, one of the query', () => {
    expect(problemOf('SELECT a FROM t LEFT JOIN c ON c.id = t.cid')).toBe('With a table joined, the builder names each column with its table (a has none).');
    expect(problemOf('SELECT t.a FROM t LEFT JOIN c ON c.id = t.cid WHERE b = 1')).toBe('With a table joined, the builder names each column with its table (b has none).');
    expect(problemOf('SELECT x.a FROM t LEFT JOIN c ON c.id = t.cid')).toBe('It names x.a, but x is not a table of the query.');
    expect(stateOf("SELECT * FROM t LEFT JOIN c ON c.id = t.cid WHERE c.n = 'x'").filters).toEqual([{ column: col('n', 'c'), operator: '=', value: 'x' }]);
  });
});

describe('groups', () => {
  it('reads the shown columns as the groups, in the order shown, then the aggregates', () => {
    expect(stateOf('SELECT a, b, sum(c) AS s FROM t GROUP BY b, a')).toEqual(query({ groupBy: [col('a'), col('b')], aggregates: [{ fn: 'sum', column: col('c'), alias: 's' }] }));
    expect(stateOf('SELECT a FROM t GROUP BY a')).toEqual(query({ groupBy: [col('a')] }));
    expect(stateOf('SELECT count(*) FROM t')).toEqual(query({ aggregates: [{ fn: 'count', column: null, alias: 'count' }] }));
  });

  it('refuses groups beside *, after an aggregate, not shown or not grouped', () => {
    expect(problemOf('SELECT * FROM t GROUP BY a')).toBe('It groups rows but shows every column (*).');
    const first = 'It shows a group after an aggregate; the builder shows the groups first.';
    expect(problemOf('SELECT count(*), a FROM t GROUP BY a')).toBe(first);
    expect(problemOf('SELECT a, count(*), b FROM t GROUP BY a, b')).toBe(first);
    expect(problemOf('SELECT a, count(*) FROM t')).toBe('It shows a without grouping by it.');
    expect(problemOf('SELECT count(*) FROM t GROUP BY a')).toBe('It groups by a without showing it.');
    expect(problemOf('SELECT a, count(*) FROM t GROUP BY b')).toBe('It shows a without grouping by it.');
    expect(problemOf('SELECT a, count(*) FROM t GROUP BY a, b')).toBe('It groups by b without showing it.');
    expect(problemOf('SELECT a FROM t GROUP a')).toBe(`It has something else at "a". ${GRAMMAR}`);
  });

  it('tells a group from another table’s column of the same name', () => {
    const joined = 'FROM t LEFT JOIN c ON c.id = t.cid';
    expect(stateOf(`SELECT t.a, c.a, count(*) ${joined} GROUP BY c.a, t.a`).groupBy).toEqual([col('a'), col('a', 'c')]);
    expect(problemOf(`SELECT t.a, c.a, count(*) ${joined} GROUP BY t.a`)).toBe('It shows a without grouping by it.');
    expect(problemOf(`SELECT t.a, count(*) ${joined} GROUP BY t.a, c.a`)).toBe('It groups by a without showing it.');
  });

  it('refuses HAVING', () => {
    expect(problemOf('SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1')).toBe('It filters groups (HAVING), which the builder does not.');
  });
});

describe('sort and limit', () => {
  it('reads each key with its direction, ascending when none is written', () => {
    expect(stateOf('SELECT * FROM t ORDER BY a DESC, b ASC, c').sort).toEqual([
      { key: { kind: 'column', column: col('a') }, direction: 'desc' },
      { key: { kind: 'column', column: col('b') }, direction: 'asc' },
      { key: { kind: 'column', column: col('c') }, direction: 'asc' },
    ]);
  });

  it('reads a bare name of an aggregate as that aggregate, by its place', () => {
    expect(stateOf('SELECT a, count(*), sum(b) FROM t GROUP BY a ORDER BY sum DESC, "count", a').sort).toEqual([
      { key: { kind: 'aggregate', index: 1 }, direction: 'desc' },
      { key: { kind: 'aggregate', index: 0 }, direction: 'asc' },
      { key: { kind: 'column', column: col('a') }, direction: 'asc' },
    ]);
  });

  it('reads a qualified name as a column even when an aggregate has that name', () => {
    expect(problemOf('SELECT a, sum(b) AS b FROM t GROUP BY a ORDER BY t.b')).toBe('It sorts by t.b, which it does not group by.');
  });

  it('refuses NULLS FIRST/LAST and ORDER without BY', () => {
    const nulls = 'It places empty values itself (NULLS FIRST/LAST), which the builder does not.';
    expect(problemOf('SELECT * FROM t ORDER BY a NULLS FIRST')).toBe(nulls);
    expect(problemOf('SELECT * FROM t ORDER BY a DESC NULLS LAST')).toBe(nulls);
    expect(problemOf('SELECT * FROM t ORDER a')).toBe(`It has something else at "a". ${GRAMMAR}`);
  });

  it('reads a limit of whole digits up to the largest the builder writes', () => {
    expect(stateOf('SELECT * FROM t LIMIT 5').limit).toBe(5);
    expect(stateOf('SELECT * FROM t LIMIT 1000000000').limit).toBe(1_000_000_000);
    expect(stateOf('SELECT * FROM t LIMIT 000000000007').limit).toBe(7);
    // leading zeros as PostgreSQL reads them, however many
    expect(stateOf('SELECT * FROM t LIMIT 0000000000005').limit).toBe(5);
    expect(stateOf(`SELECT * FROM t LIMIT ${'0'.repeat(400)}12`).limit).toBe(12);
    const beyond = 'Its limit is beyond what the builder offers (1 to 1,000,000,000).';
    expect(problemOf('SELECT * FROM t LIMIT 1000000001')).toBe(beyond);
    expect(problemOf('SELECT * FROM t LIMIT 1000000000000')).toBe(beyond);
    expect(problemOf(`SELECT * FROM t LIMIT ${'9'.repeat(400)}`)).toBe(beyond);
  });

  it('refuses a limit that is no whole number', () => {
    expect(problemOf('SELECT * FROM t LIMIT 1.5')).toBe(`It has something else at "1.5". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LIMIT -1')).toBe(`It has something else at "-1". ${GRAMMAR}`);
    expect(problemOf("SELECT * FROM t LIMIT '5'")).toBe(`It has something else at "'5'". ${GRAMMAR}`);
    expect(problemOf("SELECT * FROM t LIMIT E'5'")).toBe(`It has something else at "E'5'". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LIMIT "5"')).toBe(`It has something else at ${JSON.stringify('"5"')}. ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LIMIT ::')).toBe(`It has something else at "::". ${GRAMMAR}`);
    expect(problemOf('SELECT * FROM t LIMIT')).toBe(`It has something else at the end. ${GRAMMAR}`);
  });

  it('reads the clauses in the builder’s order only', () => {
    expect(stateOf("select a from t where a = 'x' order by a limit 3;")).toEqual(
      query({ columns: [col('a')], filters: [{ column: col('a'), operator: '=', value: 'x' }], sort: [{ key: { kind: 'column', column: col('a') }, direction: 'asc' }], limit: 3 }),
    );
    expect(problemOf('SELECT * FROM t LIMIT 5 ORDER BY a')).toBe(`It has something else at "ORDER". ${GRAMMAR}`);
    expect(problemOf("SELECT a FROM t GROUP BY a WHERE a = 'x'")).toBe(`It has something else at "WHERE". ${GRAMMAR}`);
  });
});
