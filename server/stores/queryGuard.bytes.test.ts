import fc from 'fast-check';
import { parse } from 'libpg-query';
import { describe, expect, it } from 'vitest';
import { checkQuery, QueryRefused, statementText, treeKey } from './queryGuard';

// The parser's offsets count UTF-8 bytes. Issue 17: the guard sliced characters, so multi-byte
// text before a statement made it check one statement and hand the runner another.

const KNOWN_BYPASS = "/*éééééééé*/;SELECT 'SELECT current_user u, pg_read_file($$/etc/hostname$$) f --'";

/** The one statement of `text`, as a tree without positions (throws when it is not exactly one). */
async function onlyTree(text: string): Promise<string> {
  const { stmts } = (await parse(text)) as { stmts?: { stmt: unknown }[] };
  expect(stmts).toHaveLength(1);
  return treeKey(stmts?.[0]?.stmt);
}

describe('statementText cuts by bytes', () => {
  it('cuts a statement after multi-byte text where the parser says it starts', () => {
    const query = '/*éé😀*/ SELECT 1; SELECT 2';
    const start = Buffer.byteLength('/*éé😀*/ ');
    expect(statementText(query, start, Buffer.byteLength('SELECT 1'))).toBe('SELECT 1');
    expect(statementText(query, Buffer.byteLength('/*éé😀*/ SELECT 1;'))).toBe('SELECT 2');
  });
});

describe('the known bypass and its variants', () => {
  const VARIANTS = [
    KNOWN_BYPASS,
    "/*😀😀😀😀*/;SELECT 'SELECT current_user u --'",
    "-- ééééé\n;SELECT 'x; SELECT pg_read_file($$/etc/passwd$$) --'",
    "/*ü*/;/*ü*/;SELECT '1' AS a",
    ";SELECT 1",
    'SELECT 1;;',
    "SELECT 'é';SELECT pg_read_file('/etc/passwd')",
  ];
  for (const query of VARIANTS) {
    it(`refuses ${JSON.stringify(query)}`, async () => {
      await expect(checkQuery(query)).rejects.toThrow(QueryRefused);
      await expect(checkQuery(query)).rejects.toThrow(/one SELECT statement/);
    });
  }

  it('hands on exactly the statement it checked when multi-byte text comes first', async () => {
    const checked = await checkQuery("/*éééééééé*/ SELECT 'SELECT current_user u, pg_read_file($$/etc/hostname$$) f --' AS s");
    expect(checked.text).toBe("SELECT 'SELECT current_user u, pg_read_file($$/etc/hostname$$) f --' AS s");
  });
});

// Pieces of text that may hold any character, each in a form where it cannot end its container.
const anyText = fc.string({ unit: 'binary', maxLength: 12 }).map((text) => text.replace(/\0/g, ''));
const wide = fc.string({ unit: fc.constantFrom('é', 'ß', '€', '😀', '𝄞', '中', '\u00a0', 'a', ' ', ';', "'", '"', '$', '*', '/', '-', '\n'), maxLength: 12 });
const text = fc.oneof(anyText, wide);

const comment = fc.oneof(
  // PostgreSQL nests block comments: no '/' or '*' inside, so this one ends where it seems to
  text.map((t) => `/*${t.replace(/[*/]/g, '')}*/`),
  text.map((t) => `--${t.replace(/[\n\r]/g, '')}\n`),
);
const literal = fc.oneof(
  text.map((t) => `'${t.replace(/'/g, "''")}'`),
  text.map((t) => `$q$${t.replace(/\$/g, '')}$q$`),
  text.map((t) => `E'${t.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`),
);
const quotedName = text.filter((t) => t !== '').map((t) => `"${t.replace(/"/g, '""')}"`);
/** A checked-clean SELECT of literals under quoted names, with comments inside. */
const statement = fc
  .array(fc.tuple(literal, quotedName, fc.option(comment, { nil: '' })), { minLength: 1, maxLength: 3 })
  .map((columns) => `SELECT ${columns.map(([value, name, note]) => `${value} ${note} AS ${name}`).join(', ')}`);
const around = fc.array(fc.oneof(comment, fc.constantFrom(' ', '\n', '\t')), { maxLength: 3 }).map((parts) => parts.join(''));

describe('checkQuery with multi-byte text anywhere (property)', () => {
  it('returns exactly the statement it checked, whatever comes before, inside or after it', async () => {
    await fc.assert(
      fc.asyncProperty(around, statement, around, fc.boolean(), async (before, core, after, semicolon) => {
        // a line comment right before the statement would swallow it without its newline
        const query = `${before}\n${core}${semicolon ? ';' : '\n'}${after}`;
        const checked = await checkQuery(query);
        // without a semicolon the statement runs to the end of the text, trailing comments included
        if (semicolon) expect(checked.text).toBe(core.trim());
        else expect(checked.text.startsWith(core.trim())).toBe(true);
        expect(await onlyTree(checked.text)).toBe(await onlyTree(core));
      }),
      { numRuns: 400 },
    );
  });

  it('never returns text holding a second statement, however two are joined', async () => {
    const hostile = fc.constantFrom('SELECT pg_read_file($$/etc/passwd$$)', "SELECT set_config('role', 'postgres', true)", 'DELETE FROM orders', 'SELECT current_user');
    await fc.assert(
      fc.asyncProperty(around, statement, fc.constantFrom(';', ';;', '; ', ''), around, hostile, fc.boolean(), async (before, core, joint, middle, second, secondFirst) => {
        const [first, last] = secondFirst ? [second, core] : [core, second];
        const query = `${before}\n${first}${joint}${middle}\n${last}`;
        try {
          const checked = await checkQuery(query);
          // accepted only when the joint made one statement of both: then the text is that one, whole
          expect(await onlyTree(checked.text)).toBe(await onlyTree(query));
          expect(checked.text).not.toMatch(/pg_read_file|set_config|DELETE/);
        } catch (error) {
          expect(error).toBeInstanceOf(QueryRefused);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('whatever the input, accepted text re-parses to one statement equal to what was checked', async () => {
    const soup = fc.array(fc.oneof(statement, comment, literal, quotedName, fc.constantFrom(';', ' ', '\n', 'SELECT', ',', 'FROM', '(', ')', 'AS')), { maxLength: 8 }).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(soup, async (query) => {
        let checked;
        try {
          checked = await checkQuery(query);
        } catch (error) {
          expect(error).toBeInstanceOf(QueryRefused);
          return;
        }
        expect(await onlyTree(checked.text)).toBe(await onlyTree(query));
      }),
      { numRuns: 400 },
    );
  });
});
