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
