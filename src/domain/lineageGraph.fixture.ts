import fc from 'fast-check';
import type { DatasetLineage, LineageStatus, LineageTable, TableLineage } from './lineageResources';
import { LINEAGE_STATUSES } from './lineageResources';

// Lineage resources for the graph's tests (issue 41): a readable one, and arbitrary ones whose
// every name is hostile to mermaid (quotes, brackets, arrows, comments, click, HTML, newlines).

export function lineageTable(name: string, overrides: Partial<LineageTable> = {}): LineageTable {
  return {
    name,
    status: 'fresh',
    exists: true,
    columns: ['id', 'amount'],
    loaded: '2026-03-01T10:00:00.000Z',
    rows: 3,
    stream: name,
    pipeline: { id: 'p1', name: 'Demo sales data' },
    loadedBy: { id: 'j1', status: 'COMPLETE' },
    latestRun: { id: 'j1', status: 'COMPLETE' },
    extractors: [{ name: 'tap-demo', plugin: 'tap-demo' }],
    _links: {},
    ...overrides,
  };
}

export const DATASET_LINEAGE: DatasetLineage = {
  datasetId: 'ds1',
  title: 'Top Customers by Revenue',
  status: 'fresh',
  columns: [
    { name: 'customer', kind: 'direct', status: 'fresh', sources: [{ table: 'customers', column: 'name', kind: 'direct' }], unresolved: [] },
    { name: 'revenue', kind: 'aggregation', status: 'fresh', sources: [{ table: 'orders', column: 'amount', kind: 'aggregation' }], unresolved: [] },
  ],
  tables: [lineageTable('customers'), lineageTable('orders')],
  dashboards: [{ title: 'Sales', status: 'fresh', datasets: ['top-customers'] }],
  _links: {},
};

/** Names no diagram text may be broken by. */
const HOSTILE = ['"', '"]', '["x"]', '-->', '==>', '%%', '%%{init: {}}%%', 'click', 'click t0 call alert()', '<b>', '<img src=x onerror=alert(1)>', '\n', '\r\n', '#quot;', '#35;', '&amp;', '|', '(', ')]', '{', '`', ';', 'end', 'subgraph', 'style', ':', 'classDef x fill:#f00;', '\u2028', '😀'];
const hostileName = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
  fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 5 }).map((parts) => parts.join('')),
);
const status = fc.constantFrom<LineageStatus>(...LINEAGE_STATUSES);
const run = fc.option(fc.record({ id: fc.constantFrom('j1', 'j2'), status: fc.constantFrom('COMPLETE', 'ERROR', 'STOPPED') }), { nil: null });

const tableArb = fc.record({
  name: hostileName,
  status,
  stream: fc.option(hostileName, { nil: null }),
  pipeline: fc.option(fc.record({ id: fc.constantFrom('p1', 'p2'), name: hostileName }), { nil: null }),
  loadedBy: run,
  latestRun: run,
  extractors: fc.array(fc.record({ name: hostileName, plugin: hostileName }), { maxLength: 2 }),
});

/** A dataset's lineage with hostile names everywhere, tables named uniquely (as a store has them). */
export const datasetLineageArb: fc.Arbitrary<DatasetLineage> = fc
  .record({
    title: hostileName,
    status,
    tables: fc.uniqueArray(tableArb, { selector: (t) => t.name, maxLength: 4 }),
    columns: fc.array(fc.record({ name: hostileName, status, column: hostileName, pick: fc.nat(), kind: fc.constantFrom('direct' as const, 'transformation' as const, 'aggregation' as const) }), { maxLength: 4 }),
    dashboards: fc.array(fc.record({ title: hostileName, status }), { maxLength: 2 }),
  })
  .map(({ title, status, tables, columns, dashboards }) => ({
    datasetId: 'ds1',
    title,
    status,
    tables: tables.map((t) => lineageTable(t.name, t)),
    columns: columns.map((c) => ({
      name: c.name,
      kind: c.kind,
      status: c.status,
      // a source in one of the tables, or (no tables) in one the lineage does not hold
      sources: [{ table: tables.length === 0 ? 'ghost' : tables[c.pick % tables.length]!.name, column: c.column, kind: c.kind }],
      unresolved: [],
    })),
    dashboards: dashboards.map((d) => ({ ...d, datasets: ['alias'] })),
    _links: {},
  }));

/** A store table's lineage with hostile names everywhere. */
export const tableLineageArb: fc.Arbitrary<TableLineage> = fc
  .record({
    table: tableArb,
    datasets: fc.uniqueArray(fc.record({ id: fc.uuid(), title: hostileName, alias: fc.option(hostileName, { nil: null }), status }), { selector: (d) => d.alias ?? d.id, maxLength: 3 }),
    dashboards: fc.array(fc.record({ title: hostileName, status, pick: fc.nat() }), { maxLength: 2 }),
  })
  .map(({ table, datasets, dashboards }) => ({
    name: table.name,
    status: table.status,
    table: lineageTable(table.name, table),
    datasets: datasets.map((d) => ({ ...d, tables: [table.name], _links: {} })),
    dashboards: dashboards.map((d) => ({ title: d.title, status: d.status, datasets: datasets.length === 0 ? [] : [datasets[d.pick % datasets.length]!.alias ?? datasets[d.pick % datasets.length]!.id] })),
    _links: {},
  }));
