import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors';
import { rejectNulCharacters, wellFormedStrings } from './validation';

function refusal(input: unknown): HttpError | undefined {
  try {
    rejectNulCharacters(input, 'thing');
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

describe('rejectNulCharacters', () => {
  it('names the field that holds a NUL, however deep', () => {
    expect(refusal({ name: 'a\u0000b' })?.errors).toEqual([{ field: 'name', objectName: 'thing', defaultMessage: 'must not contain NUL characters' }]);
    expect(refusal({ a: { b: ['ok', 'x\u0000'] } })?.errors[0]?.field).toBe('a.b[1]');
    expect(refusal({ ['k\u0000']: 1 })?.status).toBe(400);
    expect(refusal('\u0000')?.errors[0]?.field).toBe('');
  });

  it('leaves an uploaded body alone: bytes hold NULs as content, and a stream is not walked', () => {
    expect(refusal(Buffer.from('a\u0000b'))).toBeUndefined();
    // a stream's object graph (its socket, its server) is not fields: walking it never ended
    const stream = Readable.from(['x']) as Readable & { planted?: string };
    stream.planted = 'a\u0000b';
    expect(refusal(stream)).toBeUndefined();
    expect(wellFormedStrings(stream)).toBe(stream);
  });

  it('lets everything else through, and never throws anything but a 400', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        const text = JSON.stringify(value);
        const answer = refusal(value);
        expect(answer === undefined).toBe(!text.includes('\\u0000'));
        if (answer) expect(answer.status).toBe(400);
      }),
    );
  });

  it('reads a query object without a prototype, and leaves an uploaded Buffer alone (its NULs are content)', () => {
    const query = Object.create(Object.create(null) as object) as Record<string, string>;
    query.type = '\u0000';
    expect(refusal(query)?.errors[0]?.field).toBe('type');
    expect(refusal(Buffer.from([0, 1, 0]))).toBeUndefined();
  });

  it('stops at a depth bound on hostile nesting', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 10_000; i += 1) deep = [deep];
    expect(() => refusal(deep)).not.toThrow();
  });
});

describe('wellFormedStrings', () => {
  it('turns every lone surrogate of a JSON body into U+FFFD and keeps the rest', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        const text = JSON.stringify(wellFormedStrings(value));
        expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)).toBe(false);
      }),
    );
    expect(wellFormedStrings({ a: ['x\uDC00', { b: '\uD83D\uDE00' }] })).toEqual({ a: ['x\uFFFD', { b: '\uD83D\uDE00' }] });
    const buffer = Buffer.from('x');
    expect(wellFormedStrings(buffer)).toBe(buffer);
  });
});
