import { describe, expect, it } from 'vitest';
import { checkQuery, checkText, QueryRefused, statementText } from './queryGuard';

// Each rule of the guard on its own (issue 40): the type block by every reg* type PostgreSQL has,
// and the re-parse of the text handed to the runner with the byte-exact cut switched off.

const refusal = async (run: Promise<unknown>): Promise<string> => {
  try {
    await run;
  } catch (error) {
    expect(error).toBeInstanceOf(QueryRefused);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('every reg* type is refused in a cast', () => {
  // Written out from PostgreSQL's catalogue (SELECT typname FROM pg_type WHERE typname LIKE 'reg%'
  // AND typtype = 'b' on PostgreSQL 15), not read from the guard: each looks objects up by name.
  const REG_TYPES = [
    'regclass', 'regcollation', 'regconfig', 'regdictionary', 'regnamespace', 'regoper', 'regoperator',
    'regproc', 'regprocedure', 'regrole', 'regtype',
  ];
  for (const type of REG_TYPES) {
    it(`${type}: as ::, as CAST, qualified with pg_catalog, as an array and in upper case`, async () => {
      for (const query of [
        `SELECT 'x'::${type}`,
        `SELECT CAST('x' AS ${type}) FROM orders`,
        `SELECT 'x'::pg_catalog.${type}`,
        `SELECT ARRAY['x']::${type}[]`,
        `SELECT 'x'::"${type}"`,
        `SELECT 'x'::${type.toUpperCase()}`,
        `SELECT * FROM orders WHERE id = ('x'::${type})::text`,
      ]) {
        // the refusal names this type: it is the type rule that refused, nothing else
        expect(await refusal(checkQuery(query)), query).toMatch(new RegExp(`^The type (pg_catalog\\.)?${type} is not allowed`));
      }
    });
  }

  it('and the other catalogue types: oid, xid, cid, tid, txid_snapshot, pg_*', async () => {
    for (const type of ['oid', 'xid', 'xid8', 'cid', 'tid', 'txid_snapshot', 'pg_lsn', 'pg_snapshot']) {
      expect(await refusal(checkQuery(`SELECT '1'::${type}`)), type).toMatch(/The type .* is not allowed/);
    }
  });

  it('while ordinary types pass', async () => {
    for (const type of ['int', 'bigint', 'numeric(10,2)', 'text', 'varchar(5)', 'date', 'timestamptz', 'interval', 'boolean', 'jsonb', 'uuid', 'text[]']) {
      await expect(checkQuery(`SELECT '1'::${type} FROM orders`), type).resolves.toMatchObject({ tables: ['orders'] });
    }
  });
});

describe('the re-parse of the text the runner is handed', () => {
  // The issue-17 cut: by JavaScript characters instead of the parser's UTF-8 bytes.
  const byCharacters = (query: string, location = 0, length?: number) => query.slice(location, length ? location + length : undefined).trim();

  it('refuses text cut wrongly that parses to another statement', async () => {
    // with the stray-semicolon rule out of the way: one leading comment, no semicolon before
    const query = "/*éééééééé*/ SELECT 'a' AS x, 'SELECT 1 --' AS y";
    expect(byCharacters(query, Buffer.byteLength('/*éééééééé*/ '))).not.toBe(statementText(query, Buffer.byteLength('/*éééééééé*/ ')));
    expect(await refusal(checkText(query, byCharacters))).toBe('The query could not be read as one statement');
    // the same query cut right is accepted: the refusal is the re-parse's
    await expect(checkText(query)).resolves.toMatchObject({ text: "SELECT 'a' AS x, 'SELECT 1 --' AS y" });
  });

  it('refuses a cut that hands on two statements, another statement, or text that does not parse', async () => {
    const query = '/* a comment */ SELECT amount FROM orders;';
    expect(await refusal(checkText(query, () => 'SELECT amount FROM orders; DELETE FROM orders'))).toBe('The query could not be read as one statement');
    expect(await refusal(checkText(query, () => 'SELECT amount FROM customers'))).toBe('The query could not be read as one statement');
    expect(await refusal(checkText(query, () => 'SELECT amount FROM'))).toBe('The query could not be read as one statement');
    expect(await refusal(checkText(query, () => 'SELECT pg_read_file($$/etc/passwd$$)'))).toBe('The query could not be read as one statement');
  });

  it('refuses a cut whose statement differs from the checked one only in a number', async () => {
    const query = '/* a comment */ SELECT amount FROM orders LIMIT 10;';
    expect(await refusal(checkText(query, () => 'SELECT amount FROM orders LIMIT 1000000'))).toBe('The query could not be read as one statement');
    await expect(checkText(query)).resolves.toEqual({ text: 'SELECT amount FROM orders LIMIT 10', tables: ['orders'] });
  });

  it('compares trees, not text: the same statement laid out differently passes', async () => {
    const query = '/* a comment */ SELECT amount FROM orders;';
    await expect(checkText(query, () => 'SELECT   amount\n  FROM orders /* moved */')).resolves.toEqual({ text: 'SELECT   amount\n  FROM orders /* moved */', tables: ['orders'] });
  });
});
