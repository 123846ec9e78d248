import { columnValue, type TableShape } from './tableShape';

// Rows in the text format of PostgreSQL's COPY (https://www.postgresql.org/docs/current/sql-copy.html,
// "Text Format"): one line per row, fields apart by a tab, NULL as \N, and a backslash, a tab, a
// newline or a carriage return inside a value written as \\, \t, \n or \r. Every value is first
// the text the loader has always stored for it (tableShape.ts' columnValue), so a row copied is
// the row an INSERT wrote before.

/** The most records one batch stands for (the loader's largest batch_size): the bridge refuses a count above it. */
export const MAX_BATCH_RECORDS = 100_000;

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One field: \N for NULL, else the text with COPY's four special characters escaped. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]!) : value;
}

/** A batch's first buffer; it grows as rows come, and the next batch starts at the last one's size. */
const FIRST_BYTES = 256 * 1024;

/**
 * One stream's batch of rows in COPY's text format, as a loader gathers it: a record's line is
 * made and encoded when it arrives, and on a table with a key the last record of a key replaces
 * the earlier one, since one statement cannot write a row twice (the count of records read stays
 * whole). Lines go straight into the batch's bytes: holding them as strings until the batch was
 * taken made every garbage collection copy them, which cost a loader more than making them.
 */
export class CopyBatch {
  private readonly keyIndexes: number[];
  /** per column, whether it is part of the key */
  private readonly keyed: boolean[];
  /** per key, where its row's line starts */
  private readonly rowAt = new Map<string, number>();
  /** where the lines of rows replaced by a later record of their key start: left out when taken */
  private replaced: number[] = [];
  private buffer = Buffer.allocUnsafe(FIRST_BYTES);
  /** records added since the last take(), duplicates of a key included */
  records = 0;
  /** the batch's bytes, replaced lines included (they are held until it is taken): what the loader caps */
  bytes = 0;

  constructor(readonly shape: TableShape) {
    this.keyIndexes = shape.key.map((name) => shape.columns.findIndex((c) => c.column === name));
    this.keyed = shape.columns.map((_, i) => this.keyIndexes.includes(i));
  }

  add(record: Record<string, unknown>): void {
    const columns = this.shape.columns;
    let line = '';
    // the key's fields apart by a tab (never inside a field); a key of one column is its field, not a string made from it
    let key = '';
    let keyFields = 0;
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i]!;
      const field = copyField(columnValue(record[column.property], column.type));
      line += i === 0 ? field : `\t${field}`;
      if (this.keyed[i]) key = keyFields++ === 0 ? field : `${key}\t${field}`;
    }
    line += '\n';
    // without a key every record is a row of its own; with one, its key fields name its row
    if (keyFields > 0) {
      const earlier = this.rowAt.get(key);
      if (earlier !== undefined) this.replaced.push(earlier);
      this.rowAt.set(key, this.bytes);
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (this.bytes + 3 * line.length > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.bytes + 3 * line.length));
      this.buffer.copy(grown, 0, 0, this.bytes);
      this.buffer = grown;
    }
    this.bytes += this.buffer.write(line, this.bytes, 'utf8');
    this.records++;
  }

  /** The batch's COPY data and counts; the batch is empty again afterwards. */
  take(): { data: Buffer; records: number; rows: number } {
    const rows = this.keyIndexes.length > 0 ? this.rowAt.size : this.records;
    let data = this.buffer.subarray(0, this.bytes);
    if (this.replaced.length > 0) {
      // the lines still current, in order: each replaced line ends at its first LF (a field's LF is escaped)
      const kept: Buffer[] = [];
      let from = 0;
      for (const at of this.replaced.sort((a, b) => a - b)) {
        kept.push(data.subarray(from, at));
        from = data.indexOf(10, at) + 1;
      }
      kept.push(data.subarray(from));
      data = Buffer.concat(kept);
    }
    const taken = { data, records: this.records, rows };
    // the data handed on is the caller's: the next batch writes into a buffer of its own
    this.buffer = Buffer.allocUnsafe(Math.max(FIRST_BYTES, this.bytes));
    this.rowAt.clear();
    this.replaced = [];
    this.records = 0;
    this.bytes = 0;
    return taken;
  }
}
