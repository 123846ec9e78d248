import { wellFormed } from './plainText';

// Questions without SQL (issue 38): a dataset's query as a few choices an analyst makes — a store
// table, the tables joined to it along obvious keys, columns, filters, groups with aggregates, a
// sort and a limit — and those choices written as SQL. Every name is a quoted identifier and every
// value a string literal, so nothing typed into the builder can become SQL of its own. Tables are
// named without a schema: the query guard refuses a schema, and the runner reads the store's
// schema first (search_path). Reading SQL back is queryBuilderRead.ts, edits queryBuilderEdit.ts,
// what the view shows queryBuilderView.ts. Pure: state in, text out.

/** A column of a table of the query: the base table or a joined one. */
export interface ColumnRef {
  readonly table: string;
  readonly column: string;
}

/** The filters the builder offers, as the analyst reads them. */
export const FILTER_OPERATORS = ['=', '≠', '<', '≤', '>', '≥', 'contains', 'starts with', 'is empty', 'is not empty'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operators that compare with a value; 'is empty' and 'is not empty' take none. */
export const takesValue = (operator: FilterOperator): boolean => operator !== 'is empty' && operator !== 'is not empty';

export interface QueryFilter {
  readonly column: ColumnRef;
  readonly operator: FilterOperator;
  /** the text typed; written as a string literal, which PostgreSQL reads as the column's type */
  readonly value: string;
}

export const AGGREGATE_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max', 'distinct count'] as const;
export type AggregateFunction = (typeof AGGREGATE_FUNCTIONS)[number];

export interface QueryAggregate {
  readonly fn: AggregateFunction;
  /** null for count, which counts rows */
  readonly column: ColumnRef | null;
  /** the result column's name */
  readonly alias: string;
}

/** What a sort follows: a column, or an aggregate by its place in the list (its name may change). */
export type SortKey = { readonly kind: 'column'; readonly column: ColumnRef } | { readonly kind: 'aggregate'; readonly index: number };

export interface QuerySort {
  readonly key: SortKey;
  readonly direction: 'asc' | 'desc';
}

/** `LEFT JOIN table ON table.column = from.table.from.column`: every row of the tables before it is kept. */
export interface QueryJoin {
  readonly table: string;
  readonly column: string;
  readonly from: ColumnRef;
}

export interface QueryState {
  /** a store table, by its bare name */
  readonly table: string;
  readonly joins: readonly QueryJoin[];
  /** the columns shown when the query is not summarised; none shows every column (*) */
  readonly columns: readonly ColumnRef[];
  /** all must hold (AND) */
  readonly filters: readonly QueryFilter[];
  /** with aggregates or groups the query is summarised: the result is the groups, then the aggregates */
  readonly groupBy: readonly ColumnRef[];
  readonly aggregates: readonly QueryAggregate[];
  readonly sort: readonly QuerySort[];
  /** at most this many rows; null for no limit */
  readonly limit: number | null;
}

/** The largest LIMIT the builder writes or reads. */
export const MAX_LIMIT = 1_000_000_000;

/** The rows a query started on a table reads (as the first chart's raw rows do). */
export const DEFAULT_LIMIT = 100;

/** PostgreSQL keeps the first 63 bytes of a name (NAMEDATALEN - 1). */
const MAX_NAME_BYTES = 63;

export const emptyQuery = (table: string): QueryState => ({ table, joins: [], columns: [], filters: [], groupBy: [], aggregates: [], sort: [], limit: null });

/** Whether the result is groups and aggregates rather than rows. */
export const isSummarised = (state: Pick<QueryState, 'groupBy' | 'aggregates'>): boolean => state.groupBy.length > 0 || state.aggregates.length > 0;

/** The query's tables: its own, then the joined ones in order. */
export const queryTables = (state: Pick<QueryState, 'table' | 'joins'>): string[] => [state.table, ...state.joins.map((join) => join.table)];

export const sameRef = (a: ColumnRef, b: ColumnRef): boolean => a.table === b.table && a.column === b.column;

/** A name cut to the bytes PostgreSQL keeps, never inside a character (as its pg_mbcliplen). */
export function truncateName(name: string, maxBytes = MAX_NAME_BYTES): string {
  let bytes = 0;
  let kept = '';
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    // a lone surrogate travels as U+FFFD: three bytes
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    kept += char;
  }
  return kept;
}

const NUL = '\u0000';
/**
 * Text as PostgreSQL can hold it: no NUL character (dropped), and a lone surrogate, which has no
 * UTF-8 form, as U+FFFD (the server would read it so, and the guard refuses a query whose text
 * changes on the way).
 */
const clean = (text: string): string => wellFormed(text.includes(NUL) ? text.replaceAll(NUL, '') : text);
const cleanRef = (ref: ColumnRef): ColumnRef => ({ table: clean(ref.table), column: clean(ref.column) });

/** The name an aggregate gets until the analyst names it ('row_count', 'sum_amount', 'distinct_customer_id'). */
export function defaultAlias(fn: AggregateFunction, column: ColumnRef | null): string {
  if (fn === 'count' || column === null) return 'row_count';
  return truncateName(`${fn === 'distinct count' ? 'distinct' : fn}_${column.column}`);
}

/** `base`, or `base_2`, `base_3`… cut to fit, whichever is not taken yet. */
function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `_${String(n)}`;
    const candidate = `${truncateName(base, MAX_NAME_BYTES - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function uniqueRefs(refs: readonly ColumnRef[], valid: (ref: ColumnRef) => boolean): ColumnRef[] {
  const kept: ColumnRef[] = [];
  for (const raw of refs) {
    const ref = cleanRef(raw);
    if (valid(ref) && !kept.some((other) => sameRef(other, ref))) kept.push(ref);
  }
  return kept;
}

const sortKeyText = (key: SortKey): string => (key.kind === 'column' ? JSON.stringify(['column', key.column.table, key.column.column]) : JSON.stringify(['aggregate', key.index]));

/**
 * The state as the builder writes it. Whatever was picked, typed or read, this is a query the
 * builder can write and read back as it is: names without NUL, joins onto tables already in the
 * query (each table once), references to those tables only, no repeats, aggregates with distinct
 * result names of at most 63 bytes, no columns beside a summary, sorts a summary can follow, and a
 * limit from 1 to MAX_LIMIT. A state with no table is empty.
 */
export function normaliseQuery(state: QueryState): QueryState {
  const table = clean(state.table);
  if (table === '') return emptyQuery('');
  const tables = [table];
  const joins: QueryJoin[] = [];
  for (const join of state.joins) {
    const joined = clean(join.table);
    const column = clean(join.column);
    const from = cleanRef(join.from);
    if (joined === '' || column === '' || from.column === '' || tables.includes(joined) || !tables.includes(from.table)) continue;
    joins.push({ table: joined, column, from });
    tables.push(joined);
  }
  const inQuery = (ref: ColumnRef) => ref.column !== '' && tables.includes(ref.table);
  const groupBy = uniqueRefs(state.groupBy, inQuery);

  // the result's names: the groups' columns, then each aggregate's own
  const taken = new Set(groupBy.map((ref) => truncateName(ref.column)));
  const aggregates: QueryAggregate[] = [];
  const placeOf = new Map<number, number>();
  state.aggregates.forEach((aggregate, index) => {
    if (!(AGGREGATE_FUNCTIONS as readonly string[]).includes(aggregate.fn)) return;
    const column = aggregate.fn === 'count' || aggregate.column === null ? null : cleanRef(aggregate.column);
    if (aggregate.fn !== 'count' && (column === null || !inQuery(column))) return;
    const alias = uniqueName(truncateName(clean(aggregate.alias)) || defaultAlias(aggregate.fn, column), taken);
    taken.add(alias);
    placeOf.set(index, aggregates.length);
    aggregates.push({ fn: aggregate.fn, column, alias });
  });
  const summarised = groupBy.length > 0 || aggregates.length > 0;
  const columns = summarised ? [] : uniqueRefs(state.columns, inQuery);

  const filters = state.filters.flatMap((filter): QueryFilter[] => {
    const column = cleanRef(filter.column);
    if (!inQuery(column) || !(FILTER_OPERATORS as readonly string[]).includes(filter.operator)) return [];
    return [{ column, operator: filter.operator, value: takesValue(filter.operator) ? clean(filter.value) : '' }];
  });

  const sort: QuerySort[] = [];
  const sorted = new Set<string>();
  for (const item of state.sort) {
    let key: SortKey | null = null;
    if (item.key.kind === 'column') {
      const column = cleanRef(item.key.column);
      // a summary has its groups to sort by, not the rows' other columns
      if (inQuery(column) && (!summarised || groupBy.some((ref) => sameRef(ref, column)))) key = { kind: 'column', column };
    } else {
      const index = placeOf.get(item.key.index);
      if (index !== undefined) key = { kind: 'aggregate', index };
    }
    if (key === null || sorted.has(sortKeyText(key))) continue;
    sorted.add(sortKeyText(key));
    sort.push({ key, direction: item.direction === 'desc' ? 'desc' : 'asc' });
  }

  const limit = typeof state.limit === 'number' && Number.isFinite(state.limit) ? Math.trunc(state.limit) : null;
  return { table, joins, columns, filters, groupBy, aggregates, sort, limit: limit !== null && limit >= 1 && limit <= MAX_LIMIT ? limit : null };
}

/** Plain data compared by value (key order aside). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

export const sameQuery = (a: QueryState, b: QueryState): boolean => sameValue(a, b);

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(NUL) || wellFormed(value) !== value;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(hasNul);
}

const refText = (ref: ColumnRef): string => `${ref.table}.${ref.column}`;

/**
 * Why the builder would write this state differently, or null when it writes it as it is. The
 * reader reports SQL whose state this is as unreadable, so the builder never changes what a
 * query means behind the analyst's back.
 */
export function queryProblem(state: QueryState): string | null {
  const normal = normaliseQuery(state);
  if (sameQuery(normal, state)) return null;
  if (hasNul(state)) return 'It contains a NUL character or half a character, which PostgreSQL text cannot hold.';
  const tables = [state.table];
  for (const join of state.joins) {
    if (tables.includes(join.table)) return `It joins ${join.table} twice.`;
    if (!tables.includes(join.from.table)) return `It joins ${join.table} on ${join.from.table}, which is not joined before it.`;
    tables.push(join.table);
  }
  const twice = (refs: readonly ColumnRef[]) => refs.find((ref, i) => refs.findIndex((other) => sameRef(other, ref)) !== i);
  const group = twice(state.groupBy);
  if (group !== undefined) return `It groups by ${refText(group)} twice.`;
  const shown = twice(state.columns);
  if (shown !== undefined) return `It shows ${refText(shown)} twice.`;
  const names = state.groupBy.map((ref) => ref.column);
  for (const aggregate of state.aggregates) {
    if (truncateName(aggregate.alias) !== aggregate.alias) return `The name ${aggregate.alias.slice(0, 40)}… is longer than PostgreSQL's ${String(MAX_NAME_BYTES)} bytes.`;
    if (names.includes(aggregate.alias)) return `Two result columns are both named ${aggregate.alias}.`;
    names.push(aggregate.alias);
  }
  const grouped = isSummarised(state);
  const seen = new Set<string>();
  for (const item of state.sort) {
    if (seen.has(sortKeyText(item.key))) return 'It sorts by the same thing twice.';
    seen.add(sortKeyText(item.key));
    const { key } = item;
    if (key.kind === 'column' && grouped && !state.groupBy.some((ref) => sameRef(ref, key.column))) return `It sorts by ${refText(key.column)}, which it does not group by.`;
  }
  if (state.limit !== normal.limit) return `Its limit is beyond what the builder offers (1 to ${MAX_LIMIT.toLocaleString('en-GB')}).`;
  return 'The builder would write it differently.';
}

/** A name as SQL must write it to mean exactly this name: always quoted, quotes doubled. */
export const quoteName = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * A value as a string literal. With a backslash it is an escape string (E'…'), which reads the
 * same whatever standard_conforming_strings says; otherwise a plain one. Quotes are doubled.
 */
export function quoteText(value: string): string {
  const quoted = value.replaceAll("'", "''");
  return value.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

const SQL_OPERATORS: Readonly<Partial<Record<FilterOperator, string>>> = { '=': '=', '≠': '<>', '<': '<', '≤': '<=', '>': '>', '≥': '>=' };

function conditionText(filter: QueryFilter, ref: (r: ColumnRef) => string): string {
  const column = ref(filter.column);
  const value = quoteText(filter.value);
  switch (filter.operator) {
    // both ignore case, as Metabase's do; strpos and starts_with read no pattern characters
    case 'contains':
      return `strpos(lower(${column}::text), lower(${value})) > 0`;
    case 'starts with':
      return `starts_with(lower(${column}::text), lower(${value}))`;
    // empty: no value at all, or empty text
    case 'is empty':
      return `coalesce(${column}::text, '') = ''`;
    case 'is not empty':
      return `coalesce(${column}::text, '') <> ''`;
    default:
      return `${column} ${SQL_OPERATORS[filter.operator] ?? '='} ${value}`;
  }
}

function aggregateText(aggregate: QueryAggregate, ref: (r: ColumnRef) => string): string {
  const alias = ` AS ${quoteName(aggregate.alias)}`;
  if (aggregate.fn === 'count' || aggregate.column === null) return `count(*)${alias}`;
  if (aggregate.fn === 'distinct count') return `count(DISTINCT ${ref(aggregate.column)})${alias}`;
  return `${aggregate.fn}(${ref(aggregate.column)})${alias}`;
}

/**
 * The SQL of a state (normalised first), one clause a line; '' when no table is picked. Columns
 * are named with their table once a table is joined.
 */
export function writeQuery(input: QueryState): string {
  const state = normaliseQuery(input);
  if (state.table === '') return '';
  const joined = state.joins.length > 0;
  const ref = (r: ColumnRef) => (joined ? `${quoteName(r.table)}.${quoteName(r.column)}` : quoteName(r.column));
  const summarised = isSummarised(state);
  const items = summarised ? [...state.groupBy.map(ref), ...state.aggregates.map((a) => aggregateText(a, ref))] : state.columns.length > 0 ? state.columns.map(ref) : ['*'];
  const lines = [`SELECT ${items.join(', ')}`, `FROM ${quoteName(state.table)}`];
  for (const join of state.joins) {
    lines.push(`LEFT JOIN ${quoteName(join.table)} ON ${quoteName(join.table)}.${quoteName(join.column)} = ${quoteName(join.from.table)}.${quoteName(join.from.column)}`);
  }
  if (state.filters.length > 0) lines.push(`WHERE ${state.filters.map((f) => conditionText(f, ref)).join('\n  AND ')}`);
  if (state.groupBy.length > 0) lines.push(`GROUP BY ${state.groupBy.map(ref).join(', ')}`);
  if (state.sort.length > 0) {
    const keys = state.sort.map(({ key, direction }) => `${key.kind === 'column' ? ref(key.column) : quoteName(state.aggregates[key.index]?.alias ?? '')} ${direction === 'desc' ? 'DESC' : 'ASC'}`);
    lines.push(`ORDER BY ${keys.join(', ')}`);
  }
  if (state.limit !== null) lines.push(`LIMIT ${String(state.limit)}`);
  return lines.join('\n');
}
