import {
  isSummarised,
  queryTables,
  sameRef,
  takesValue,
  type AggregateFunction,
  type ColumnRef,
  type FilterOperator,
  type QueryAggregate,
  type QueryJoin,
  type QueryState,
  type SortKey,
} from './queryBuilder';
import { readQuery } from './queryBuilderRead';

// What the query builder shows (issue 38): the store's tables to start from, the columns of the
// tables in the query, the joins along obvious keys (`<x>_id` → table x's `id`), what a sort may
// follow and what still needs saying — or why it cannot read the SQL. Pure: the SQL and the
// store's tables in, a description for the view out.

/** A store table as the builder needs it (the store browser's tables fit). */
export interface BuilderTable {
  readonly name: string;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
}

export interface ColumnChoice {
  /** the option's value: refKey(ref) */
  readonly key: string;
  readonly ref: ColumnRef;
  /** `column`, or `table.column` once a table is joined */
  readonly label: string;
  /** the column's type as PostgreSQL names it; null for a column the store does not list */
  readonly type: string | null;
  readonly numeric: boolean;
}

interface JoinChoice {
  readonly key: string;
  readonly join: QueryJoin;
  readonly label: string;
}

export interface SortChoice {
  readonly key: string;
  readonly sortKey: SortKey;
  readonly label: string;
}

type QueryBuilderView =
  | { readonly ok: false; readonly problem: string }
  | {
      readonly ok: true;
      /** null until a table is picked */
      readonly state: QueryState | null;
      /** the tables a query can start from */
      readonly tables: readonly string[];
      /** the columns of the query's tables */
      readonly columns: readonly ColumnChoice[];
      readonly joinChoices: readonly JoinChoice[];
      /** the joins made, in the builder's words */
      readonly joined: readonly { readonly table: string; readonly label: string }[];
      readonly summarised: boolean;
      readonly sortChoices: readonly SortChoice[];
      /** what still stops the query from answering as meant */
      readonly hints: readonly string[];
    };

export const OPERATOR_LABELS: Readonly<Record<FilterOperator, string>> = {
  '=': '= is',
  '≠': '≠ is not',
  '<': '< less than',
  '≤': '≤ at most',
  '>': '> more than',
  '≥': '≥ at least',
  contains: 'contains',
  'starts with': 'starts with',
  'is empty': 'is empty',
  'is not empty': 'is not empty',
};

export const AGGREGATE_LABELS: Readonly<Record<AggregateFunction, string>> = {
  count: 'Count of rows',
  sum: 'Sum of',
  avg: 'Average of',
  min: 'Minimum of',
  max: 'Maximum of',
  'distinct count': 'Distinct values of',
};

/** Aggregates that add numbers up: offered only columns of numbers. */
const NUMERIC_AGGREGATES: readonly AggregateFunction[] = ['sum', 'avg'];

const NUMERIC_TYPE = /^(smallint|integer|bigint|int[248]?|numeric|decimal|real|double precision|float[48]?|money)\b/i;
export const isNumericType = (type: string | null): boolean => type !== null && NUMERIC_TYPE.test(type.trim());

/** The columns an aggregate may read: numbers for a sum or an average (and the column it reads now), any for the rest. */
export function aggregateColumns(fn: AggregateFunction, columns: readonly ColumnChoice[], current: ColumnRef | null): ColumnChoice[] {
  return NUMERIC_AGGREGATES.includes(fn) ? columns.filter((c) => c.numeric || (current !== null && sameRef(c.ref, current))) : [...columns];
}

/**
 * The aggregate with another function: a count reads no column; the others keep the column when
 * they may read it, else take the first they may; null when none may.
 */
export function withFunction(aggregate: QueryAggregate, fn: AggregateFunction, columns: readonly ColumnChoice[]): QueryAggregate | null {
  if (fn === 'count') return { ...aggregate, fn, column: null };
  const offered = aggregateColumns(fn, columns, null);
  const column = aggregate.column !== null && offered.some((c) => sameRef(c.ref, aggregate.column!)) ? aggregate.column : (offered[0]?.ref ?? null);
  return column === null ? null : { ...aggregate, fn, column };
}

/** Tables the query guard refuses to read (the system catalogs' prefix). */
const isSystemName = (name: string): boolean => name.toLowerCase().startsWith('pg_');

/** A column as an option value, and back. */
export const refKey = (ref: ColumnRef): string => JSON.stringify([ref.table, ref.column]);
export function refOfKey(key: string): ColumnRef | null {
  try {
    const value: unknown = JSON.parse(key);
    return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' ? { table: value[0], column: value[1] } : null;
  } catch {
    return null;
  }
}
export const sortKeyOf = (key: SortKey): string => (key.kind === 'aggregate' ? `aggregate:${String(key.index)}` : `column:${refKey(key.column)}`);

/** The singular and plural a `<x>_id` column may name its table by: customer → customer, customers; category → categories. */
function tableForms(stem: string): string[] {
  const forms = [stem, `${stem}s`, `${stem}es`];
  if (stem.endsWith('y')) forms.push(`${stem.slice(0, -1)}ies`);
  return forms;
}

/**
 * Joins along obvious keys from the tables in the query: a column `<x>_id` to the `id` of a table
 * named x (singular or plural, with or without a pipeline's prefix) that is not in the query yet.
 */
export function joinChoices(state: QueryState, tables: readonly BuilderTable[]): JoinChoice[] {
  const inQuery = queryTables(state);
  const choices: JoinChoice[] = [];
  for (const from of inQuery) {
    const source = tables.find((t) => t.name === from);
    for (const column of source?.columns ?? []) {
      const stem = /^(.+)_id$/i.exec(column.name)?.[1]?.toLowerCase();
      if (stem === undefined) continue;
      const forms = tableForms(stem);
      for (const target of tables) {
        const name = target.name.toLowerCase();
        if (inQuery.includes(target.name) || isSystemName(target.name) || !target.columns.some((c) => c.name === 'id')) continue;
        if (!forms.some((form) => name === form || name.endsWith(`_${form}`))) continue;
        const join: QueryJoin = { table: target.name, column: 'id', from: { table: from, column: column.name } };
        choices.push({ key: JSON.stringify([from, column.name, target.name]), join, label: `${target.name} on ${from}.${column.name}` });
      }
    }
  }
  return choices;
}

function columnChoices(state: QueryState, tables: readonly BuilderTable[]): ColumnChoice[] {
  const joined = state.joins.length > 0;
  const labelOf = (ref: ColumnRef) => (joined ? `${ref.table}.${ref.column}` : ref.column);
  const choices: ColumnChoice[] = [];
  const add = (ref: ColumnRef, type: string | null) => {
    if (!choices.some((choice) => sameRef(choice.ref, ref))) choices.push({ key: refKey(ref), ref, label: labelOf(ref), type, numeric: isNumericType(type) });
  };
  for (const table of queryTables(state)) for (const column of tables.find((t) => t.name === table)?.columns ?? []) add({ table, column: column.name }, column.type);
  // what the SQL names that the store does not list (yet) is still shown as picked
  const named = [
    ...state.columns,
    ...state.groupBy,
    ...state.filters.map((f) => f.column),
    ...state.aggregates.flatMap((a) => (a.column === null ? [] : [a.column])),
    ...state.sort.flatMap((s) => (s.key.kind === 'column' ? [s.key.column] : [])),
  ];
  for (const ref of named) add(ref, null);
  return choices;
}

function hintsOf(state: QueryState | null, tables: readonly BuilderTable[], columns: readonly ColumnChoice[]): string[] {
  if (state === null) return [tables.length === 0 ? 'The store has no tables yet: run a pipeline that loads into it.' : 'Pick a table to start.'];
  const hints: string[] = [];
  if (tables.length > 0) {
    for (const table of queryTables(state)) if (!tables.some((t) => t.name === table)) hints.push(`The store lists no table ${table}.`);
  }
  // rows are read by column name: two result columns of one name show as one
  const names = isSummarised(state) ? [...state.groupBy.map((ref) => ref.column), ...state.aggregates.map((a) => a.alias)] : state.columns.map((ref) => ref.column);
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  for (const name of new Set(twice)) hints.push(`Two result columns are both named ${name}: the preview shows one of them.`);
  state.filters.forEach((filter, i) => {
    if (takesValue(filter.operator) && filter.value === '') hints.push(`Filter ${String(i + 1)} compares with empty text: type a value.`);
  });
  for (const aggregate of state.aggregates) {
    if (aggregate.column !== null && NUMERIC_AGGREGATES.includes(aggregate.fn)) {
      const choice = columns.find((c) => sameRef(c.ref, aggregate.column!));
      if (choice?.type != null && !choice.numeric) hints.push(`${aggregate.alias} adds up ${choice.label}, which is not a column of numbers.`);
    }
  }
  return hints;
}

/** The builder as the view shows it, or why it cannot read the SQL. */
export function describeQueryBuilder(sql: string, tables: readonly BuilderTable[]): QueryBuilderView {
  const read = readQuery(sql);
  if (!read.ok) return read;
  const { state } = read;
  const pickable = tables.map((t) => t.name).filter((name) => !isSystemName(name));
  if (state !== null && !pickable.includes(state.table)) pickable.unshift(state.table);
  const columns = state === null ? [] : columnChoices(state, tables);
  const summarised = state !== null && isSummarised(state);
  const sortChoices: SortChoice[] =
    state === null
      ? []
      : summarised
        ? [
            ...state.groupBy.map((ref) => ({ key: sortKeyOf({ kind: 'column', column: ref }), sortKey: { kind: 'column', column: ref } as const, label: columns.find((c) => sameRef(c.ref, ref))?.label ?? ref.column })),
            ...state.aggregates.map((a, index) => ({ key: sortKeyOf({ kind: 'aggregate', index }), sortKey: { kind: 'aggregate', index } as const, label: a.alias })),
          ]
        : columns.map((c) => ({ key: sortKeyOf({ kind: 'column', column: c.ref }), sortKey: { kind: 'column', column: c.ref } as const, label: c.label }));
  return {
    ok: true,
    state,
    tables: pickable,
    columns,
    joinChoices: state === null ? [] : joinChoices(state, tables),
    joined: state === null ? [] : state.joins.map((join) => ({ table: join.table, label: `${join.table} on ${join.from.table}.${join.from.column} = ${join.table}.${join.column}` })),
    summarised,
    sortChoices,
    hints: hintsOf(state, tables, columns),
  };
}
