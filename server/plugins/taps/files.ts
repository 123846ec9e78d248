import fs from 'node:fs';
import path from 'node:path';
import { inferType, parseCsv } from '../csv';
import { MessageWriter, isSelected, log, parseArguments, runPlugin } from '../singer';
import { ProjectPathRefused, realPathInside } from '../../security/projectFiles';
import { safeIdentifier } from '../../stores/tableShape';

// tap-files: each CSV, JSON (an array of objects) or NDJSON file is a stream named after the file;
// a file is read again only when its modification time moved past the bookmark. Files are read
// from the project directory (MELTANO_PROJECT_ROOT) only.

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

function recordsOf(file: string, delimiter: string): Record<string, unknown>[] {
  const text = fs.readFileSync(file, 'utf8');
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') {
    const [header, ...rows] = parseCsv(text, delimiter);
    if (!header) return [];
    return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? null])));
  }
  if (ext === '.json') {
    const value = JSON.parse(text) as unknown;
    const list = Array.isArray(value) ? value : [value];
    return list.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`${path.basename(file)} line ${i + 1} is not JSON`);
      }
    });
}

function numeric(value: unknown, type: unknown): unknown {
  if (typeof value !== 'string' || value === '') return value === '' ? null : value;
  const types = Array.isArray(type) ? type : [type];
  return types.includes('integer') || types.includes('number') ? Number(value) : value;
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
  for (const file of files) {
    const stream = safeIdentifier(path.basename(file, path.extname(file)), 'file');
    const modified = fs.statSync(file).mtime.toISOString();
    const records = recordsOf(file, delimiter);
    const columns = [...new Set(records.flatMap((r) => Object.keys(r)))];
    const properties = Object.fromEntries(columns.map((c) => [c, inferType(records.map((r) => r[c]))]));
    const schema = { type: 'object', properties };
    const key = Array.isArray(keys[stream]) ? keys[stream].filter((k) => columns.includes(k)) : [];
    if (args.discover) {
      catalog.push({ tap_stream_id: stream, stream, schema, key_properties: key });
      continue;
    }
    if (!isSelected(args.catalog, stream)) continue;
    if (bookmarks[stream]?.modified === modified) {
      log(NAME, `${stream}: unchanged since ${modified}`);
      continue;
    }
    await out.write({ type: 'SCHEMA', stream, schema, key_properties: key });
    for (const record of records) {
      await out.write({ type: 'RECORD', stream, record: Object.fromEntries(columns.map((c) => [c, numeric(record[c] ?? null, (properties[c] as { type: unknown }).type)])) });
    }
    bookmarks[stream] = { modified };
    await out.write({ type: 'STATE', value: { bookmarks: { ...bookmarks } } });
    log(NAME, `${stream}: ${records.length} records from ${path.relative(root, file) || file}`);
  }
  if (args.discover) process.stdout.write(`${JSON.stringify({ streams: catalog }, null, 2)}\n`);
  return 0;
});
