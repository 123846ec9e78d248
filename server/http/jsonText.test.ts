import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonText, type JsonPieces } from './jsonText';

// whole strings, as JSON.stringify and the database give them: any character, no lone surrogate
const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom('"', '\\', 'é', '😀', '\u2028', '\u0000', ''));
const pieces: fc.Arbitrary<JsonPieces> = fc.letrec<{ pieces: JsonPieces }>((tie) => ({
  pieces: fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, fc.array(tie('pieces'), { maxLength: 5 })),
})).pieces;

describe('JsonText', () => {
  it('encodes its pieces, nested or not, as the UTF-8 bytes of their joined text', () => {
    fc.assert(
      fc.property(pieces, (p) => {
        const answer = new JsonText(p);
        expect(answer.text).toBe(flatten(p));
        expect(answer.bytes().equals(Buffer.from(answer.text, 'utf8'))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('sends a slice of a stored body without changing a byte', () => {
    const stored = '{"title":"Ventes – été 😀","n":1}';
    const answer = new JsonText(['[', [stored.slice(0, -1), ',"x":"ü"}'], ']']);
    expect(JSON.parse(answer.bytes().toString('utf8'))).toEqual([{ title: 'Ventes – été 😀', n: 1, x: 'ü' }]);
  });
});

function flatten(p: JsonPieces): string {
  return typeof p === 'string' ? p : p.map(flatten).join('');
}
