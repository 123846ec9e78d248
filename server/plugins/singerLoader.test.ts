import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMessage } from './singer';
import { RecordLines } from './singerLoader';

// A loader parses only the record of a RECORD line written in the usual form (issue 39); every
// other line is left to parseMessage. The oracle is JSON.parse of the whole line.

describe('RecordLines', () => {
  it("reads a known stream's record from a line in the usual form, and leaves every other line", () => {
    const lines = new RecordLines();
    lines.know('s');
    lines.know('t "x"');
    expect(lines.read('{"type":"RECORD","stream":"s","record":{"a":1,"b":"}}"}}')).toEqual({ stream: 's', record: { a: 1, b: '}}' } });
    expect(lines.read('{"type":"RECORD","stream":"t \\"x\\"","record":{}}')).toEqual({ stream: 't "x"', record: {} });
    for (const other of [
      // spaces, another order, another field after the record, a stream whose SCHEMA has not come
      '{"type": "RECORD", "stream": "s", "record": {"a": 1}}',
      '{"stream":"s","type":"RECORD","record":{"a":1}}',
      '{"type":"RECORD","stream":"s","record":{"a":1},"time_extracted":"2024-01-01T00:00:00Z"}',
      '{"type":"RECORD","stream":"u","record":{"a":1}}',
      // a second record (JSON.parse keeps the last), text after the message, a broken record
      '{"type":"RECORD","stream":"s","record":{"a":1},"record":{"a":2}}',
      '{"type":"RECORD","stream":"s","record":{"a":1}} {}}',
      '{"type":"RECORD","stream":"s","record":{"a":}}',
      '{"type":"STATE","value":{}}',
      '',
    ]) {
      expect(lines.read(other), other).toBeUndefined();
    }
    // what parseMessage reads from the second record's line is the last record, as JSON.parse does
    const last = parseMessage('{"type":"RECORD","stream":"s","record":{"a":1},"record":{"a":2}}');
    expect(last.ok && last.message.type === 'RECORD' && last.message.record).toEqual({ a: 2 });
  });

  it('gives the record JSON.parse gives, for any stream and record, streams interleaved', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.nat(), fc.dictionary(fc.string(), fc.jsonValue())), { maxLength: 20 }), (streams, records) => {
        const lines = new RecordLines();
        for (const stream of streams) lines.know(stream);
        for (const [n, record] of records) {
          const stream = streams[n % streams.length]!;
          const line = JSON.stringify({ type: 'RECORD', stream, record });
          expect(lines.read(line)).toEqual({ stream, record: JSON.parse(line).record });
        }
      }),
      { numRuns: 300 },
    );
  });
});
