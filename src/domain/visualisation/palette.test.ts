import { describe, expect, it } from 'vitest';
import { colourAt, DEFAULT_PALETTE, textOn } from './palette';

describe('palette', () => {
  it('has 12 default colours and cycles', () => {
    expect(DEFAULT_PALETTE).toHaveLength(12);
    expect(colourAt(12, null)).toEqual(DEFAULT_PALETTE[0]);
    expect(colourAt(1, [[9, 9, 9]])).toEqual([9, 9, 9]);
    expect(textOn([255, 255, 255])).toBe('black');
    expect(textOn([15, 108, 189])).toBe('white');
  });
});
