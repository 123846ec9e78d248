import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ColumnType, CsvParser, inferType, JsonArrayScanner } from './csv';

// The streaming readers of tap-files (issue 39): the same rows however the text is cut into chunks.

/** The text cut at the given places (sorted, inside it). */
function chunks(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const cut of at) {
    out.push(text.slice(from, cut));
    from = cut;
  }
  out.push(text.slice(from));
  return out;
}

function csvRows(parts: readonly string[], delimiter = ',') {
  const parser = new CsvParser(delimiter);
  return [...parts.flatMap((p) => parser.push(p)), ...parser.end()];
}

describe('CsvParser', () => {
  it('reads quotes, doubled quotes, CRLF and embedded newlines, and the line each row starts on', () => {
    expect(csvRows(['a,b\r\n"x, y","say ""hi"""\n1,"multi\nline"\n\nlast'])).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['x, y', 'say "hi"'], line: 2 },
      { fields: ['1', 'multi\nline'], line: 3 },
      { fields: ['last'], line: 6 },
    ]);
  });

  it('gives the same rows however the text is cut into chunks', () => {
    const field = fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', 'é') });
    fc.assert(
      // (a row of one empty field is a blank line, which is no row)
      fc.property(fc.array(fc.array(field, { minLength: 1, maxLength: 4 }).filter((r) => !(r.length === 1 && r[0] === '')), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), (rows, cuts, eol) => {
        const text = rows.map((r) => r.map((f) => `"${f.replace(/"/g, '""')}"`).join(',')).join(eol);
        expect(csvRows(chunks(text, cuts))).toEqual(csvRows([text]));
        expect(csvRows([text]).map((r) => r.fields)).toEqual(rows);
      }),
    );
  });

  it('reads plain and quoted fields, mixed in any line, with the line each row starts on', () => {
    // Plain fields are written bare (the parser splits such lines whole), the others quoted (read a
    // character at a time); the expected rows and lines are the ones the text was written from.
    const field = fc.string({ unit: fc.constantFrom('a', ';', ',', '"', '\n', '\r', ' ', 'é', '\t'), maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(field, fc.boolean()), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.constantFrom(',', ';', '\t'),
        fc.boolean(),
        (rows, cuts, eol, delimiter, finalEol) => {
          const special = (f: string) => f.includes('"') || f.includes(delimiter) || f.includes('\n') || f.includes('\r');
          let text = '';
          let line = 1;
          const expected: Array<{ fields: string[]; line: number }> = [];
          for (const row of rows) {
            const fields = row.map(([f]) => f);
            // a row of one empty field is a blank line, which is no row
            if (!(fields.length === 1 && fields[0] === '')) expected.push({ fields, line });
            text += row.map(([f, quote]) => (quote || special(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(delimiter) + eol;
            // a row's lines: its line break, and each LF inside its quoted fields
            line += 1 + fields.join('').split('\n').length - 1;
          }
          if (!finalEol) text = text.slice(0, -eol.length);
          const read = (parts: readonly string[]) => {
            const parser = new CsvParser(delimiter);
            return [...parts.flatMap((p) => parser.push(p)), ...parser.end()];
          };
          expect(read([text])).toEqual(expected);
          expect(read(chunks(text, cuts))).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on hostile text', () => {
    fc.assert(fc.property(fc.string(), fc.array(fc.nat(), { maxLength: 5 }), (text, cuts) => void csvRows(chunks(text, cuts))));
  });
});

describe('JsonArrayScanner', () => {
  const scan = (parts: readonly string[]) => {
    const scanner = new JsonArrayScanner();
    return [...parts.flatMap((p) => scanner.push(p)), ...scanner.end()];
  };

  it("cuts a top-level array's elements, strings with brackets and escapes included, with their lines", () => {
    const elements = scan(['[\n {"a": "x]}\\"", "b": [1, {"c": 2}]},\n {"a": 2}\n]']);
    expect(elements.map((e) => JSON.parse(e.text) as unknown)).toEqual([{ a: 'x]}"', b: [1, { c: 2 }] }, { a: 2 }]);
    expect(elements.map((e) => e.line)).toEqual([2, 3]);
  });

  it('reads a file of one object as one element, and refuses an array never closed', () => {
    expect(scan([' {"a": 1} ']).map((e) => JSON.parse(e.text) as unknown)).toEqual([{ a: 1 }]);
    expect(() => scan(['[{"a": 1},'])).toThrow('not closed');
  });

  it('gives the elements JSON.parse gives, however the text is cut', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (values, cuts, pretty) => {
        const text = JSON.stringify(values, null, pretty ? 2 : undefined);
        expect(scan(chunks(text, cuts)).map((e) => JSON.parse(e.text) as unknown)).toEqual(JSON.parse(text));
      }),
    );
  });
});

describe('ColumnType', () => {
  it('types a column one value at a time as inferType types it whole', () => {
    expect(inferType(['1', '2', ''])).toEqual({ type: ['integer', 'null'] });
    expect(inferType(['1.5', '2'])).toEqual({ type: ['number', 'null'] });
    expect(inferType(['a', '2'])).toEqual({ type: ['string', 'null'] });
    expect(inferType([true, false, null])).toEqual({ type: ['boolean', 'null'] });
    expect(inferType([{ a: 1 }, 'x'])).toEqual({ type: ['object', 'array', 'string', 'number', 'boolean', 'null'] });
    expect(new ColumnType().schema()).toEqual({ type: ['string', 'null'] });
  });
});
