import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CopyBatch, copyField } from './copyText';
import { tableShapeOf } from './tableShape';

// COPY's text format as PostgreSQL's manual reads it ("Text Format" of COPY): this decoder is the
// test's own, written from the manual, not from copyText.ts.
function decodeLine(line: string): (string | null)[] {
  return line.split('\t').map((field) => {
    if (field === '\\N') return null;
    let out = '';
    for (let i = 0; i < field.length; i++) {
      const c = field[i]!;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const next = field[++i];
      out += next === 't' ? '\t' : next === 'n' ? '\n' : next === 'r' ? '\r' : next === '\\' ? '\\' : `<unknown escape ${next}>`;
    }
    return out;
  });
}

const rowsOf = (data: Buffer) => {
  const text = data.toString('utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text === '' ? [] : text.slice(0, -1).split('\n').map(decodeLine);
};

const SHAPE = tableShapeOf('s', { properties: { id: { type: ['integer'] }, name: { type: ['string', 'null'] }, meta: { type: ['object', 'null'] } } }, ['id']);

describe('copyField', () => {
  it('writes NULL as \\N and escapes exactly the four characters COPY reads specially', () => {
    expect(copyField(null)).toBe('\\N');
    expect(copyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    // the text "\N" and the end-of-data marker "\." are values, never NULL or an end
    expect(copyField('\\N')).toBe('\\\\N');
    expect(copyField('\\.')).toBe('\\\\.');
    expect(copyField('')).toBe('');
  });

  it('reads back as any text it was given, and never holds a raw tab or line break', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('\\N', '\\.', '\t', '\n', '\r\n', '\\')), (text) => {
        const field = copyField(text);
        expect(field).not.toMatch(/[\t\n\r]/);
        expect(decodeLine(field)).toEqual([text]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('CopyBatch', () => {
  it("makes a line per record in the shape's columns, the last record of a key replacing the earlier", () => {
    const batch = new CopyBatch(SHAPE);
    batch.add({ id: 1, name: 'first', meta: { a: 1 } });
    batch.add({ id: 2, name: null });
    batch.add({ id: 1, name: 'again\there', extra: 'not a column' });
    const taken = batch.take();
    expect(taken.records).toBe(3);
    expect(taken.rows).toBe(2);
    // the order of a batch's lines means nothing to COPY
    expect(rowsOf(taken.data).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['1', 'again\there', null],
      ['2', null, null],
    ]);
    // empty again
    expect(batch.take()).toEqual({ data: Buffer.alloc(0), records: 0, rows: 0 });
  });

  it('keeps every record of a table without a key, duplicates included', () => {
    const shape = tableShapeOf('n', { properties: { n: { type: ['integer'] } } }, []);
    const batch = new CopyBatch(shape);
    for (const n of [1, 1, 2]) batch.add({ n });
    expect(rowsOf(batch.take().data)).toEqual([['1'], ['1'], ['2']]);
  });

  it('holds one row per distinct key, each the last of its key, whatever the records (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.integer({ min: 0, max: 5 }), name: fc.option(fc.string({ unit: 'binary' })) }), { maxLength: 40 }), (records) => {
        const batch = new CopyBatch(SHAPE);
        for (const record of records) batch.add(record);
        const expected = new Map<number, { id: number; name: string | null }>();
        for (const record of records) {
          expected.delete(record.id);
          expected.set(record.id, record);
        }
        const taken = batch.take();
        expect(taken.records).toBe(records.length);
        const rows = rowsOf(taken.data);
        expect(rows.length).toBe(expected.size);
        const byId = new Map(rows.map((row) => [Number(row[0]), row[1]]));
        // NUL cannot be stored: it is written as U+FFFD, as the loader always did (columnValue)
        for (const [id, record] of expected) expect(byId.get(id)).toBe(record.name === null ? null : record.name.replace(/\u0000/g, '\uFFFD'));
      }),
      { numRuns: 300 },
    );
  });

  it('grows past its first buffer and starts the next batch empty, a replaced line left out', () => {
    const batch = new CopyBatch(SHAPE);
    const big = (c: string) => c.repeat(200_000);
    for (const [id, name] of [[1, big('a')], [2, big('b')], [1, 'short'], [3, big('c\n')]] as const) batch.add({ id, name });
    const first = batch.take();
    expect(first.records).toBe(4);
    const rows = rowsOf(first.data).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(rows).toEqual([
      ['1', 'short', null],
      ['2', big('b'), null],
      ['3', big('c\n'), null],
    ]);
    batch.add({ id: 1, name: 'next' });
    expect(rowsOf(batch.take().data)).toEqual([['1', 'next', null]]);
    // the first batch's data is untouched by the next
    expect(rowsOf(first.data).length).toBe(3);
  });

  it('counts the bytes it holds, replaced lines included until taken, so the loader can cap a batch of wide records', () => {
    const batch = new CopyBatch(SHAPE);
    batch.add({ id: 1, name: 'é'.repeat(1000) });
    // '1', a tab, 1,000 two-byte characters, a tab, \N and the line's end
    expect(batch.bytes).toBe(1 + 1 + 2000 + 1 + 2 + 1);
    batch.add({ id: 1, name: 'y' });
    // the replaced line is held until the batch is taken
    expect(batch.bytes).toBe(2006 + 7);
    const taken = batch.take();
    expect(taken.data.toString('utf8')).toBe('1\ty\t\\N\n');
    expect(batch.bytes).toBe(0);
  });
});
