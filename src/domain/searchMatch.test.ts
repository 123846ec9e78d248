import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from './hostile.fixture';
import { classify, editDistance, highlightParts, rangesOf, wordsOf } from './searchMatch';

/** Reference optimal-string-alignment distance, unbounded, written the obvious way. */
function osa(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[x.length] as number[])[y.length] as number;
}

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '😀'), maxLength: 9 });

describe('editDistance (edits as Elasticsearch counts them)', () => {
  it.each([
    ['revenue', 'revenue', 0],
    ['revneue', 'revenue', 1], // a swap of adjacent letters is one edit
    ['rveneue', 'revenue', 2],
    ['revenu', 'revenue', 1],
    ['newsleter', 'newsletter', 1],
    ['custmoers', 'customers', 1],
    ['cusotmres', 'customers', 2],
    ['ca', 'abc', 3], // optimal string alignment: a swapped pair is not edited again
    ['', 'ab', 2],
  ])('%s → %s is %i edits', (a, b, edits) => {
    expect(editDistance(a, b, 5)).toBe(edits);
  });

  it('agrees with the reference within the bound, and says "more" beyond it', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const exact = osa(a, b);
        expect(editDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
      }),
    );
  });

  it('is symmetric and zero only for equal words', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(editDistance(a, b, 9)).toBe(editDistance(b, a, 9));
        expect(editDistance(a, b, 9) === 0).toBe(a === b);
      }),
    );
  });

  // Words of 200,000 letters: the whole table would be 4·10¹⁰ cells (hours, past the test's
  // timeout); the band of 2·max + 1 cells a row is a million.
  it('answers quickly for hostile, huge input', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, hostileStringWithHuge, (a, b) => {
        const d = editDistance(a.slice(0, 200_000), b.slice(0, 200_000), 2);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(3);
      }),
      { numRuns: 50 },
    );
    // the pairs a whole table would spend longest on: equal or nearly equal, so no row gives up
    const long = 'a'.repeat(200_000);
    expect(editDistance(long, long, 2)).toBe(0);
    expect(editDistance(long, `${long.slice(1)}b`, 2)).toBe(1);
    expect(editDistance(long, `${long.slice(0, 100_000)}bb${long.slice(100_002)}`, 2)).toBe(2);
    expect(editDistance(long, `${long.slice(0, 100_000)}bbb${long.slice(100_003)}`, 2)).toBe(3);
    expect(editDistance(`b${long}`, `${long}b`, 2)).toBe(2);
  });
});

describe('classify', () => {
  it('tells exact, prefix and fuzzy apart', () => {
    expect(classify('revenue', 'revenue', 2, 3)).toEqual({ kind: 'exact', edits: 0 });
    expect(classify('rev', 'revenue', 1, 3)).toEqual({ kind: 'prefix', edits: 0 });
    expect(classify('re', 'revenue', 0, 3)).toBeUndefined();
    expect(classify('revneue', 'revenue', 2, 3)).toEqual({ kind: 'fuzzy', edits: 1 });
    expect(classify('zzzzzzz', 'revenue', 2, 3)).toBeUndefined();
  });
});

describe('wordsOf, rangesOf and highlightParts', () => {
  it('finds lowercased words with their places in the original text', () => {
    expect(wordsOf('Top Customers — by Revenue!')).toEqual([
      { word: 'top', start: 0, end: 3 },
      { word: 'customers', start: 4, end: 13 },
      { word: 'by', start: 16, end: 18 },
      { word: 'revenue', start: 19, end: 26 },
    ]);
    expect(rangesOf('Revenue and revenue', new Set(['revenue']))).toEqual([
      { start: 0, end: 7 },
      { start: 12, end: 19 },
    ]);
  });

  it('every word range cuts the text at a word', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        for (const at of wordsOf(text.slice(0, 20_000))) {
          expect(text.slice(at.start, at.end).toLowerCase()).toBe(at.word);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('highlight parts always join back to the text, whatever ranges arrive', () => {
    const range = fc.record({ start: fc.integer({ min: -5, max: 60 }), end: fc.integer({ min: -5, max: 60 }) });
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), fc.array(range, { maxLength: 6 }), (text, ranges) => {
        const parts = highlightParts(text, ranges);
        expect(parts.map((p) => p.text).join('')).toBe(text);
      }),
    );
    expect(highlightParts('Monthly Revenue', [{ start: 8, end: 15 }])).toEqual([
      { text: 'Monthly ', hit: false },
      { text: 'Revenue', hit: true },
    ]);
  });
});
