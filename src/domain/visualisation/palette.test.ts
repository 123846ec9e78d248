import { describe, expect, it } from 'vitest';
import { colourAt, cssColour, DEFAULT_PALETTE, textOn } from './palette';

describe('palette', () => {
  it('has 12 default colours and cycles', () => {
    expect(DEFAULT_PALETTE).toHaveLength(12);
    expect(colourAt(12, null)).toEqual(DEFAULT_PALETTE[0]);
    expect(colourAt(1, [[9, 9, 9]])).toEqual([9, 9, 9]);
    expect(textOn([255, 255, 255])).toBe('black');
    expect(textOn([15, 108, 189])).toBe('white');
  });
});

describe('palette edges (by hand)', () => {
  it('uses the default palette for an empty one, and writes rgb or rgba', () => {
    expect(colourAt(1, [])).toEqual(DEFAULT_PALETTE[1]);
    expect(cssColour([1, 2, 3])).toBe('rgb(1, 2, 3)');
    expect(cssColour([1, 2, 3], 1)).toBe('rgb(1, 2, 3)');
    expect(cssColour([1, 2, 3], 0.5)).toBe('rgba(1, 2, 3, 0.5)');
  });

  it('turns from white to black text between greys 117 and 118 (WCAG luminance 0.179)', () => {
    // grey 117: luminance ((117/255 + 0.055) / 1.055) ** 2.4 ≈ 0.1778; grey 118 ≈ 0.1811; the contrasts tie at ≈ 0.1791
    expect(textOn([117, 117, 117])).toBe('white');
    expect(textOn([118, 118, 118])).toBe('black');
    // dark channels are on the linear part of the curve: grey 10 is ≈ 0.003, near black
    expect(textOn([10, 10, 10])).toBe('white');
    expect(textOn([0, 0, 0])).toBe('white');
  });
});
