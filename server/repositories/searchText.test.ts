import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FILTERS, MAX_TERM_LENGTH, MAX_TERMS, maxEdits, readSearchText } from './searchText';

describe('readSearchText', () => {
  it('splits words, strips quotes and lowercases', () => {
    expect(readSearchText('"Monthly Revenue"')).toEqual({ terms: ['monthly', 'revenue'], tags: [], channels: [] });
    expect(readSearchText('  revenue, by-region!  ')).toEqual({ terms: ['revenue', 'by', 'region'], tags: [], channels: [] });
  });

  it('reads tag: and in: filters, keeping hyphens in their values', () => {
    expect(readSearchText('tag:Monthly-KPI in:sales growth')).toEqual({ terms: ['growth'], tags: ['monthly-kpi'], channels: ['sales'] });
    expect(readSearchText('tag: in:')).toEqual({ terms: [], tags: [], channels: [] });
  });

  it('drops duplicates and reads nothing from nothing', () => {
    expect(readSearchText('revenue REVENUE revenue').terms).toEqual(['revenue']);
    expect(readSearchText(undefined)).toEqual({ terms: [], tags: [], channels: [] });
    expect(readSearchText(null)).toEqual({ terms: [], tags: [], channels: [] });
    expect(readSearchText('""')).toEqual({ terms: [], tags: [], channels: [] });
  });

  it('keeps only letters and digits in terms, bounded in number and length, whatever is typed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), (text) => {
        const read = readSearchText(text);
        expect(read.terms.length).toBeLessThanOrEqual(MAX_TERMS);
        expect(read.tags.length).toBeLessThanOrEqual(MAX_FILTERS);
        expect(read.channels.length).toBeLessThanOrEqual(MAX_FILTERS);
        for (const term of read.terms) {
          expect(term).toMatch(/^[\p{L}\p{N}]+$/u);
          expect(term.length).toBeLessThanOrEqual(MAX_TERM_LENGTH);
          expect(term).toBe(term.toLowerCase());
        }
        for (const value of [...read.tags, ...read.channels]) {
          expect(value).not.toBe('');
          expect(value).not.toMatch(/[\s"\u201C\u201D]/);
        }
        expect(new Set(read.terms).size).toBe(read.terms.length);
      }),
    );
  });
});

describe('maxEdits', () => {
  it('allows no edit for short words, one for medium, the spec fuzziness of 2 from six letters', () => {
    expect(maxEdits('ab')).toBe(0);
    expect(maxEdits('kpi')).toBe(1);
    expect(maxEdits('sales')).toBe(1);
    expect(maxEdits('revenu')).toBe(2);
  });

  it('never exceeds 2 and never goes below 0', () => {
    fc.assert(
      fc.property(fc.string(), (term) => {
        const edits = maxEdits(term);
        expect(edits).toBeGreaterThanOrEqual(0);
        expect(edits).toBeLessThanOrEqual(2);
      }),
    );
  });
});
