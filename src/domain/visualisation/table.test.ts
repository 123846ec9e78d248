import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../hostile.fixture';
import { showingRowsText } from './messages';
import { cellText, tableColumns, visibleRowCount } from './table';

describe('html-table', () => {
  it('tables have every key as a column and say how many rows they show', () => {
    expect(tableColumns([{ a: 1 }, { b: 2, a: 3 }])).toEqual(['a', 'b']);
    expect(showingRowsText(10, 25)).toBe('(showing 10 of 25 rows)');
    expect([visibleRowCount(25, 1, 10), visibleRowCount(25, 3, 10), visibleRowCount(5, 1, 10), visibleRowCount(5, Number.NaN, 10)]).toEqual([10, 25, 5, 5]);
    expect([cellText(null), cellText('x'), cellText(1.5), cellText({ a: 1 }), cellText(true)]).toEqual(['', 'x', '1.5', '{"a":1}', 'true']);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(cellText(cycle)).toBe('');
  });
  it('cellText never throws (property)', () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), hostileString, fc.anything()), (value) => { expect(typeof cellText(value)).toBe('string'); }));
  });
});

describe('table edges (by hand)', () => {
  it('skips rows that are not objects, and writes numbers as JavaScript does', () => {
    expect(tableColumns([null, 'xy', { a: 1 }] as unknown as Record<string, unknown>[])).toEqual(['a']);
    expect([cellText(undefined), cellText(10n), cellText(Number.NaN), cellText(Number.POSITIVE_INFINITY), cellText(() => 1)]).toEqual(['', '10', 'NaN', 'Infinity', '']);
  });

  it('shows at least one page of at least one row, whole pages only', () => {
    expect(visibleRowCount(25, Number.POSITIVE_INFINITY, 10)).toBe(10);
    expect(visibleRowCount(25, 0.5, 10)).toBe(10);
    expect(visibleRowCount(25, 2, 0.5)).toBe(2);
    expect(visibleRowCount(25, 2, Number.POSITIVE_INFINITY)).toBe(2);
    expect(visibleRowCount(25, 2.9, 10)).toBe(20);
  });
});
