import { columnValue, type TableShape } from './tableShape';

// Rows in the text format of PostgreSQL's COPY (https://www.postgresql.org/docs/current/sql-copy.html,
// "Text Format"): one line per row, fields apart by a tab, NULL as \N, and a backslash, a tab, a
// newline or a carriage return inside a value written as \\, \t, \n or \r. Every value is first
// the text the loader has always stored for it (tableShape.ts' columnValue), so a row copied is
// the row an INSERT wrote before.

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One field: \N for NULL, else the text with COPY's four special characters escaped. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]!) : value;
}

/**
 * One stream's batch of rows in COPY's text format, as a loader gathers it: a record's line is
 * made when it arrives, and on a table with a key the last record of a key replaces the earlier
 * one, since one statement cannot write a row twice (the count of records read stays whole).
 */
export class CopyBatch {
  private readonly keyIndexes: number[];
  /** per column, whether it is part of the key */
  private readonly keyed: boolean[];
  private readonly lines = new Map<string | number, string>();
  /** records added since the last take(), duplicates of a key included */
  records = 0;
  /** the batch's size in UTF-16 units, an upper bound of half its bytes: what the loader caps */
  chars = 0;

  constructor(readonly shape: TableShape) {
    this.keyIndexes = shape.key.map((name) => shape.columns.findIndex((c) => c.column === name));
    this.keyed = shape.columns.map((_, i) => this.keyIndexes.includes(i));
  }

  add(record: Record<string, unknown>): void {
    const columns = this.shape.columns;
    let line = '';
    let key = '';
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i]!;
      const field = copyField(columnValue(record[column.property], column.type));
      line += i === 0 ? field : `\t${field}`;
      if (this.keyed[i]) key += `${field}\t`;
    }
    line += '\n';
    // without a key every record is a row of its own; with one, its key fields name its row
    const id = this.keyIndexes.length === 0 ? this.records : key;
    const replaced = this.lines.get(id);
    if (replaced !== undefined) this.chars -= replaced.length;
    this.lines.set(id, line);
    this.chars += line.length;
    this.records++;
  }

  /** The batch's COPY data and counts; the batch is empty again afterwards. */
  take(): { data: Buffer; records: number; rows: number } {
    const taken = { data: Buffer.from([...this.lines.values()].join(''), 'utf8'), records: this.records, rows: this.lines.size };
    this.lines.clear();
    this.records = 0;
    this.chars = 0;
    return taken;
  }
}
