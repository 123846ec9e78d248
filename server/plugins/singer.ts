import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { tablePrefixError } from '../../src/domain/tableNamespace';

// The Singer specification as our plugins speak it: one JSON message per line on stdout
// (SCHEMA, RECORD, STATE), logs on stderr, `--config`, `--state`, `--catalog`, `--discover`.

export type JsonSchema = Record<string, unknown>;

type SingerMessage =
  | { type: 'SCHEMA'; stream: string; schema: JsonSchema; key_properties: string[]; bookmark_properties?: string[] }
  | { type: 'RECORD'; stream: string; record: Record<string, unknown>; time_extracted?: string }
  | { type: 'STATE'; value: Record<string, unknown> }
  | { type: 'ACTIVATE_VERSION'; stream: string; version: number };

export interface CatalogStream {
  tap_stream_id: string;
  stream: string;
  schema: JsonSchema;
  key_properties: string[];
  replication_key?: string;
  metadata?: Array<{ breadcrumb: string[]; metadata: Record<string, unknown> }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses one line as a Singer message, or says exactly what is wrong with it. */
export function parseMessage(line: string): { ok: true; message: SingerMessage } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  if (!isObject(value)) return { ok: false, error: 'not a JSON object' };
  switch (value.type) {
    case 'SCHEMA':
      if (typeof value.stream !== 'string' || value.stream.length === 0) return { ok: false, error: 'SCHEMA without a stream' };
      if (!isObject(value.schema)) return { ok: false, error: `SCHEMA of ${value.stream} without a schema object` };
      if (value.key_properties !== undefined && !(Array.isArray(value.key_properties) && value.key_properties.every((k) => typeof k === 'string'))) {
        return { ok: false, error: `SCHEMA of ${value.stream} with key_properties that are not a list of names` };
      }
      return { ok: true, message: { type: 'SCHEMA', stream: value.stream, schema: value.schema, key_properties: value.key_properties ?? [] } };
    case 'RECORD':
      if (typeof value.stream !== 'string' || value.stream.length === 0) return { ok: false, error: 'RECORD without a stream' };
      if (!isObject(value.record)) return { ok: false, error: `RECORD of ${value.stream} without a record object` };
      return { ok: true, message: { type: 'RECORD', stream: value.stream, record: value.record } };
    case 'STATE':
      if (!isObject(value.value)) return { ok: false, error: 'STATE without a value object' };
      return { ok: true, message: { type: 'STATE', value: value.value } };
    case 'ACTIVATE_VERSION':
      return { ok: true, message: { type: 'ACTIVATE_VERSION', stream: String(value.stream), version: Number(value.version) } };
    default:
      return { ok: false, error: `unknown message type ${JSON.stringify(value.type ?? null)}` };
  }
}

interface TapArguments {
  config: Record<string, unknown>;
  state: Record<string, unknown> | undefined;
  catalog: { streams: CatalogStream[] } | undefined;
  discover: boolean;
}

function readJsonFile(path: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the ${what} file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isObject(value)) throw new Error(`The ${what} file ${path} is not a JSON object`);
  return value;
}

export function parseArguments(argv: readonly string[]): TapArguments {
  const args: TapArguments = { config: {}, state: undefined, catalog: undefined, discover: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const next = () => {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${flag} needs a file`);
      return value;
    };
    if (flag === '--config') args.config = readJsonFile(next(), 'config');
    else if (flag === '--state') args.state = readJsonFile(next(), 'state');
    else if (flag === '--catalog' || flag === '--properties') args.catalog = readJsonFile(next(), 'catalog') as unknown as { streams: CatalogStream[] };
    else if (flag === '--discover') args.discover = true;
    else throw new Error(`Unknown argument ${flag}`);
  }
  return args;
}

/** Whether a catalog selects a stream: no catalog, or no metadata, selects everything. */
export function isSelected(catalog: TapArguments['catalog'], stream: string): boolean {
  if (!catalog || !Array.isArray(catalog.streams)) return true;
  const entry = catalog.streams.find((s) => s.tap_stream_id === stream || s.stream === stream);
  if (!entry) return false;
  const root = entry.metadata?.find((m) => Array.isArray(m.breadcrumb) && m.breadcrumb.length === 0);
  return root?.metadata.selected !== false;
}

/**
 * Per stream, the properties a catalog deselects (`selected: false` on their breadcrumb, Meltano's
 * `select` rules applied): never a key, which a target needs whatever was chosen.
 */
function deselectedProperties(catalog: TapArguments['catalog']): Map<string, ReadonlySet<string>> {
  const dropped = new Map<string, ReadonlySet<string>>();
  if (!catalog || !Array.isArray(catalog.streams)) return dropped;
  for (const entry of catalog.streams) {
    const keys = new Set(Array.isArray(entry.key_properties) ? entry.key_properties : []);
    const names = (entry.metadata ?? [])
      .filter((m) => Array.isArray(m.breadcrumb) && m.breadcrumb.length === 2 && m.breadcrumb[0] === 'properties' && m.metadata?.selected === false && m.metadata.inclusion !== 'automatic')
      .map((m) => m.breadcrumb[1]!)
      .filter((name) => !keys.has(name));
    if (names.length > 0) dropped.set(entry.tap_stream_id ?? entry.stream, new Set(names));
  }
  return dropped;
}

function without<T extends Record<string, unknown>>(object: T, names: ReadonlySet<string>): T {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (!names.has(key)) kept[key] = value;
  return kept as T;
}

/** A stream's message without the properties the catalog deselects. */
function projected(message: SingerMessage, dropped: ReadonlyMap<string, ReadonlySet<string>>): SingerMessage {
  if (message.type !== 'SCHEMA' && message.type !== 'RECORD') return message;
  const names = dropped.get(message.stream);
  if (!names) return message;
  if (message.type === 'RECORD') return { ...message, record: without(message.record, names) };
  const properties = message.schema.properties;
  return typeof properties === 'object' && properties !== null ? { ...message, schema: { ...message.schema, properties: without(properties as Record<string, unknown>, names) } } : message;
}

/** Output gathered before one write to stdout: a system call per message cost a tap more than making the messages. */
const WRITE_CHARS = 64 * 1024;

/** Every writer with output not yet written, for runPlugin to write when the plugin's main ends. */
const unwritten = new Set<MessageWriter>();

/**
 * Writes messages to stdout, gathered into writes of about 64 KB, waiting when the pipe is full
 * so a slow target is not flooded; with the run's catalog, without the properties it deselects,
 * as a Singer tap honours a catalog. A SCHEMA or STATE goes out at once with what came before it,
 * and runPlugin writes what is left when the plugin ends.
 */
export class MessageWriter {
  private readonly dropped: Map<string, ReadonlySet<string>>;
  private pending = '';

  constructor(catalog?: TapArguments['catalog']) {
    this.dropped = deselectedProperties(catalog);
  }

  /** Gathers the message; returns a promise only when it wrote, to be awaited (a full pipe). */
  write(original: SingerMessage): Promise<void> | undefined {
    const message = this.dropped.size > 0 ? projected(original, this.dropped) : original;
    return this.gather(`${JSON.stringify(message)}\n`, message.type !== 'RECORD');
  }

  /**
   * Gathers a RECORD message the tap wrote itself (recordLine.ts), without the properties
   * `deselected` names for its stream; returns a promise only when it wrote, as `write` does.
   */
  writeRecordLine(line: string): Promise<void> | undefined {
    return this.gather(line, false);
  }

  /** The properties the catalog deselects in a stream: a tap writing its own lines leaves them out. */
  deselected(stream: string): ReadonlySet<string> {
    return this.dropped.get(stream) ?? new Set();
  }

  private gather(line: string, now: boolean): Promise<void> | undefined {
    this.pending += line;
    unwritten.add(this);
    return this.pending.length >= WRITE_CHARS || now ? this.flush() : undefined;
  }

  /** Writes what was gathered; resolves once stdout can take more. */
  async flush(): Promise<void> {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    unwritten.delete(this);
    if (!process.stdout.write(text)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
  }
}

export function log(plugin: string, message: string): void {
  process.stderr.write(`${plugin} | ${message}\n`);
}

/**
 * The input's lines (LF or CRLF), a chunk's worth at a time: a promise per line cost a loader
 * more than reading the line. A line may span chunks; the last one needs no line break.
 */
export async function* lineBatches(input: AsyncIterable<Buffer | string>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  // the text after the last line break, in pieces: a long line is joined once, not once per chunk
  let pieces: string[] = [];
  for await (const chunk of input) {
    const piece = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (!piece.includes('\n')) {
      pieces.push(piece);
      continue;
    }
    const lines = (pieces.join('') + piece).split('\n');
    pieces = [lines.pop()!];
    for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
    yield lines;
  }
  const partial = pieces.join('') + decoder.end();
  if (partial !== '') yield [partial.endsWith('\r') ? partial.slice(0, -1) : partial];
}

/** Runs a plugin's main: a thrown error becomes one clear stderr line and exit code 1. */
export function runPlugin(name: string, main: () => Promise<number | void>): void {
  // A reader that went away (a failed target, `| head`) ends the run quietly, not with a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(1);
    throw error;
  });
  // the messages a plugin made before it ended go out, whether it ended well or not
  const writeRest = () => Promise.all([...unwritten].map((writer) => writer.flush()));
  main()
    .then(async (code) => {
      await writeRest();
      process.exitCode = code ?? 0;
    })
    .catch(async (error: unknown) => {
      await writeRest().catch(() => undefined);
      log(name, `ERROR ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    });
}

/** A config value as text: strings as they are, numbers and booleans printed, anything else as JSON. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/** A loader's `table_prefix` setting: '' when unset; a config error when it is no identifier. */
export function tablePrefixOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  const prefix = text(value);
  const error = tablePrefixError(prefix);
  if (error) throw new Error(`invalid config: table_prefix ${error}`);
  return prefix;
}
