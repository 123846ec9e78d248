import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HUGE_TEXTS, hostileString, wellFormed } from './hostile.fixture';
import { encodeSegment, encodeText, pathOnly, safeDecode } from './paths';

describe('safeDecode', () => {
  it('decodes well-formed text', () => {
    expect(safeDecode('a%20b%2Fc%C3%A9')).toBe('a b/cé');
  });

  it('keeps malformed escapes and decodes the rest', () => {
    expect(safeDecode('100%')).toBe('100%');
    expect(safeDecode('%E0%A4%A')).toBe('%E0%A4%A');
    expect(safeDecode('%zz%41')).toBe('%zzA');
    expect(safeDecode('%C3%A9%C3')).toBe('é%C3');
    expect(safeDecode('%FF%41%F0%9F%98%80')).toBe('%FFA😀');
  });

  it('never throws and is the identity on text without %', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        const decoded = safeDecode(text);
        if (!text.includes('%')) expect(decoded).toBe(text);
      }),
    );
  });

  it('undoes encodeText', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        expect(safeDecode(encodeText(text))).toBe(wellFormed(text));
      }),
    );
  });

  it('does work linear in its input on huge texts: each escape is tried with at most four bytes', () => {
    // counted, not timed: a long run of escapes that start no UTF-8 sequence is the costly case
    const original = globalThis.decodeURIComponent;
    let calls = 0;
    globalThis.decodeURIComponent = (text: string) => {
      calls += 1;
      return original(text);
    };
    try {
      for (const text of [...HUGE_TEXTS, '%FF'.repeat(5_000), '%E0%A4'.repeat(3_000)]) {
        calls = 0;
        safeDecode(text);
        const escapes = text.match(/%[0-9A-Fa-f]{2}/g)?.length ?? 0;
        expect(calls).toBeLessThanOrEqual(1 + 4 * escapes);
      }
    } finally {
      globalThis.decodeURIComponent = original;
    }
    // neither run is valid UTF-8, so each is kept as typed
    expect(safeDecode('%FF'.repeat(5_000))).toBe('%FF'.repeat(5_000));
    expect(safeDecode('%E0%A4'.repeat(3_000))).toBe('%E0%A4'.repeat(3_000));
  });
});

describe('encodeSegment', () => {
  it('encodes slashes and URL syntax, and survives lone surrogates', () => {
    expect(encodeSegment('a/b?c#d')).toBe('a%2Fb%3Fc%23d');
    expect(encodeSegment('x\uD800')).toBe('x%EF%BF%BD');
  });

  it('never yields a slash, ? or #', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        expect(encodeSegment(text)).not.toMatch(/[/?#]/);
      }),
    );
  });
});

describe('pathOnly', () => {
  it('drops query and fragment', () => {
    expect(pathOnly('/a/b?x=/c#d')).toBe('/a/b');
    expect(pathOnly('/a#b?c')).toBe('/a');
  });
});
