import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvRecordLines } from './recordLine';

// tap-files writes a CSV row's RECORD message itself (issue 39). The oracle is the message the tap
// made before: a record object of the row's values ('' and a missing field null, a numeric
// column's text a number), written by JSON.stringify.

function oracle(stream: string, columns: ReadonlyArray<{ name: string; index: number; numeric: boolean }>, fields: readonly string[]): string {
  const record: Record<string, unknown> = {};
  for (const { name, index, numeric } of columns) {
    const value = fields[index];
    record[name] = value === undefined || value === '' ? null : numeric ? Number(value) : value;
  }
  return `${JSON.stringify({ type: 'RECORD', stream, record })}\n`;
}

describe('CsvRecordLines', () => {
  it('writes numbers, nulls and hostile text as JSON.stringify writes the record', () => {
    const columns = [
      { name: 'id', index: 0, numeric: true },
      { name: 'say "hi"\\', index: 1, numeric: false },
      { name: 'amount', index: 2, numeric: true },
      { name: 'missing', index: 7, numeric: false },
    ];
    const lines = new CsvRecordLines('s\n"x"', columns);
    expect(lines.line(['007', 'a\u0000\t"\\\ud800é😀', '1e999', 'x'])).toBe('{"type":"RECORD","stream":"s\\n\\"x\\"","record":{"id":7,"say \\"hi\\"\\\\":"a\\u0000\\t\\"\\\\\\ud800é😀","amount":null,"missing":null}}\n');
    expect(lines.line(['-0', '', 'NaN'])).toBe('{"type":"RECORD","stream":"s\\n\\"x\\"","record":{"id":0,"say \\"hi\\"\\\\":null,"amount":null,"missing":null}}\n');
    expect(JSON.parse(lines.line(['-2.5e3', '', '.5']))).toEqual({ type: 'RECORD', stream: 's\n"x"', record: { id: -2500, 'say "hi"\\': null, amount: 0.5, missing: null } });
  });

  it('is the record JSON.stringify writes, for any columns and fields', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', '007', '-0', '1e999', '-1e-7', '1.50', '0x10', ' 12 ', 'Infinity'));
    fc.assert(
      fc.property(
        fc.string(),
        fc.uniqueArray(fc.record({ name: fc.string(), index: fc.nat(8), numeric: fc.boolean() }), { selector: (c) => c.name, maxLength: 6 }),
        fc.array(text, { maxLength: 8 }),
        (stream, unordered, fields) => {
          // the tap gives the columns in the order a record object holds its keys (integer-like first);
          // '__proto__' is left out, since assigning it to an object sets no key (the tap keeps it as a column)
          const byName = new Map(unordered.filter((c) => c.name !== '__proto__').map((c) => [c.name, c]));
          const columns = Object.keys(Object.fromEntries([...byName.keys()].map((name) => [name, 0]))).map((name) => byName.get(name)!);
          expect(new CsvRecordLines(stream, columns).line(fields)).toBe(oracle(stream, columns, fields));
        },
      ),
      { numRuns: 300 },
    );
  });
});
