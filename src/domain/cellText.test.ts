import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellText } from './cellText';

describe('cellText', () => {
  it("shows a float without the binary noise, integers whole, and the rest as text or JSON", () => {
    expect(cellText(50731.66999999999)).toBe('50731.67');
    expect(cellText(0.1 + 0.2)).toBe('0.3');
    expect(cellText(12345678901234567)).toBe('12345678901234568');
    expect(cellText(-2.5)).toBe('-2.5');
    expect(cellText(1e-7)).toBe('1e-7');
    expect(cellText(Number.NaN)).toBe('NaN');
    expect(cellText(null)).toBe('');
    expect(cellText('50731.66999999999')).toBe('50731.66999999999');
    expect(cellText({ a: [1] })).toBe('{"a":[1]}');
    expect(cellText(true)).toBe('true');
  });

  it('shows a bigint whole, and what JSON cannot write as an empty cell (mutation testing, issue 40)', () => {
    expect(cellText(10n)).toBe('10');
    expect(cellText(2n ** 70n)).toBe('1180591620717411303424');
    expect(cellText(undefined)).toBe('');
    expect(cellText(() => 1)).toBe('');
    expect(cellText(Symbol('s'))).toBe('');
    expect(cellText(false)).toBe('false');
    expect(cellText(['a', 'say "hi"'])).toBe('["a","say \\"hi\\""]');
    expect(cellText(-Infinity)).toBe('-Infinity');
    expect(cellText(1.0000000000004)).toBe('1');
  });

  it('keeps twelve significant digits of any number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const shown = Number(cellText(n));
        expect(Math.abs(shown - n)).toBeLessThanOrEqual(Math.abs(n) * 1e-11);
      }),
    );
  });
});
