import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from './hostile.fixture';
import { missingTablesMessage, tablesMatching, tablesMeant } from './storeTables';

const STORE = ['countries', 'customers', 'orders', 'sales_targets', 'ux_demo_orders', 'web_sessions'];

describe('the table a query meant', () => {
  it('finds a typo, and the same stream behind a pipeline prefix first', () => {
    expect(tablesMeant('web_sesions', STORE)).toEqual(['web_sessions']);
    expect(tablesMeant('order', STORE)).toEqual(['orders']);
    expect(tablesMeant('orders_', STORE)).toEqual(['orders']);
    expect(tablesMeant('demo_orders', STORE)).toEqual(['ux_demo_orders']);
    expect(tablesMeant('invoices', STORE)).toEqual([]);
    expect(tablesMeant(`web_sessions${'x'.repeat(60)}`, STORE)).toEqual([]);
  });

  it('says what was meant, or what the store has, or that it is empty', () => {
    expect(missingTablesMessage(['web_sesions'], STORE)).toBe('No pipeline has loaded web_sesions into the store yet. Did you mean web_sessions?');
    expect(missingTablesMessage(['web_sesions', 'ordrs'], STORE)).toBe('No pipeline has loaded web_sesions, ordrs into the store yet. Did you mean web_sessions for web_sesions, orders for ordrs?');
    expect(missingTablesMessage(['invoices'], STORE)).toBe(`No pipeline has loaded invoices into the store yet. The store has ${STORE.join(', ')}.`);
    expect(missingTablesMessage(['invoices'], [])).toBe('No pipeline has loaded invoices into the store yet. The store has no tables: run a pipeline that loads into it first.');
    const many = Array.from({ length: 14 }, (_, i) => `t${String(i).padStart(2, '0')}x`);
    expect(missingTablesMessage(['zzzzzzzz'], many)).toMatch(/t09x and 4 more\.$/);
  });

  it('only ever suggests tables the store has, never the missing name itself, at most three', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, fc.array(fc.stringMatching(/^[a-z_]{1,12}$/), { maxLength: 30 }), (missing, tables) => {
        const meant = tablesMeant(missing, tables);
        expect(meant.length).toBeLessThanOrEqual(3);
        for (const t of meant) {
          expect(tables).toContain(t);
          expect(t).not.toBe(missing.toLowerCase());
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("the store browser's filter", () => {
  const tables = [
    { name: 'orders', columns: [{ name: 'id' }, { name: 'customer_id' }] },
    { name: 'customers', columns: [{ name: 'id' }, { name: 'country' }] },
    { name: 'web_sessions', columns: [{ name: 'landing_page' }] },
  ];

  it('keeps tables by their name or a column name, whatever the case; an empty filter keeps all', () => {
    expect(tablesMatching(tables, '').map((t) => t.name)).toEqual(['orders', 'customers', 'web_sessions']);
    expect(tablesMatching(tables, ' CUSTOMER ').map((t) => t.name)).toEqual(['orders', 'customers']);
    expect(tablesMatching(tables, 'landing').map((t) => t.name)).toEqual(['web_sessions']);
    expect(tablesMatching(tables, 'invoices')).toEqual([]);
  });

  it('only ever keeps listed tables, in their order, and never fails on any text', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (filter) => {
        const kept = tablesMatching(tables, filter);
        expect(tables.filter((t) => kept.includes(t))).toEqual(kept);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the table a query meant, rule by rule', () => {
  it('reads a name of 63 characters and gives up on 64', () => {
    const at63 = 'n'.repeat(63);
    expect(tablesMeant(at63, [`raw_${at63}`])).toEqual([`raw_${at63}`]);
    expect(tablesMeant(`${at63}n`, [`raw_${at63}n`])).toEqual([]);
  });

  it('compares names in lower case', () => {
    expect(tablesMeant('Web_Sesions', STORE)).toEqual(['web_sessions']);
    expect(tablesMeant('ORDERS', ['ux_orders'])).toEqual(['ux_orders']);
  });

  it('allows a typo per four characters, at least one', () => {
    // 10 characters: two edits away is still meant
    expect(tablesMeant('wb_sesions', STORE)).toEqual(['web_sessions']);
    // 2 characters: one edit, not three
    expect(tablesMeant('ab', ['xyz', 'abc'])).toEqual(['abc']);
    expect(tablesMeant('ab', ['xyz'])).toEqual([]);
    // 8 characters: two edits, not three
    expect(tablesMeant('customrs', ['customers', 'custom'])).toEqual(['customers', 'custom']);
    expect(tablesMeant('customrs', ['xxxtomrs'])).toEqual([]);
  });

  it('never suggests the missing name itself', () => {
    expect(tablesMeant('orders', ['orders', 'order'])).toEqual(['order']);
  });

  it('takes a prefix only when an underscore joins it to the whole name', () => {
    expect(tablesMeant('orders', ['preorders'])).toEqual([]);
    expect(tablesMeant('orders', ['pre_orders'])).toEqual(['pre_orders']);
  });

  it('ranks prefixed names first, then by distance, then alphabetically, and keeps three', () => {
    expect(tablesMeant('orders', ['ordersx', 'ux_orders', 'order', 'a_orders'])).toEqual(['a_orders', 'ux_orders', 'order']);
    expect(tablesMeant('orders', ['ordrs', 'ordes', 'b_orders'])).toEqual(['b_orders', 'ordes', 'ordrs']);
    expect(tablesMeant('sales', ['sale', 'zz_sales'])).toEqual(['zz_sales', 'sale']);
  });

  it('joins several tables meant for one name with "or"', () => {
    expect(missingTablesMessage(['ordrs'], ['orders', 'ordes', 'x'])).toBe('No pipeline has loaded ordrs into the store yet. Did you mean orders or ordes?');
    expect(missingTablesMessage(['ordrs', 'invoices'], ['orders', 'ordes'])).toBe('No pipeline has loaded ordrs, invoices into the store yet. Did you mean orders or ordes for ordrs?');
  });

  it('lists ten tables whole, and counts the rest past ten', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `t${String(i).padStart(2, '0')}x`);
    expect(missingTablesMessage(['zzzzzzzz'], ten)).toBe(`No pipeline has loaded zzzzzzzz into the store yet. The store has ${ten.join(', ')}.`);
    expect(missingTablesMessage(['zzzzzzzz'], [...ten, 't10x'])).toBe(`No pipeline has loaded zzzzzzzz into the store yet. The store has ${ten.join(', ')} and 1 more.`);
  });

  it('filters on names in any letter case', () => {
    const tables = [
      { name: 'Orders', columns: [{ name: 'Customer_ID' }] },
      { name: 'payments', columns: [{ name: 'amount' }] },
    ];
    expect(tablesMatching(tables, 'orders').map((t) => t.name)).toEqual(['Orders']);
    expect(tablesMatching(tables, 'customer_id').map((t) => t.name)).toEqual(['Orders']);
    expect(tablesMatching(tables, '   ')).toEqual(tables);
  });
});
