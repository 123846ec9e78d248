import path from 'node:path';
import { builtinPlugin } from '../plugins/catalogue';
import { DEMO_STREAMS } from '../plugins/taps/demoData';
import { safeIdentifier, tableNameOf } from '../stores/tableShape';

// The streams an extractor will emit, where they are knowable before it runs, and the tables two
// pipelines' loaders would then both write (docs/decisions.md "Prefix clashes across extractors").
// Pure: the save rule (tablePrefixes.ts) reads settings and asks here.

/** The file types tap-files reads (server/plugins/taps/files.ts). */
const FILE_EXTENSIONS: ReadonlySet<string> = new Set(['.csv', '.json', '.jsonl', '.ndjson']);

/** A list setting as a job would see it: a list, a JSON list in text, or one text. */
function listSetting(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value !== 'string' || value === '') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed.filter((v): v is string => typeof v === 'string');
  } catch {
    // one path or table
  }
  return [value];
}

/**
 * The streams this extractor certainly emits, as far as its plugin tells before it runs; empty
 * when nothing is knowable. tap-demo's are fixed; tap-postgres's are `{schema}-{table}` of the
 * tables its `tables` setting lists (all of the schema otherwise: unknowable); tap-files's are the
 * files its `paths` name by file name (a directory's files are unknowable). A plugin that is not
 * built in (a Python plugin) has no catalogue here. `setting` gives the value a run would get.
 */
export function knownStreams(plugin: { name: string; variant: string | null }, setting: (name: string) => unknown): string[] {
  if (!builtinPlugin(plugin.name, plugin.variant)) return [];
  switch (plugin.name) {
    case 'tap-demo':
      return Object.keys(DEMO_STREAMS);
    case 'tap-postgres': {
      const schema = setting('schema');
      const name = typeof schema === 'string' && schema !== '' ? schema : 'public';
      return listSetting(setting('tables')).map((table) => `${name}-${table}`);
    }
    case 'tap-files':
      return listSetting(setting('paths'))
        .filter((file) => FILE_EXTENSIONS.has(path.posix.extname(file).toLowerCase()))
        .map((file) => safeIdentifier(path.posix.basename(file, path.posix.extname(file)), 'file'));
    default:
      return [];
  }
}

/** Where a pipeline's loader writes, as far as is known: its prefix and its extractors' known streams. */
interface KnownDestination {
  prefix: string;
  streams: readonly string[];
}

/** The tables both destinations would write (the loader's own folding of prefix and stream), sorted. */
export function tablesInCommon(a: KnownDestination, b: KnownDestination): string[] {
  const theirs = new Set(b.streams.map((stream) => tableNameOf(stream, b.prefix)));
  return [...new Set(a.streams.map((stream) => tableNameOf(stream, a.prefix)))].filter((table) => theirs.has(table)).sort();
}
