// A CSV row's RECORD message written straight from its fields (issue 39): making a record object
// per row, then JSON.stringify of the message, cost tap-files a third of its time and most of its
// garbage. The text is the one JSON.stringify writes for `{ type: 'RECORD', stream, record }`
// with the record the tap would have made: '' and a missing field are null, a numeric column's
// text is a number (null where it is none), every other value a JSON string.

/** One column of the line: its name, the field it reads, and whether its text is sent as a number. */
interface LineColumn {
  name: string;
  index: number;
  numeric: boolean;
}

/** A number's JSON: what JSON.stringify writes for `Number(text)`, null for NaN and ±Infinity. */
function numberJson(text: string): string {
  const value = Number(text);
  return Number.isFinite(value) ? String(value) : 'null';
}

export class CsvRecordLines {
  private readonly head: string;
  /** per column, `"name":` (with the comma before it, after the first) */
  private readonly keys: string[];

  constructor(
    stream: string,
    private readonly columns: readonly LineColumn[],
  ) {
    this.head = `{"type":"RECORD","stream":${JSON.stringify(stream)},"record":{`;
    this.keys = columns.map((column, i) => `${i === 0 ? '' : ','}${JSON.stringify(column.name)}:`);
  }

  /** The message's line, newline included. */
  line(fields: readonly string[]): string {
    let text = this.head;
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i]!;
      const value = fields[column.index];
      text += this.keys[i]! + (value === undefined || value === '' ? 'null' : column.numeric ? numberJson(value) : JSON.stringify(value));
    }
    return `${text}}}\n`;
  }
}
