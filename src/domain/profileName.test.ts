import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from './hostile.fixture';
import { displayProfileName } from './profileName';

describe('displayProfileName', () => {
  it('keeps names up to 27 characters', () => {
    expect(displayProfileName('Ada Lovelace')).toBe('Ada Lovelace');
    expect(displayProfileName('a'.repeat(27))).toBe('a'.repeat(27));
    expect(displayProfileName('')).toBe('');
  });

  it("shows 24 characters and '...' beyond 27", () => {
    expect(displayProfileName('a'.repeat(28))).toBe(`${'a'.repeat(24)}...`);
    expect(displayProfileName('Augusta Ada King, Countess of Lovelace')).toBe('Augusta Ada King, Counte...');
  });

  it('counts emoji as one character and never splits them', () => {
    expect(displayProfileName('😀'.repeat(27))).toBe('😀'.repeat(27));
    expect(displayProfileName('😀'.repeat(28))).toBe(`${'😀'.repeat(24)}...`);
  });

  it('maps nothing to the empty text', () => {
    expect(displayProfileName(null)).toBe('');
    expect(displayProfileName(undefined)).toBe('');
  });

  it('is bounded, a prefix of the name, and never splits a surrogate pair', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (name) => {
        const shown = displayProfileName(name);
        const length = Array.from(name).length;
        if (length <= 27) {
          expect(shown).toBe(name);
        } else {
          expect(Array.from(shown)).toHaveLength(27);
          expect(shown.endsWith('...')).toBe(true);
          const kept = shown.slice(0, -3);
          expect(name.startsWith(kept)).toBe(true);
          expect(/[\uD800-\uDBFF]$/.test(kept) && /^[\uDC00-\uDFFF]/.test(name.slice(kept.length))).toBe(false);
        }
      }),
    );
  });
});
