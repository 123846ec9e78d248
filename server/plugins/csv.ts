/** A parsed CSV row and the line it starts on (1-based; a quoted field may span lines). */
export interface CsvRow {
  fields: string[];
  line: number;
}

/**
 * RFC 4180 CSV read chunk by chunk: quoted fields, doubled quotes, CRLF or LF, fields across
 * chunks and lines. Holds only the row being read, so a file of any size streams through it.
 */
export class CsvParser {
  private row: string[] = [];
  private field = '';
  private quoted = false;
  /** a quote just closed inside a quoted field: the next quote doubles it */
  private quoteSeen = false;
  /** a CR ended the last row: an LF right after it belongs to it */
  private afterCr = false;
  private line = 1;
  private rowLine = 1;

  constructor(private readonly delimiter = ',') {}

  push(chunk: string): CsvRow[] {
    const rows: CsvRow[] = [];
    // false once the chunk has no LF left, so that a file of CR-ended lines is not searched to its end at every row
    let lfLeft = this.delimiter !== '"' && this.delimiter !== '\n' && this.delimiter !== '\r';
    let i = 0;
    while (i < chunk.length) {
      if (lfLeft && this.field.length === 0 && this.row.length === 0 && !this.quoted && !this.quoteSeen && !this.afterCr) {
        i = this.plainLines(chunk, i, rows);
        if (i >= chunk.length) break;
        lfLeft = chunk.indexOf('\n', i) >= 0;
      }
      i = this.readRow(chunk, i, rows);
    }
    return rows;
  }

  /**
   * Whole lines without a quote, from a row's start, each split in one call: most lines of most
   * files are, and reading them a character at a time was most of tap-files' time. Returns where
   * the first line it leaves to readRow starts (a quote, a lone CR, or no line break in the chunk).
   * Apart from readRow, so that each loop is optimised for its own case.
   */
  private plainLines(chunk: string, from: number, rows: CsvRow[]): number {
    let i = from;
    for (;;) {
      const end = chunk.indexOf('\n', i);
      if (end < 0) return i;
      let line = chunk.slice(i, end);
      if (line.includes('"')) return i;
      const cr = line.indexOf('\r');
      if (cr >= 0) {
        if (cr < line.length - 1) return i;
        line = line.slice(0, cr);
      }
      this.row = line.split(this.delimiter);
      this.emit(rows);
      this.line++;
      this.rowLine = this.line;
      i = end + 1;
    }
  }

  /** Reads a character at a time, up to the end of the row (past its line break) or of the chunk; returns where it stopped. */
  private readRow(chunk: string, from: number, rows: CsvRow[]): number {
    for (let i = from; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.afterCr) {
        this.afterCr = false;
        if (c === '\n') return i + 1;
      }
      if (this.quoted) {
        if (c === '"') {
          this.quoted = false;
          this.quoteSeen = true;
          continue;
        }
        // the quoted text up to the next quote, in one slice
        const close = chunk.indexOf('"', i);
        const to = close < 0 ? chunk.length : close;
        const text = chunk.slice(i, to);
        for (let n = text.indexOf('\n'); n >= 0; n = text.indexOf('\n', n + 1)) this.line++;
        this.field += text;
        i = to - 1;
        continue;
      }
      if (c === '"' && this.quoteSeen) {
        // a doubled quote inside a quoted field
        this.field += '"';
        this.quoted = true;
        this.quoteSeen = false;
        continue;
      }
      this.quoteSeen = false;
      if (c === '"' && this.field.length === 0) this.quoted = true;
      else if (c === this.delimiter) {
        this.row.push(this.field);
        this.field = '';
      } else if (c === '\n' || c === '\r') {
        this.row.push(this.field);
        this.emit(rows);
        this.line++;
        this.rowLine = this.line;
        // a CR's LF belongs to it, in this chunk or at the start of the next
        if (c === '\r' && chunk[i + 1] === '\n') return i + 2;
        this.afterCr = c === '\r' && i + 1 === chunk.length;
        return i + 1;
      } else {
        // the plain text up to the next delimiter, quote or line break, in one slice
        let to = i + 1;
        while (to < chunk.length) {
          const d = chunk[to];
          if (d === this.delimiter || d === '\n' || d === '\r' || d === '"') break;
          to++;
        }
        this.field += chunk.slice(i, to);
        i = to - 1;
      }
    }
    return chunk.length;
  }

  /** The last row, when the text does not end with a line break. */
  end(): CsvRow[] {
    const rows: CsvRow[] = [];
    if (this.field.length > 0 || this.row.length > 0 || this.quoteSeen) {
      this.row.push(this.field);
      this.emit(rows);
    }
    return rows;
  }

  private emit(rows: CsvRow[]): void {
    // a blank line is no row
    if (!(this.row.length === 1 && this.row[0] === '')) rows.push({ fields: this.row, line: this.rowLine });
    this.row = [];
    this.field = '';
    this.quoteSeen = false;
  }
}

/** RFC 4180 CSV of a whole text; returns rows of fields. */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const parser = new CsvParser(delimiter);
  return [...parser.push(text), ...parser.end()].map((r) => r.fields);
}

const INTEGER = /^-?\d{1,15}$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * The narrowest JSON Schema type that fits every non-empty value of a column, learnt one value at
 * a time (so a column of any length is typed in constant memory).
 */
export class ColumnType {
  private seen = false;
  private boolean = true;
  private integer = true;
  private number = true;
  private string = true;

  add(v: unknown): void {
    if (v === null || v === undefined || v === '') return;
    this.seen = true;
    if (typeof v !== 'boolean') this.boolean = false;
    // a type ruled out is not tested again: most columns are ruled out of most types at their first value
    if (this.integer && !((typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && INTEGER.test(v)))) this.integer = false;
    if (this.number && !(typeof v === 'number' || (typeof v === 'string' && NUMBER.test(v)))) this.number = false;
    if (typeof v !== 'string') this.string = false;
  }

  schema(): Record<string, unknown> {
    if (!this.seen) return { type: ['string', 'null'] };
    if (this.boolean) return { type: ['boolean', 'null'] };
    if (this.integer) return { type: ['integer', 'null'] };
    if (this.number) return { type: ['number', 'null'] };
    if (this.string) return { type: ['string', 'null'] };
    return { type: ['object', 'array', 'string', 'number', 'boolean', 'null'] };
  }
}

/** The narrowest JSON Schema type that fits every non-empty value of a column. */
export function inferType(values: readonly unknown[]): Record<string, unknown> {
  const type = new ColumnType();
  for (const v of values) type.add(v);
  return type.schema();
}

/**
 * The elements of a top-level JSON array, cut out of the text chunk by chunk (each element is
 * parsed alone, so only one is held at a time). Text that is not an array is one element.
 */
export class JsonArrayScanner {
  private started = false;
  private array = false;
  private done = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private element = '';
  private line = 1;
  private elementLine = 1;

  push(chunk: string): Array<{ text: string; line: number }> {
    const out: Array<{ text: string; line: number }> = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === '\n') this.line++;
      if (!this.started) {
        if (/\s/.test(c) || c === '\uFEFF') continue;
        this.started = true;
        this.array = c === '[';
        if (this.array) continue;
      }
      if (!this.array) {
        this.element += c;
        continue;
      }
      if (this.done) continue;
      if (this.inString) {
        this.element += c;
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (this.depth === 0 && (c === ',' || c === ']')) {
        if (this.element.trim() !== '') out.push({ text: this.element, line: this.elementLine });
        this.element = '';
        if (c === ']') this.done = true;
        continue;
      }
      if (this.element.trim() === '' && !/\s/.test(c)) this.elementLine = this.line;
      this.element += c;
      if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') this.depth++;
      else if (c === '}' || c === ']') this.depth--;
    }
    return out;
  }

  end(): Array<{ text: string; line: number }> {
    if (this.array) {
      if (!this.done) throw new Error('the JSON array is not closed');
      return [];
    }
    return this.element.trim() === '' ? [] : [{ text: this.element, line: 1 }];
  }
}
