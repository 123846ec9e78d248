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

  it('keeps twelve significant digits of any number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const shown = Number(cellText(n));
        expect(Math.abs(shown - n)).toBeLessThanOrEqual(Math.abs(n) * 1e-11);
      }),
    );
  });
});
