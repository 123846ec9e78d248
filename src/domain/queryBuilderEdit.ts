import {
  DEFAULT_LIMIT,
  defaultAlias,
  emptyQuery,
  normaliseQuery,
  sameQuery,
  sameRef,
  writeQuery,
  type ColumnRef,
  type QueryAggregate,
  type QueryFilter,
  type QueryJoin,
  type QuerySort,
  type QueryState,
} from './queryBuilder';
import { readQuery } from './queryBuilderRead';

// The query builder's edits (issue 38): each pick in the builder is one edit of the dataset's SQL.
// The SQL is read, the edit applied, and the state written again; SQL the builder cannot read
// comes back as it is, and an edit that changes nothing keeps the analyst's own spacing. Pure.

/** How the dataset editor shows the query: picked in the builder, or typed as SQL. Both keep the SQL. */
export const QUERY_MODES = ['build', 'sql'] as const;
export type QueryMode = (typeof QUERY_MODES)[number];

/**
 * One pick in the builder. `index` places a filter, aggregate or sort: an existing one is replaced
 * (null removes it), the list's length adds one.
 */
export type QueryEdit =
  | { readonly type: 'table'; readonly table: string }
  | { readonly type: 'columns'; readonly columns: readonly ColumnRef[] }
  | { readonly type: 'join'; readonly join: QueryJoin }
  | { readonly type: 'removeJoin'; readonly table: string }
  | { readonly type: 'filter'; readonly index: number; readonly filter: QueryFilter | null }
  | { readonly type: 'groupBy'; readonly columns: readonly ColumnRef[] }
  | { readonly type: 'aggregate'; readonly index: number; readonly aggregate: QueryAggregate | null }
  | { readonly type: 'sort'; readonly index: number; readonly sort: QuerySort | null }
  | { readonly type: 'limit'; readonly limit: number | null };

/** A list with the item at `index` replaced, removed (null) or, at the list's length, added. */
function placed<T>(list: readonly T[], index: number, item: T | null): readonly T[] | null {
  if (!Number.isInteger(index) || index < 0 || index > list.length || (index === list.length && item === null)) return null;
  if (item === null) return list.filter((_, i) => i !== index);
  return index === list.length ? [...list, item] : list.map((old, i) => (i === index ? item : old));
}

function editAggregate(state: QueryState, index: number, aggregate: QueryAggregate | null): QueryState {
  const old = state.aggregates[index];
  // a name the builder gave follows the aggregate it names ('row_count' becomes 'sum_amount')
  const follows = old !== undefined && aggregate !== null && aggregate.alias === old.alias && old.alias === defaultAlias(old.fn, old.column) && (aggregate.fn !== old.fn || !sameNullableRef(aggregate.column, old.column));
  const aggregates = placed(state.aggregates, index, aggregate === null ? null : follows ? { ...aggregate, alias: '' } : aggregate);
  if (aggregates === null) return state;
  // sorts follow an aggregate by its place: a removed one takes its sorts with it
  const sort =
    aggregate !== null
      ? state.sort
      : state.sort.flatMap((item): QuerySort[] => {
          if (item.key.kind !== 'aggregate') return [item];
          if (item.key.index === index) return [];
          return [item.key.index > index ? { ...item, key: { kind: 'aggregate', index: item.key.index - 1 } } : item];
        });
  return { ...state, aggregates, sort };
}

const sameNullableRef = (a: ColumnRef | null, b: ColumnRef | null): boolean => (a === null || b === null ? a === b : sameRef(a, b));

/** The state after one edit; null while no table is picked and the edit is not a table. */
export function editQuery(state: QueryState | null, edit: QueryEdit): QueryState | null {
  if (edit.type === 'table') {
    if (state !== null && state.table === edit.table) return state;
    // another table starts over: the old one's columns mean nothing there
    return { ...emptyQuery(edit.table), limit: state === null ? DEFAULT_LIMIT : state.limit };
  }
  if (state === null) return null;
  switch (edit.type) {
    case 'columns':
      return { ...state, columns: edit.columns };
    case 'join':
      return { ...state, joins: [...state.joins, edit.join] };
    case 'removeJoin':
      // what was read through it goes with it (normaliseQuery drops columns of tables not joined)
      return { ...state, joins: state.joins.filter((join) => join.table !== edit.table) };
    case 'filter': {
      const filters = placed(state.filters, edit.index, edit.filter);
      return filters === null ? state : { ...state, filters };
    }
    case 'groupBy':
      return { ...state, groupBy: edit.columns };
    case 'aggregate':
      return editAggregate(state, edit.index, edit.aggregate);
    case 'sort': {
      const sort = placed(state.sort, edit.index, edit.sort);
      return sort === null ? state : { ...state, sort };
    }
    case 'limit':
      return { ...state, limit: edit.limit };
  }
}

/**
 * The SQL after one pick in the builder. SQL the builder cannot read, and an edit that changes
 * nothing the builder shows, leave the text exactly as it was.
 */
export function applyQueryEdit(sql: string, edit: QueryEdit): string {
  const read = readQuery(sql);
  if (!read.ok) return sql;
  const next = editQuery(read.state, edit);
  if (next === null) return sql;
  const normal = normaliseQuery(next);
  if (read.state === null ? normal.table === '' : sameQuery(normal, read.state)) return sql;
  return writeQuery(normal);
}

/** The mode a loaded query opens in: the builder when it reads the query, SQL otherwise (and for no query yet). */
export function initialQueryMode(sql: string): QueryMode {
  const read = readQuery(sql);
  return read.ok && read.state !== null ? 'build' : 'sql';
}
