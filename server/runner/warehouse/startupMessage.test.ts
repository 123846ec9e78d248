import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANCEL_REQUEST, GSSENC_REQUEST, MAX_STARTUP_BYTES, PROTOCOL_3_0, SSL_REQUEST, readFirstMessage } from './startupMessage';
import { startupMessage } from './wire';

// The store proxy reads this from an untrusted job: whatever the bytes, the parser answers (never
// throws), never asks for more than PostgreSQL's bound, and only a well-formed 3.0 startup message
// with its exact parameters comes out as a startup.

const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const request = (length: number, code: number, extra = Buffer.alloc(0)) => Buffer.concat([int32(length), int32(code), extra]);

const name = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !s.includes('\0'));
const value = fc.string({ maxLength: 40 }).filter((s) => !s.includes('\0'));
const parameters = fc.uniqueArray(fc.tuple(name, value), { selector: ([k]) => k, maxLength: 8 }).map((pairs) => new Map(pairs));

describe('the first message of a PostgreSQL client', () => {
  it('reads back every well-formed startup message exactly, and nothing before its last byte', () => {
    fc.assert(
      fc.property(parameters, (params) => {
        const bytes = startupMessage(params);
        const read = readFirstMessage(bytes);
        expect(read).toEqual({ kind: 'startup', size: bytes.length, parameters: params });
        // every truncation needs more, never guesses
        for (const cut of [0, 3, 4, 7, 8, bytes.length - 1]) if (cut >= 0 && cut < bytes.length) expect(readFirstMessage(bytes.subarray(0, cut)).kind).toBe('incomplete');
      }),
    );
  });

  it('knows the SSL, GSSAPI and cancel requests by their codes and exact sizes', () => {
    expect(readFirstMessage(request(8, SSL_REQUEST))).toEqual({ kind: 'ssl', size: 8 });
    expect(readFirstMessage(request(8, GSSENC_REQUEST))).toEqual({ kind: 'gssenc', size: 8 });
    expect(readFirstMessage(request(16, CANCEL_REQUEST, Buffer.alloc(8)))).toEqual({ kind: 'cancel', size: 16 });
    expect(readFirstMessage(request(16, CANCEL_REQUEST)).kind).toBe('incomplete');
    expect(readFirstMessage(request(12, SSL_REQUEST, Buffer.alloc(4))).kind).toBe('invalid');
    expect(readFirstMessage(request(8, CANCEL_REQUEST)).kind).toBe('invalid');
  });

  it('refuses a huge or tiny length at once, without waiting for the bytes it announces', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: MAX_STARTUP_BYTES + 1, max: 0xffffffff }), fc.integer({ min: 0, max: 7 })), fc.integer({ min: 0, max: 0xffffffff }), (length, code) => {
        expect(readFirstMessage(request(length, code)).kind).toBe('invalid');
        expect(readFirstMessage(int32(length)).kind).toBe('invalid');
      }),
    );
  });

  it('refuses other protocol versions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }).filter((c) => ![PROTOCOL_3_0, SSL_REQUEST, GSSENC_REQUEST, CANCEL_REQUEST].includes(c)),
        (code) => {
          const read = readFirstMessage(Buffer.concat([request(9, code), Buffer.from([0])]));
          expect(read.kind).toBe('invalid');
        },
      ),
    );
    expect(readFirstMessage(Buffer.concat([request(9, 0x00020000), Buffer.from([0])]))).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('2.0') });
  });

  it('refuses malformed parameter lists: unterminated, not UTF-8, twice the same name, bytes after the end', () => {
    const body = (bytes: number[]) => {
      const b = Buffer.from(bytes);
      return Buffer.concat([int32(8 + b.length), int32(PROTOCOL_3_0), b]);
    };
    const text = (s: string) => [...Buffer.from(s)];
    expect(readFirstMessage(body([...text('user'), 0, ...text('x'), 0])).kind).toBe('invalid'); // no final NUL
    expect(readFirstMessage(body([...text('user'), 0, ...text('x')])).kind).toBe('invalid');
    expect(readFirstMessage(body([...text('user'), 0, 0xff, 0xfe, 0, 0])).kind).toBe('invalid');
    expect(readFirstMessage(body([...text('user'), 0, ...text('a'), 0, ...text('user'), 0, ...text('b'), 0, 0])).kind).toBe('invalid');
    expect(readFirstMessage(body([0, 1])).kind).toBe('invalid');
    expect(readFirstMessage(body([])).kind).toBe('invalid');
    expect(readFirstMessage(body([0]))).toEqual({ kind: 'startup', size: 9, parameters: new Map() });
  });

  it('answers any bytes at all without throwing, and only ever a startup that re-encodes to the same bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), parameters.chain((p) => fc.nat({ max: 40 }).map((flip) => {
        const bytes = Buffer.from(startupMessage(p));
        if (bytes.length > 8) {
          const at = 8 + (flip % (bytes.length - 8));
          bytes[at] = bytes[at]! ^ 0xff;
        }
        return new Uint8Array(bytes);
      }))), (bytes) => {
        const read = readFirstMessage(bytes);
        if (read.kind === 'startup') expect(Buffer.from(startupMessage(read.parameters)).equals(Buffer.from(bytes.subarray(0, read.size)))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
