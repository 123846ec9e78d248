import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from '../../src/domain/hostile.fixture';
import { inferType, parseCsv } from './csv';
import { lineBatches, parseMessage } from './singer';

describe('parseMessage', () => {
  it('accepts the three messages and says what is wrong otherwise', () => {
    expect(parseMessage('{"type":"RECORD","stream":"s","record":{"a":1}}')).toEqual({ ok: true, message: { type: 'RECORD', stream: 's', record: { a: 1 } } });
    expect(parseMessage('{"type":"STATE","value":{}}').ok).toBe(true);
    expect(parseMessage('{"type":"SCHEMA","stream":"s","schema":{},"key_properties":["id"]}').ok).toBe(true);
    expect(parseMessage('nope')).toEqual({ ok: false, error: 'not JSON' });
    expect(parseMessage('[]')).toEqual({ ok: false, error: 'not a JSON object' });
    expect(parseMessage('{"type":"RECORD","stream":"s"}')).toEqual({ ok: false, error: 'RECORD of s without a record object' });
    expect(parseMessage('{"type":"SCHEMA","stream":"s","schema":{},"key_properties":[1]}').ok).toBe(false);
  });
  it('never throws on hostile lines', () => {
    fc.assert(fc.property(fc.oneof(hostileStringWithHuge, fc.json()), (line) => {
      expect(typeof parseMessage(line).ok).toBe('boolean');
    }), { numRuns: 300 });
  });
});

describe('parseCsv', () => {
  it('reads quotes, doubled quotes, CRLF and embedded newlines', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n1,"multi\nline"\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['1', 'multi\nline'],
    ]);
  });
  it('round-trips any table of fields', () => {
    const quote = (f: string) => `"${f.replace(/"/g, '""')}"`;
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
        expect(parseCsv(rows.map((r) => r.map(quote).join(',')).join('\n'))).toEqual(rows);
      }),
    );
  });
  it('infers the narrowest type', () => {
    expect(inferType(['1', '2', ''])).toEqual({ type: ['integer', 'null'] });
    expect(inferType(['1.5', '2'])).toEqual({ type: ['number', 'null'] });
    expect(inferType(['a', '2'])).toEqual({ type: ['string', 'null'] });
  });
});

describe('lineBatches', () => {
  // lineBatches reads any async iterable of chunks, as stdin is one
  const chunks = (parts: Array<string | Buffer>): AsyncIterable<Buffer> => ({
    async *[Symbol.asyncIterator]() {
      for (const part of parts) yield await Promise.resolve(Buffer.from(part));
    },
  });
  const linesOf = async (parts: string[]) => {
    const out: string[] = [];
    for await (const batch of lineBatches(chunks(parts))) out.push(...batch);
    return out;
  };

  it('gives the lines of the text however it is cut, LF or CRLF, the last without a break', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme' }).filter((l) => !/[\r\n]/.test(l)), { minLength: 1, maxLength: 10 }), fc.boolean(), fc.array(fc.nat(200), { maxLength: 6 }), async (lines, crlf, cuts) => {
        const bytes = Buffer.from(lines.join(crlf ? '\r\n' : '\n'), 'utf8');
        // cut anywhere, a multi-byte character included
        const offsets = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const parts: Buffer[] = [];
        let at = 0;
        for (const o of [...offsets, bytes.length]) {
          parts.push(bytes.subarray(at, o));
          at = o;
        }
        const out: string[] = [];
        for await (const batch of lineBatches(chunks(parts))) out.push(...batch);
        // a text ending with a line break has no last empty line; one ending without keeps its last
        const expected = lines.at(-1) === '' ? lines.slice(0, -1) : lines;
        expect(out).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('joins a line that spans many chunks once', async () => {
    expect(await linesOf(['a', 'b', 'c\nd', 'e\n'])).toEqual(['abc', 'de']);
  });
});
