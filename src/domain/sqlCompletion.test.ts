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
