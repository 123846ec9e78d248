import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { ColumnType, CsvParser, JsonArrayScanner, type CsvRow } from '../csv';
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

/** A record read from a file, or a row that could not be read, each with its line. */
type Read = { record: Record<string, unknown>; line: number } | { bad: string; line: number };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A file's records, read in chunks (a file of any size streams in constant memory) and handed on
 * a chunk's worth at a time (a promise per record cost more than reading it): CSV rows under their
 * header, NDJSON lines, the elements of a JSON array (or a file's one object).
 */
async function* recordsOf(file: string, delimiter: string): AsyncGenerator<Read[]> {
  const ext = path.extname(file).toLowerCase();
  const input = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  if (ext === '.csv') {
    const parser = new CsvParser(delimiter);
    let header: string[] | undefined;
    const readsOf = (rows: CsvRow[]): Read[] => {
      const reads: Read[] = [];
      for (const row of rows) {
        if (!header) header = row.fields;
        else if (row.fields.length > header.length) reads.push({ bad: `has ${row.fields.length} fields, the header ${header.length}`, line: row.line });
        else {
          const record: Record<string, unknown> = {};
          for (let i = 0; i < header.length; i++) record[header[i]!] = row.fields[i] ?? null;
          reads.push({ record, line: row.line });
        }
      }
      return reads;
    };
    for await (const chunk of input) yield readsOf(parser.push(chunk as string));
    yield readsOf(parser.end());
    return;
  }
  const parsed = (text: string, line: number): Read => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { bad: 'is not JSON', line };
    }
    return isRecord(value) ? { record: value, line } : { bad: 'is not a JSON object', line };
  };
  if (ext === '.json') {
    const scanner = new JsonArrayScanner();
    for await (const chunk of input) yield scanner.push(chunk as string).map((element) => parsed(element.text, element.line));
    yield scanner.end().map((element) => parsed(element.text, element.line));
    return;
  }
  let line = 0;
  let reads: Read[] = [];
  for await (const text of readline.createInterface({ input, crlfDelay: Infinity })) {
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

/**
 * A file's columns and their types, from a first pass over it (so the SCHEMA before the records is
 * right for every row, and nothing is held but one type per column). Bad rows are named here,
 * with file and line; `failOnBadRows` ends the run at the first.
 */
async function shapeOf(file: string, shown: string, delimiter: string, failOnBadRows: boolean): Promise<{ columns: Map<string, ColumnType>; records: number; bad: number }> {
  const columns = new Map<string, ColumnType>();
  let records = 0;
  let bad = 0;
  for await (const reads of recordsOf(file, delimiter)) for (const read of reads) {
    if ('bad' in read) {
      bad++;
      const line = `${shown} line ${read.line} ${read.bad}`;
      if (failOnBadRows) throw new Error(`${line} (fail_on_bad_rows is set)`);
      if (bad <= BAD_ROWS_SHOWN) log(NAME, `${line}: skipped`);
      continue;
    }
    records++;
    for (const [key, value] of Object.entries(read.record)) {
      let type = columns.get(key);
      if (!type) {
        type = new ColumnType();
        columns.set(key, type);
      }
      type.add(value);
    }
  }
  if (bad > BAD_ROWS_SHOWN) log(NAME, `${shown}: ${bad - BAD_ROWS_SHOWN} more bad rows skipped`);
  return { columns, records, bad };
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
    const numeric = columns.map((c) => isNumeric((properties[c] as { type: unknown }).type));
    for await (const reads of recordsOf(file, delimiter)) {
      for (const read of reads) {
        if ('bad' in read) continue;
        const record: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) record[columns[i]!] = valueOf(read.record[columns[i]!] ?? null, numeric[i]!);
        const full = out.write({ type: 'RECORD', stream, record });
        if (full) await full;
      }
    }
    bookmarks[stream] = { modified };
    await out.write({ type: 'STATE', value: { bookmarks: { ...bookmarks } } });
    log(NAME, `${stream}: ${shape.records} records from ${shown}${shape.bad > 0 ? ` (${shape.bad} bad rows skipped)` : ''}`);
  }
  if (args.discover) process.stdout.write(`${JSON.stringify({ streams: catalog }, null, 2)}\n`);
  return 0;
});
