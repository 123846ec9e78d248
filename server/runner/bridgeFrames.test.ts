import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameReader, type Frame } from './bridgeFrames';

const MAX_LINE = 1024;
const MAX_DATA = 4096;

/** A request as a client writes it: its JSON line, then its data when it has some. */
function encode(request: Record<string, unknown>, data?: Buffer): Buffer {
  const line = Buffer.from(`${JSON.stringify(data ? { ...request, bytes: data.length } : request)}\n`);
  return data ? Buffer.concat([line, data]) : line;
}

/** Pushes `bytes` cut at `cuts` (offsets); every frame read, and the first error. */
function readAll(bytes: Buffer, cuts: number[]): { frames: Frame[]; error?: string } {
  const reader = new FrameReader(MAX_LINE, MAX_DATA);
  const frames: Frame[] = [];
  let at = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b).concat(bytes.length)) {
    const read = reader.push(bytes.subarray(at, Math.max(at, cut)));
    at = Math.max(at, cut);
    frames.push(...read.frames);
    if (read.error) return { frames, error: read.error };
  }
  return { frames };
}

describe('FrameReader', () => {
  it('reads requests and their data, however the socket cuts the bytes (property)', () => {
    const request = fc.record({ op: fc.string(), n: fc.integer() });
    const item = fc.tuple(request, fc.option(fc.uint8Array({ maxLength: 300 })));
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), fc.array(fc.nat(3000), { maxLength: 20 }), (items, cuts) => {
        const bytes = Buffer.concat(items.map(([r, d]) => encode(r, d ? Buffer.from(d) : undefined)));
        const { frames, error } = readAll(bytes, cuts);
        expect(error).toBeUndefined();
        expect(frames).toEqual(
          items.map(([r, d]) => (d ? { request: { ...r, bytes: d.length }, data: Buffer.from(d) } : { request: r })),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('gives data bytes that look like line breaks or JSON to the request, never reads them as requests', () => {
    const data = Buffer.from('{"op":"store.copy"}\n\n{"token":"x"}\n');
    const { frames } = readAll(Buffer.concat([encode({ op: 'a' }, data), encode({ op: 'b' })]), [3, 25, 40]);
    expect(frames).toEqual([{ request: { op: 'a', bytes: data.length }, data }, { request: { op: 'b' } }]);
  });

  it('hands on a line that is no JSON object as a request of its own (answered with an error), and reads on', () => {
    const { frames, error } = readAll(Buffer.from('not json\n[1]\n{"op":"x"}\n'), []);
    expect(error).toBeUndefined();
    expect(frames).toEqual([{ request: undefined }, { request: undefined }, { request: { op: 'x' } }]);
  });

  it('ends the connection on a line or data past its limit, or a byte count that is no count', () => {
    expect(readAll(Buffer.from(`{"op":"${'x'.repeat(MAX_LINE)}"}\n`), [10]).error).toBe('request too large');
    // a line with no end is refused as soon as it passes the limit, before its end arrives
    expect(readAll(Buffer.from('x'.repeat(MAX_LINE + 1)), []).error).toBe('request too large');
    expect(readAll(encode({ op: 'x' }, Buffer.alloc(MAX_DATA + 1)), []).error).toBe('request too large');
    for (const bytes of [-1, 1.5, '10', null]) expect(readAll(Buffer.from(`${JSON.stringify({ op: 'x', bytes })}\n`), []).error).toBe('bytes must be a count of bytes');
    // what came before the bad request is still read
    const { frames, error } = readAll(Buffer.concat([encode({ op: 'ok' }), Buffer.from('{"bytes":-5}\n'), encode({ op: 'after' })]), []);
    expect(error).toBeDefined();
    expect(frames).toEqual([{ request: { op: 'ok' } }]);
  });

  it('reads data of no bytes as an empty buffer', () => {
    expect(readAll(encode({ op: 'x' }, Buffer.alloc(0)), []).frames).toEqual([{ request: { op: 'x', bytes: 0 }, data: Buffer.alloc(0) }]);
  });
});
