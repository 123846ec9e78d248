import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import { toCsv } from './csv';

/** A small RFC 4180 reader, enough to read back what toCsv wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cellText = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cellText += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cellText += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cellText);
      cellText = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cellText);
      rows.push(row);
      row = [];
      cellText = '';
      i += 1;
    } else cellText += c;
  }
  return rows;
}

describe('toCsv', () => {
  it('writes a header of every key and one line per row', () => {
    expect(toCsv([{ a: 1, b: 'x' }, { b: 'y,z', c: true }])).toBe('a,b,c\r\n1,x,\r\n,"y,z",true\r\n');
  });

  it('quotes quotes, commas and line breaks, and defuses formulas', () => {
    expect(toCsv([{ t: 'say "hi"\nthere' }])).toBe('t\r\n"say ""hi""\nthere"\r\n');
    expect(toCsv([{ t: '=HYPERLINK("x")', n: -5 }])).toBe('t,n\r\n"\'=HYPERLINK(""x"")",-5\r\n');
  });

  it('reads back cell for cell whatever the text', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.constantFrom('a', 'b', 'c d', 'e"f'), hostileString), { maxLength: 5 }), (rows) => {
        const parsed = parseCsv(toCsv(rows));
        expect(parsed.length).toBe(rows.length + 1);
        const header = parsed[0]!;
        rows.forEach((row, r) => {
          header.forEach((column, c) => {
            const original = row[column];
            const text = original === undefined ? '' : /^[=+\-@\t\r]/.test(original) ? `'${original}` : original;
            expect(parsed[r + 1]![c]).toBe(text);
          });
        });
      }),
    );
  });
});

describe('toCsv cells of every kind (mutation testing, issue 40)', () => {
  it('writes nothing for null and undefined, the value for numbers, booleans and bigints, JSON for the rest', () => {
    expect(toCsv([{ a: null, b: undefined, c: true, d: 12n, e: -3.5, f: { x: 1 }, g: [1, 2] }])).toBe('a,b,c,d,e,f,g\r\n,,true,12,-3.5,"{""x"":1}","[1,2]"\r\n');
  });
});
