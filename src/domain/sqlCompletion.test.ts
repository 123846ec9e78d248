import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from './hostile.fixture';
import { applyCompletion, MAX_COMPLETION_TEXT, MAX_COMPLETIONS, sqlCompletion, sqlName, type CompletionTable } from './sqlCompletion';

const col = (name: string, type = 'text') => ({ name, type });
const TABLES: CompletionTable[] = [
  { name: 'customers', columns: [col('id', 'bigint'), col('name'), col('country')] },
  { name: 'orders', columns: [col('id'), col('customer_id', 'bigint'), col('amount', 'numeric'), col('ordered_at', 'timestamp with time zone')] },
  { name: 'web_sessions', columns: [col('id'), col('landing_page'), col('Order')] },
];

/** The completion at the `|` of the text. */
const at = (marked: string) => {
  const cursor = marked.indexOf('|');
  return sqlCompletion(marked.replace('|', ''), cursor, TABLES);
};
const labels = (marked: string) => at(marked)?.options.map((o) => o.label) ?? null;

describe('SQL autocomplete', () => {
  it('offers tables after FROM and JOIN, starting matches first, all of them before a word is typed', () => {
    expect(labels('SELECT * FROM |')).toEqual(['customers', 'orders', 'web_sessions']);
    expect(labels('SELECT * FROM or|')).toEqual(['orders']);
    expect(labels('select * from orders o join cu|')).toEqual(['customers']);
    expect(labels('SELECT * FROM s|')).toEqual(['customers', 'orders', 'web_sessions']);
    expect(at('SELECT * FROM or|')).toMatchObject({ from: 14, to: 16 });
  });

  it("offers the columns of the tables the query reads, with their types, and of a table or alias before a dot", () => {
    expect(labels('SELECT am| FROM orders')).toEqual(['amount']);
    expect(at('SELECT na| FROM orders')).toBeNull();
    expect(at('SELECT am| FROM orders')?.options[0]).toMatchObject({ kind: 'column', detail: 'numeric', insert: 'amount' });
    expect(labels('SELECT o.c| FROM orders o')).toEqual(['customer_id']);
    expect(labels('SELECT c.| FROM orders AS o JOIN customers c ON c.id = o.customer_id')).toEqual(['id', 'name', 'country']);
    expect(labels('SELECT orders.am| FROM orders')).toEqual(['amount']);
    // columns of both tables, each name once, with the table it comes from
    const both = at('SELECT c| FROM orders JOIN customers ON true');
    expect(both?.options.map((o) => o.label)).toEqual(['customer_id', 'country', 'customers']);
    expect(both?.options[0]?.detail).toBe('bigint · orders');
  });

  it('offers every table\'s columns and the tables themselves before FROM is written', () => {
    expect(labels('SELECT land|')).toEqual(['landing_page']);
    expect(labels('SELECT cust|')).toEqual(['customer_id', 'customers']);
  });

  it('quotes a name SQL would not read as written', () => {
    const order = at('SELECT Ord| FROM web_sessions')!;
    expect(order.options.map((o) => o.insert)).toEqual(['"Order"', 'orders']);
    expect(sqlName('select')).toBe('"select"');
    expect(sqlName('my"table')).toBe('"my""table"');
    expect(sqlName('orders')).toBe('orders');
  });

  it('offers nothing inside a string, a quoted name or a comment, after a number, or for the word already whole', () => {
    expect(at("SELECT * FROM orders WHERE status = 'com|")).toBeNull();
    expect(at('SELECT "am| FROM orders')).toBeNull();
    expect(at('SELECT * FROM orders -- or|')).toBeNull();
    expect(at('SELECT * FROM orders /* or|')).toBeNull();
    expect(at('SELECT 12| FROM orders')).toBeNull();
    expect(at('SELECT amount| FROM orders')).toBeNull();
    expect(at('SELECT | FROM orders')).toBeNull();
    // after a closed string or comment it works again
    expect(labels("SELECT 'x' AS y, am| FROM orders")).toEqual(['amount']);
    expect(labels('SELECT /* c */ am| FROM orders')).toEqual(['amount']);
  });

  it('replaces the whole word under the cursor with the chosen name', () => {
    const inside = 'SELECT * FROM ordxx WHERE true';
    expect(sqlCompletion(inside, 17, TABLES)).toMatchObject({ from: 14, to: 19 });
    const typed = 'SELECT * FROM ord WHERE true';
    const c = sqlCompletion(typed, 16, TABLES)!;
    expect(applyCompletion(typed, c, c.options[0]!)).toEqual({ text: 'SELECT * FROM orders WHERE true', cursor: 20 });
  });

  it('never fails, stays within the text, and offers only names the store has, on any text and cursor', () => {
    const names = new Set(TABLES.flatMap((t) => [t.name, ...t.columns.map((c) => c.name)]));
    fc.assert(
      fc.property(hostileStringWithHuge, fc.integer({ min: -5, max: 2_000_000 }), (text, cursor) => {
        const completion = sqlCompletion(text, cursor, TABLES);
        if (completion === null) return;
        expect(completion.from).toBeGreaterThanOrEqual(0);
        expect(completion.from).toBeLessThanOrEqual(completion.to);
        expect(completion.to).toBeLessThanOrEqual(text.length);
        expect(completion.options.length).toBeLessThanOrEqual(MAX_COMPLETIONS);
        for (const option of completion.options) expect(names.has(option.label)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('offers nothing in a text too long to re-read on every keystroke', () => {
    const long = `SELECT am${' '.repeat(MAX_COMPLETION_TEXT)} FROM orders`;
    expect(sqlCompletion(long, 9, TABLES)).toBeNull();
  });

  it('offers only options containing the typed word, whatever its case', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z_]{1,6}$/), fc.constantFrom('SELECT ', 'SELECT * FROM ', 'SELECT x FROM orders WHERE '), (word, before) => {
        const completion = sqlCompletion(`${before}${word}`, before.length + word.length, TABLES);
        for (const option of completion?.options ?? []) expect(option.label.toLowerCase()).toContain(word.toLowerCase());
      }),
    );
  });
});

describe('SQL autocomplete, checked by hand', () => {
  const two = (name: string): CompletionTable[] => [
    { name: `${name}a`, columns: [] },
    { name: `${name}b`, columns: [col('x')] },
  ];
  const tableOptions = (names: string[], details: string[]) => names.map((name, i) => ({ label: name, insert: sqlName(name), kind: 'table', detail: details[i] }));

  it.each(['0', '9', 'A', 'Z', 'a', 'z', '_', '$'])('takes %j as part of a word', (c) => {
    const tables = two(`t${c}`);
    expect(sqlCompletion(`SELECT * FROM t${c}`, 16, tables)).toEqual({ from: 14, to: 16, options: tableOptions([`t${c}a`, `t${c}b`], ['0 columns', '1 column']) });
  });

  it.each(['/', ':', '@', '[', '`', '{', '.', '-'])('ends a word at %j', (c) => {
    const tables = two('t');
    expect(sqlCompletion(`SELECT * FROM t${c}`, 15, tables)).toEqual({ from: 14, to: 15, options: tableOptions(['ta', 'tb'], ['0 columns', '1 column']) });
  });

  it('counts a table\'s columns in its detail, and offers at most 50', () => {
    expect(at('SELECT * FROM cu|')?.options).toEqual([{ label: 'customers', insert: 'customers', kind: 'table', detail: '3 columns' }]);
    const many: CompletionTable[] = Array.from({ length: 60 }, (_, i) => ({ name: `t${String(i).padStart(2, '0')}`, columns: [] }));
    const all = sqlCompletion('SELECT * FROM ', 14, many);
    expect(all?.options.map((o) => o.label)).toEqual(many.slice(0, 50).map((t) => t.name));
  });

  it('reads the cursor as a whole position within the text', () => {
    const text = 'SELECT * FROM or';
    // the word so far is 'o': orders begins with it, the others hold it
    expect(sqlCompletion(text, 15.9, TABLES)).toEqual({ from: 14, to: 16, options: tableOptions(['orders', 'customers', 'web_sessions'], ['4 columns', '3 columns', '3 columns']) });
    expect(sqlCompletion(text, 99, TABLES)).toEqual({ from: 14, to: 16, options: tableOptions(['orders'], ['4 columns']) });
    expect(sqlCompletion('or', -3, TABLES)).toBeNull();
  });

  it('completes right after a closed comment, and not in a string read as a name', () => {
    expect(sqlCompletion('SELECT * FROM /**/', 18, TABLES)).toEqual({ from: 18, to: 18, options: tableOptions(['customers', 'orders', 'web_sessions'], ['3 columns', '4 columns', '3 columns']) });
    expect(sqlCompletion('SELECT * FROM -- x\n', 19, TABLES)?.options).toHaveLength(3);
    expect(at("SELECT 'orders'.|")).toBeNull();
    expect(at("SELECT 'orders'.am|")).toBeNull();
  });

  it('reads a quoted qualifier with a doubled quote in it', () => {
    const tables: CompletionTable[] = [{ name: 'my"t', columns: [col('alpha'), col('beta')] }];
    expect(sqlCompletion('SELECT "my""t".', 15, tables)).toEqual({
      from: 15,
      to: 15,
      options: [
        { label: 'alpha', insert: 'alpha', kind: 'column', detail: 'text' },
        { label: 'beta', insert: 'beta', kind: 'column', detail: 'text' },
      ],
    });
  });

  it('needs the dot right before the word to read a qualifier', () => {
    // a space after the dot: the columns of the tables read, not of customers
    expect(labels('SELECT customers. am| FROM orders')).toEqual(['amount']);
    expect(labels('SELECT customers.am| FROM orders')).toEqual(['name']);
  });

  it('reads FROM as the last word, a table named twice, and a quoted "from" as a name', () => {
    expect(labels('SELECT am| FROM')).toEqual(['amount', 'name']);
    expect(at('SELECT am| FROM orders JOIN orders o2')?.options).toEqual([{ label: 'amount', insert: 'amount', kind: 'column', detail: 'numeric' }]);
    expect(labels('SELECT "from" cust|')).toEqual(['customer_id', 'customers']);
  });

  it('takes no keyword for an alias', () => {
    expect(at('SELECT where.| FROM orders where true')).toBeNull();
    expect(labels('SELECT x.| FROM orders AS x')).toEqual(['id', 'customer_id', 'amount', 'ordered_at']);
    expect(labels('SELECT w.| FROM orders o, web_sessions w')).toBeNull();
  });

  it('offers the word itself when something else is offered too, and takes a text of the longest length', () => {
    const tables: CompletionTable[] = [{ name: 'id', columns: [col('id'), col('idx')] }];
    expect(sqlCompletion('SELECT id', 9, tables)?.options.map((o) => o.label)).toEqual(['id', 'idx', 'id']);
    const longest = `SELECT am${' '.repeat(MAX_COMPLETION_TEXT - 'SELECT am FROM orders'.length)} FROM orders`;
    expect(longest).toHaveLength(MAX_COMPLETION_TEXT);
    expect(sqlCompletion(longest, 9, TABLES)?.options.map((o) => o.label)).toEqual(['amount']);
  });
});

describe('SQL autocomplete: what the text before the cursor holds', () => {
  it('takes a single - or / for an operator, not a comment', () => {
    expect(labels('SELECT 1-2, am| FROM orders')).toEqual(['amount']);
    expect(labels('SELECT 4/2, am| FROM orders')).toEqual(['amount']);
    expect(labels('SELECT * FROM -- x\nor|')).toEqual(['orders']);
  });

  it('offers nothing at the end of a line comment, and reads a block comment to its own close', () => {
    expect(sqlCompletion('SELECT * FROM -- x\n', 18, TABLES)).toBeNull();
    // the cursor right before the comment's line end is still in the comment
    expect(sqlCompletion('SELECT * FROM -- \n', 17, TABLES)).toBeNull();
    expect(sqlCompletion('SELECT * FROM /* c */', 21, TABLES)?.options).toHaveLength(3);
    expect(sqlCompletion('SELECT * FROM /*/ c */', 22, TABLES)?.options).toHaveLength(3);
    expect(sqlCompletion('SELECT /* am*/ FROM orders', 12, TABLES)).toBeNull();
  });

  it('skips strings, empty or holding a comment start, and offers nothing just inside one', () => {
    expect(labels("SELECT '--', am| FROM orders")).toEqual(['amount']);
    expect(labels("SELECT '', am| FROM orders")).toEqual(['amount']);
    expect(sqlCompletion("SELECT * FROM ''", 15, TABLES)).toBeNull();
  });

  it('reads a dot at the very start, and a word with no token before it', () => {
    expect(sqlCompletion('.cu', 3, TABLES)).toBeNull();
    expect(labels('cust|')).toEqual(['customer_id', 'customers']);
  });

  it('names a table only after a bare FROM or JOIN', () => {
    const name = [{ label: 'name', insert: 'name', kind: 'column', detail: 'text · customers' }];
    expect(at('SELECT x customers, na|')?.options).toEqual(name);
    expect(at('SELECT "from" customers, na|')?.options).toEqual(name);
    // a quoted name after FROM is a table too
    expect(at('SELECT na| FROM "customers"')?.options).toEqual([{ label: 'name', insert: 'name', kind: 'column', detail: 'text' }]);
    // nor is a symbol after FROM, even where a table has that name
    const withParen: CompletionTable[] = [{ name: '(', columns: [col('inside')] }, TABLES[0]!];
    expect(sqlCompletion('SELECT ins FROM (SELECT 1) q', 10, withParen)?.options).toEqual([{ label: 'inside', insert: 'inside', kind: 'column', detail: 'text · (' }]);
    // nor a symbol before a dot
    expect(sqlCompletion('SELECT (.', 9, withParen)).toBeNull();
  });

  it('offers a column name shared by two tables once, and starting matches first across tables', () => {
    expect(labels('SELECT i| FROM orders JOIN customers ON true')).toEqual(['id', 'customer_id', 'web_sessions']);
    expect(labels('SELECT N| FROM orders JOIN customers ON true')).toEqual(['name', 'amount', 'country', 'web_sessions']);
  });

  it('takes a word with a digit after its start', () => {
    expect(sqlCompletion('SELECT x1', 9, [{ name: 't', columns: [col('x1y')] }])?.options.map((o) => o.label)).toEqual(['x1y']);
  });
});
