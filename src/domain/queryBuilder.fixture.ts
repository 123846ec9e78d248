import fc from 'fast-check';
import { hostileString } from './hostile.fixture';
import { AGGREGATE_FUNCTIONS, FILTER_OPERATORS, MAX_LIMIT, type ColumnRef, type QueryState } from './queryBuilder';
import type { QueryEdit } from './queryBuilderEdit';

// Builder states for the query builder's property tests (test-only): names and values a store, an
// analyst or an attacker could bring — quotes, backslashes, semicolons, comment starts, keywords,
// parameters, NUL, lone surrogates, names past 63 bytes — arranged the way the builder arranges
// them, and also not (references to tables outside the query, repeats, bad limits).

const AWKWARD = [
  'orders', 'customers', 'status', 'amount', 'id', 'customer_id', 'row_count', 'Orders', 'SELECT', 'from', 'order', 'group', 'count', 'user',
  'a"b', '"', '""', "o'k", "'", "''", '\\', "\\'", ';', '; DROP TABLE orders; --', '--', '/*', '*/', '$1', '$$', '::text', ' ', 'x y', 'é', 'İ', '😀',
  'pg_class', 'PG_X', 'e', "E'", 'U&"x"', '\u0000', '\uD800', 'a'.repeat(64), 'é'.repeat(40),
];

/** A table or column name: awkward ones, and any text at all. */
const builderName = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...AWKWARD) }, { weight: 2, arbitrary: hostileString });

/** A value typed into a filter. */
const builderValue = fc.oneof(fc.constantFrom(...AWKWARD, '', '100', '-1', '2024-01-01', 'true'), hostileString);

const limitArb = fc.option(fc.oneof(fc.integer({ min: -3, max: 5000 }), fc.constantFrom(MAX_LIMIT, MAX_LIMIT + 1, 0, 0.5, 12.7, Number.NaN, Number.POSITIVE_INFINITY)), { nil: null });

/** Any state: names on the query's tables mostly, now and then on one outside it. */
export const builderState: fc.Arbitrary<QueryState> = fc
  .record({ table: builderName, joined: fc.array(builderName, { maxLength: 2 }), stray: builderName })
  .chain(({ table, joined, stray }) => {
    const tables = [table, ...joined];
    const ref: fc.Arbitrary<ColumnRef> = fc.record({ table: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...tables) }, { weight: 1, arbitrary: fc.constant(stray) }), column: builderName });
    const joins = joined.map((name, i) => fc.record({ table: fc.constant(name), column: fc.oneof(fc.constant('id'), builderName), from: fc.record({ table: fc.constantFrom(...tables.slice(0, i + 1)), column: builderName }) }));
    return fc.record({
      table: fc.constant(table),
      joins: joins.length === 0 ? fc.constant([]) : fc.tuple(...joins),
      columns: fc.array(ref, { maxLength: 3 }),
      filters: fc.array(fc.record({ column: ref, operator: fc.constantFrom(...FILTER_OPERATORS), value: builderValue }), { maxLength: 3 }),
      groupBy: fc.array(ref, { maxLength: 2 }),
      aggregates: fc.array(fc.record({ fn: fc.constantFrom(...AGGREGATE_FUNCTIONS), column: fc.option(ref, { nil: null }), alias: fc.oneof(fc.constant(''), builderName) }), { maxLength: 3 }),
      sort: fc.array(
        fc.record({
          key: fc.oneof(fc.record({ kind: fc.constant('column' as const), column: ref }), fc.record({ kind: fc.constant('aggregate' as const), index: fc.integer({ min: -1, max: 3 }) })),
          direction: fc.constantFrom('asc' as const, 'desc' as const),
        }),
        { maxLength: 3 },
      ),
      limit: limitArb,
    });
  });

/** A pick in the builder, as a hostile or careless view could send it. */
export const builderEdit = (tables: readonly string[]): fc.Arbitrary<QueryEdit> => {
  const table = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...tables) }, { weight: 1, arbitrary: builderName });
  const ref = fc.record({ table, column: builderName });
  const index = fc.integer({ min: -1, max: 3 });
  return fc.oneof(
    fc.record({ type: fc.constant('table' as const), table }),
    fc.record({ type: fc.constant('columns' as const), columns: fc.array(ref, { maxLength: 3 }) }),
    fc.record({ type: fc.constant('join' as const), join: fc.record({ table, column: fc.constant('id'), from: ref }) }),
    fc.record({ type: fc.constant('removeJoin' as const), table }),
    fc.record({ type: fc.constant('filter' as const), index, filter: fc.option(fc.record({ column: ref, operator: fc.constantFrom(...FILTER_OPERATORS), value: builderValue }), { nil: null }) }),
    fc.record({ type: fc.constant('groupBy' as const), columns: fc.array(ref, { maxLength: 2 }) }),
    fc.record({ type: fc.constant('aggregate' as const), index, aggregate: fc.option(fc.record({ fn: fc.constantFrom(...AGGREGATE_FUNCTIONS), column: fc.option(ref, { nil: null }), alias: fc.oneof(fc.constant(''), builderName) }), { nil: null }) }),
    fc.record({
      type: fc.constant('sort' as const),
      index,
      sort: fc.option(
        fc.record({ key: fc.oneof(fc.record({ kind: fc.constant('column' as const), column: ref }), fc.record({ kind: fc.constant('aggregate' as const), index })), direction: fc.constantFrom('asc' as const, 'desc' as const) }),
        { nil: null },
      ),
    }),
    fc.record({ type: fc.constant('limit' as const), limit: limitArb }),
  );
};
