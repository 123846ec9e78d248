import { z } from 'zod';

// An extractor's streams, as its own discovery lists them (a Singer catalog), and Meltano's `select`
// rules that choose among them: `stream.property` patterns with fnmatch wildcards (`*`, `?`,
// `[abc]`, `[!abc]`), a leading `!` excluding, and `\.` for a dot inside a name. This module reads
// a catalog, tells what a list of rules selects, and writes the rules for what a person ticked.
// The same reading runs in the pipeline editor and in the built-in `meltano`, so what the editor
// shows selected is what a run extracts.

/** What the pipeline editor's Streams part says. */
export const STREAM_TEXTS = {
  title: 'Streams',
  discover: 'Discover streams',
  discoverAgain: 'Discover again',
  discovering: 'Discovering streams: the extractor runs its discovery as a verify job',
  notDiscovered: 'Not discovered yet for these settings: discovery runs the extractor with them and lists what it can extract.',
  saveFirst: 'Save the pipeline, not as a draft, to discover its streams.',
  notStarted: 'The discovery did not start.',
  discoveryFailed: "The discovery ended without listing streams: its verify job's log in History says why.",
  everything: 'Everything selected (Meltano’s default): tick streams to choose.',
} as const;

/** What is kept of a catalog: it is a stranger's output, stored per workspace (`bytes`: its streams as JSON). */
export const CATALOG_LIMITS = { streams: 500, properties: 500, nameLength: 200, bytes: 1024 * 1024 } as const;

// type aliases, not interfaces: they fit the wire schema's open objects, so routes pass them through
export type CatalogProperty = {
  name: string;
  /** the JSON schema's type, `string`, `integer`, … (`null` dropped); '' when it has none */
  type: string;
  /** the tap always emits it (a key, a replication key): it cannot be deselected */
  automatic: boolean;
};

export type CatalogStream = {
  name: string;
  properties: CatalogProperty[];
};

/** A stream as ticked: all of its properties (and any it gains later), or only those named. */
export interface StreamChoice {
  stream: string;
  properties: 'all' | string[];
}

/** Meltano's default when an extractor has no `select`: everything. */
export const SELECT_ALL = ['*.*'];

const schemaType = (schema: unknown): string => {
  if (typeof schema !== 'object' || schema === null) return '';
  const type = (schema as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : [type];
  return types.filter((t): t is string => typeof t === 'string' && t !== 'null').join(' | ');
};

const catalogSchema = z.object({
  streams: z
    .array(
      z.looseObject({
        tap_stream_id: z.string().min(1).max(CATALOG_LIMITS.nameLength).optional(),
        stream: z.string().min(1).max(CATALOG_LIMITS.nameLength).optional(),
        schema: z.looseObject({ properties: z.record(z.string(), z.unknown()).optional() }).optional(),
        key_properties: z.array(z.string()).optional(),
        metadata: z.array(z.looseObject({ breadcrumb: z.array(z.string()).optional(), metadata: z.looseObject({ inclusion: z.string().optional() }).optional() })).optional(),
      }),
    )
    .max(CATALOG_LIMITS.streams),
});

/**
 * A Singer catalog's streams and top-level properties, or why it is not one. Names too long, too
 * many streams or properties, and streams without a name are refused whole: a catalog is a tap's
 * output, a stranger's, and what is kept of it is shown to people and stored.
 */
export function catalogStreams(catalog: unknown): { ok: true; streams: CatalogStream[] } | { ok: false; message: string } {
  const parsed = catalogSchema.safeParse(catalog);
  if (!parsed.success) return { ok: false, message: `not a Singer catalog: ${parsed.error.issues[0]?.path.join('.') || 'streams'} ${parsed.error.issues[0]?.message ?? ''}`.trim() };
  const streams: CatalogStream[] = [];
  const seen = new Set<string>();
  for (const entry of parsed.data.streams) {
    const name = entry.tap_stream_id ?? entry.stream;
    if (name === undefined) return { ok: false, message: 'not a Singer catalog: a stream has no tap_stream_id' };
    if (seen.has(name)) continue;
    seen.add(name);
    const properties = Object.entries(entry.schema?.properties ?? {});
    if (properties.length > CATALOG_LIMITS.properties) return { ok: false, message: `stream ${name} has more than ${CATALOG_LIMITS.properties} properties` };
    // a key is always emitted: named in the stream's key_properties (the Singer spec's first form) or its metadata
    const automatic = new Set([
      ...(entry.key_properties ?? []),
      ...(entry.metadata ?? [])
        .filter((m) => m.breadcrumb?.length === 2 && m.breadcrumb[0] === 'properties' && m.metadata?.inclusion === 'automatic')
        .map((m) => m.breadcrumb![1]!),
    ]);
    const tooLong = properties.find(([property]) => property.length === 0 || property.length > CATALOG_LIMITS.nameLength);
    if (tooLong) return { ok: false, message: `stream ${name} has a property name that is empty or longer than ${CATALOG_LIMITS.nameLength}` };
    streams.push({ name, properties: properties.map(([property, schema]) => ({ name: property, type: schemaType(schema), automatic: automatic.has(property) })) });
  }
  if (JSON.stringify(streams).length > CATALOG_LIMITS.bytes) return { ok: false, message: `its streams and properties take more than ${CATALOG_LIMITS.bytes / 1024} KiB: select fewer schemas or tables in the extractor's settings` };
  return { ok: true, streams };
}

interface Rule {
  negated: boolean;
  stream: RegExp;
  property: RegExp;
  /** `stream.*`: the rule is about the whole stream */
  wholeStream: boolean;
}

/** fnmatch's pattern as a regular expression over a whole name (`*` crosses dots, as in Python). */
function globRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') source += '[\\s\\S]*';
    else if (c === '?') source += '[\\s\\S]';
    else if (c === '[') {
      // as fnmatch: a `]` first in the group (after a `!`) is one of its characters
      let from = i + 1;
      if (glob[from] === '!') from++;
      if (glob[from] === ']') from++;
      const end = glob.indexOf(']', from);
      if (end < 0) {
        source += '\\[';
        continue;
      }
      let set = glob.slice(i + 1, end);
      const negated = set.startsWith('!');
      if (negated) set = set.slice(1);
      source += `[${negated ? '^' : ''}${set.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`, 'u');
  } catch {
    // a range fnmatch would also reject ([z-a]): the rule matches nothing
    return /(?!)/;
  }
}

/** One `select` entry as a rule; the stream part ends at the first dot not escaped as `\.`. */
function parseRule(text: string): Rule {
  const negated = text.startsWith('!');
  const body = negated ? text.slice(1) : text;
  const dot = body.search(/(?<!\\)\./);
  const streamPart = (dot < 0 ? body : body.slice(0, dot)).replace(/\\\./g, '.');
  const propertyPart = (dot < 0 ? '*' : body.slice(dot + 1)).replace(/\\\./g, '.');
  return { negated, stream: globRegExp(streamPart), property: globRegExp(propertyPart), wholeStream: propertyPart === '*' };
}

/** The `select` of a pipeline property or meltano.yml: a list of texts, or JSON text of one; anything else selects as Meltano's default. */
export function selectRulesOf(value: unknown): string[] | undefined {
  let list = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return undefined;
    try {
      list = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  return Array.isArray(list) && list.every((r) => typeof r === 'string') ? list : undefined;
}

interface Selection {
  stream(name: string): boolean;
  property(stream: string, property: CatalogProperty): boolean;
}

/** What a list of rules selects (Meltano's reading: an exclusion wins over an inclusion). */
export function selectionOf(rules: readonly string[] = SELECT_ALL): Selection {
  const parsed = rules.map(parseRule);
  const includes = parsed.filter((r) => !r.negated);
  const excludes = parsed.filter((r) => r.negated);
  const stream = (name: string) => includes.some((r) => r.stream.test(name)) && !excludes.some((r) => r.wholeStream && r.stream.test(name));
  return {
    stream,
    property: (streamName, property) =>
      stream(streamName) && (property.automatic || (includes.some((r) => r.stream.test(streamName) && r.property.test(property.name)) && !excludes.some((r) => r.stream.test(streamName) && r.property.test(property.name)))),
  };
}

/**
 * A name as a pattern that matches it alone. A leading `!` would make the rule an exclusion, and
 * fnmatch has no group of `!` alone: `[]!]` also matches a name with `]` in its place, a clash no
 * real tap's names make.
 */
export function literalPattern(name: string): string {
  // a backslash in a group, so that one before a dot is never read as that dot's escape
  const escaped = name.replace(/[*?[\\]/g, (c) => `[${c}]`).replace(/\./g, '\\.');
  return escaped.startsWith('!') ? `[]!]${escaped.slice(1)}` : escaped;
}

/** What the rules select of a catalog, as the editor ticks it. */
export function choicesOf(streams: readonly CatalogStream[], rules: readonly string[] = SELECT_ALL): StreamChoice[] {
  const selection = selectionOf(rules);
  return streams
    .filter((s) => selection.stream(s.name))
    .map((s) => {
      const chosen = s.properties.filter((p) => selection.property(s.name, p)).map((p) => p.name);
      return { stream: s.name, properties: chosen.length === s.properties.length ? 'all' : chosen };
    });
}

/**
 * The rules for what was ticked: `stream.*` for a stream taken whole, `stream.property` for each
 * property of one taken in part (a key comes with its stream anyway). A stream ticked with no
 * property left is not selected. Nothing ticked at all is a rule that matches no stream, since an
 * empty `select` would be Meltano's default, everything.
 */
export function rulesFor(choices: readonly StreamChoice[], streams: readonly CatalogStream[]): string[] {
  const known = new Map(streams.map((s) => [s.name, s]));
  const rules: string[] = [];
  for (const choice of choices) {
    const stream = known.get(choice.stream);
    if (!stream) continue;
    const name = literalPattern(stream.name);
    if (choice.properties === 'all') {
      rules.push(`${name}.*`);
      continue;
    }
    const wanted = new Set(choice.properties);
    const chosen = stream.properties.filter((p) => wanted.has(p.name) && !p.automatic);
    if (chosen.length === stream.properties.filter((p) => !p.automatic).length) rules.push(`${name}.*`);
    else if (chosen.length > 0) rules.push(...chosen.map((p) => `${name}.${literalPattern(p.name)}`));
  }
  return rules.length > 0 ? rules : [NOTHING_SELECTED];
}

/** A rule no stream name matches (names are never empty): the selection of nothing. */
export const NOTHING_SELECTED = '!*.*';

type Metadata = { breadcrumb: string[]; metadata: Record<string, unknown> };

/**
 * The catalog a tap runs with, as Meltano makes it from its discovery: each stream and each of its
 * top-level properties marked `selected` by the rules (a key stays in). The rest of the catalog is
 * the tap's own and is kept as it was. What is not a catalog is returned as it is.
 */
export function withSelection(catalog: unknown, rules: readonly string[]): unknown {
  const parsed = catalogStreams(catalog);
  if (!parsed.ok) return catalog;
  const selection = selectionOf(rules);
  const byName = new Map(parsed.streams.map((s) => [s.name, s]));
  const entries = (catalog as { streams: Array<Record<string, unknown>> }).streams;
  return {
    ...(catalog as object),
    streams: entries.map((entry) => {
      const stream = byName.get(String(entry.tap_stream_id ?? entry.stream))!;
      const selected = selection.stream(stream.name);
      const metadata = (Array.isArray(entry.metadata) ? (entry.metadata as Metadata[]) : []).filter((m) => Array.isArray(m?.breadcrumb));
      const mark = (breadcrumb: string[], value: boolean): Metadata => {
        const old = metadata.find((m) => m.breadcrumb.length === breadcrumb.length && m.breadcrumb.every((b, i) => b === breadcrumb[i]));
        return { breadcrumb, metadata: { ...(old?.metadata ?? {}), selected: value } };
      };
      const marked = [mark([], selected), ...stream.properties.map((p) => mark(['properties', p.name], selection.property(stream.name, p)))];
      const rest = metadata.filter((m) => !(m.breadcrumb.length === 0 || (m.breadcrumb.length === 2 && m.breadcrumb[0] === 'properties')));
      return { ...entry, metadata: [...marked, ...rest] };
    }),
  };
}
