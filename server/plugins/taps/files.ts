import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { ColumnType, CsvParser, JsonArrayScanner, type CsvRow } from '../csv';
import { CsvRecordLines } from '../recordLine';
import { MessageWriter, isSelected, log, parseArguments, runPlugin } from '../singer';
import { ProjectPathRefused, realPathInside } from '../../security/projectFiles';
import { safeIdentifier } from '../../stores/tableShape';

// tap-files: each CSV, JSON (an array of objects) or NDJSON file is a stream named after the file;
// a file is read again only when its modification time moved past the bookmark. Files are read
// from the project directory (MELTANO_PROJECT_ROOT) only, and streamed: a first pass types the
// columns, a second sends the records, so a file of any size loads in constant memory.

const NAME = 'tap-files';
const EXTENSIONS = new Set(['.csv', '.json', '.jsonl', '.ndjson']);

/**
 * Every file the `paths` setting names, each resolved inside the project directory: an absolute
 * path, `..` or a symbolic link that leads out is refused with a line saying which entry and why.
 */
function filesOf(paths: unknown, root: string): string[] {
  const list = Array.isArray(paths) ? paths : typeof paths === 'string' ? [paths] : [];
  if (list.length === 0) throw new Error('paths is required: the files or directories to read');
  const inside = (entry: string, shown: string): string => {
    try {
      return realPathInside(root, entry);
    } catch (error) {
      if (error instanceof ProjectPathRefused) throw new Error(`paths entry ${shown} ${error.message}${/outside/.test(error.message) ? ': refused, tap-files reads only files inside the project directory' : ''}`);
      throw error;
    }
  };
  const found: string[] = [];
  for (const entry of list) {
    const full = inside(String(entry), `'${String(entry)}'`);
    if (fs.statSync(full).isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) {
        if (EXTENSIONS.has(path.extname(name).toLowerCase())) found.push(inside(path.join(full, name), `'${String(entry)}/${name}'`));
      }
    } else found.push(full);
  }
  return found;
}

/** A record read from a JSON or NDJSON file, or an element that could not be read, each with its line. */
type Read = { record: Record<string, unknown>; line: number } | { bad: string; line: number };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A file read in chunks: a file of any size streams in constant memory. 64 KB: a chunk's rows are
 * alive while they are sent, and at 1 MB (20,000 rows) copying them at each garbage collection
 * cost a third of the tap's time.
 */
const CHUNK_BYTES = 64 * 1024;
const chunksOf = (file: string) => fs.createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK_BYTES });

/**
 * A CSV file's header and the rows after it, handed on a chunk's worth at a time (a promise per
 * row cost more than reading it).
 */
async function* csvRowsOf(file: string, delimiter: string): AsyncGenerator<{ header: string[]; rows: CsvRow[] }> {
  const parser = new CsvParser(delimiter);
  let header: string[] | undefined;
  const after = (rows: CsvRow[]) => {
    if (!header && rows.length > 0) header = rows.shift()!.fields;
    return header ? { header, rows } : undefined;
  };
  for await (const chunk of chunksOf(file)) {
    const read = after(parser.push(chunk as string));
    if (read) yield read;
  }
  const read = after(parser.end());
  if (read) yield read;
}

/** Why a CSV row is not read, or undefined: more fields than the header has names. */
const badCsvRow = (row: CsvRow, header: readonly string[]) => (row.fields.length > header.length ? `has ${row.fields.length} fields, the header ${header.length}` : undefined);

/**
 * A CSV header's columns, in the order a record object of the row would hold them (JavaScript puts
 * integer-like names first), each read from the last field of its name, as such an object keeps it.
 */
function csvColumns(header: readonly string[]): Array<{ name: string; index: number }> {
  const last = new Map(header.map((name, index) => [name, index]));
  return Object.keys(Object.fromEntries(header.map((name) => [name, 0]))).map((name) => ({ name, index: last.get(name)! }));
}

/** The records of an NDJSON file's lines, or of a JSON file's array elements (or its one object), a chunk's worth at a time. */
async function* jsonRecordsOf(file: string): AsyncGenerator<Read[]> {
  const parsed = (text: string, line: number): Read => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { bad: 'is not JSON', line };
    }
    return isRecord(value) ? { record: value, line } : { bad: 'is not a JSON object', line };
  };
  if (path.extname(file).toLowerCase() === '.json') {
    const scanner = new JsonArrayScanner();
    for await (const chunk of chunksOf(file)) yield scanner.push(chunk as string).map((element) => parsed(element.text, element.line));
    yield scanner.end().map((element) => parsed(element.text, element.line));
    return;
  }
  let line = 0;
  let reads: Read[] = [];
  for await (const text of readline.createInterface({ input: chunksOf(file), crlfDelay: Infinity })) {
    line++;
    if (text.trim() !== '') reads.push(parsed(text, line));
    if (reads.length >= 1000) {
      yield reads;
      reads = [];
    }
  }
  yield reads;
}

/** Bad rows named in the log per file; past this, one line counts the rest. */
const BAD_ROWS_SHOWN = 20;

/** A file's columns and their types, and for a CSV file the field each column reads. */
interface Shape {
  columns: Map<string, ColumnType>;
  fieldOf: Map<string, number>;
  records: number;
  bad: number;
}

/**
 * A file's columns and their types, from a first pass over it (so the SCHEMA before the records is
 * right for every row, and nothing is held but one type per column). Bad rows are named here,
 * with file and line; `failOnBadRows` ends the run at the first.
 */
async function shapeOf(file: string, shown: string, delimiter: string, failOnBadRows: boolean): Promise<Shape> {
  const shape: Shape = { columns: new Map(), fieldOf: new Map(), records: 0, bad: 0 };
  const badRow = (line: number, why: string) => {
    shape.bad++;
    const text = `${shown} line ${line} ${why}`;
    if (failOnBadRows) throw new Error(`${text} (fail_on_bad_rows is set)`);
    if (shape.bad <= BAD_ROWS_SHOWN) log(NAME, `${text}: skipped`);
  };
  const typeOf = (key: string) => {
    let type = shape.columns.get(key);
    if (!type) {
      type = new ColumnType();
      shape.columns.set(key, type);
    }
    return type;
  };
  if (path.extname(file).toLowerCase() === '.csv') {
    let columns: Array<{ index: number; type: ColumnType }> | undefined;
    for await (const { header, rows } of csvRowsOf(file, delimiter)) {
      columns ??= csvColumns(header).map(({ name, index }) => {
        shape.fieldOf.set(name, index);
        return { index, type: typeOf(name) };
      });
      for (const row of rows) {
        const bad = badCsvRow(row, header);
        if (bad) badRow(row.line, bad);
        else {
          shape.records++;
          for (const { index, type } of columns) type.add(row.fields[index]);
        }
      }
    }
  } else {
    for await (const reads of jsonRecordsOf(file)) for (const read of reads) {
      if ('bad' in read) badRow(read.line, read.bad);
      else {
        shape.records++;
        for (const [key, value] of Object.entries(read.record)) typeOf(key).add(value);
      }
    }
  }
  if (shape.bad > BAD_ROWS_SHOWN) log(NAME, `${shown}: ${shape.bad - BAD_ROWS_SHOWN} more bad rows skipped`);
  return shape;
}

/** Whether a column's JSON Schema type is a number's: its text values are sent as numbers. */
function isNumeric(type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.includes('integer') || types.includes('number');
}

/** A value as the record sends it: '' is null, a numeric column's text a number. */
function valueOf(value: unknown, numeric: boolean): unknown {
  if (typeof value !== 'string' || value === '') return value === '' ? null : value;
  return numeric ? Number(value) : value;
}

/** Sends a file's records, typed by its shape, without the columns the catalog deselects. */
async function sendRecords(out: MessageWriter, file: string, delimiter: string, stream: string, shape: Shape): Promise<void> {
  const dropped = out.deselected(stream);
  const columns = [...shape.columns].filter(([name]) => !dropped.has(name)).map(([name, type]) => ({ name, numeric: isNumeric(type.schema().type), index: shape.fieldOf.get(name) ?? -1 }));
  if (path.extname(file).toLowerCase() === '.csv') {
    const lines = new CsvRecordLines(stream, columns);
    for await (const { header, rows } of csvRowsOf(file, delimiter)) {
      for (const row of rows) {
        if (badCsvRow(row, header)) continue;
        const full = out.writeRecordLine(lines.line(row.fields));
        if (full) await full;
      }
    }
    return;
  }
  for await (const reads of jsonRecordsOf(file)) {
    for (const read of reads) {
      if ('bad' in read) continue;
      // without a prototype, so that a property named __proto__ is a property like any other
      const record = Object.create(null) as Record<string, unknown>;
      for (const { name, numeric } of columns) record[name] = valueOf(read.record[name] ?? null, numeric);
      const full = out.write({ type: 'RECORD', stream, record });
      if (full) await full;
    }
  }
}

runPlugin(NAME, async () => {
  const args = parseArguments(process.argv.slice(2));
  const root = process.env.MELTANO_PROJECT_ROOT ?? process.cwd();
  const files = filesOf(args.config.paths, root);
  const keys = (args.config.key_properties ?? {}) as Record<string, string[]>;
  const delimiter = typeof args.config.delimiter === 'string' && args.config.delimiter.length === 1 ? args.config.delimiter : ',';
  const bookmarks = { ...((args.state?.bookmarks ?? {}) as Record<string, { modified?: string }>) };
  const out = new MessageWriter(args.catalog);
  const catalog: unknown[] = [];
  const failOnBadRows = args.config.fail_on_bad_rows === true || args.config.fail_on_bad_rows === 'true';
  for (const file of files) {
    const stream = safeIdentifier(path.basename(file, path.extname(file)), 'file');
    const shown = path.relative(root, file) || file;
    const modified = fs.statSync(file).mtime.toISOString();
    if (!args.discover && !isSelected(args.catalog, stream)) continue;
    if (!args.discover && bookmarks[stream]?.modified === modified) {
      log(NAME, `${stream}: unchanged since ${modified}`);
      continue;
    }
    const shape = await shapeOf(file, shown, delimiter, failOnBadRows);
    const columns = [...shape.columns.keys()];
    const properties = Object.fromEntries(columns.map((c) => [c, shape.columns.get(c)!.schema()]));
    const schema = { type: 'object', properties };
    const key = Array.isArray(keys[stream]) ? keys[stream].filter((k) => columns.includes(k)) : [];
    if (args.discover) {
      catalog.push({ tap_stream_id: stream, stream, schema, key_properties: key });
      continue;
    }
    await out.write({ type: 'SCHEMA', stream, schema, key_properties: key });
    await sendRecords(out, file, delimiter, stream, shape);
    bookmarks[stream] = { modified };
    await out.write({ type: 'STATE', value: { bookmarks: { ...bookmarks } } });
    log(NAME, `${stream}: ${shape.records} records from ${shown}${shape.bad > 0 ? ` (${shape.bad} bad rows skipped)` : ''}`);
  }
  if (args.discover) process.stdout.write(`${JSON.stringify({ streams: catalog }, null, 2)}\n`);
  return 0;
});
