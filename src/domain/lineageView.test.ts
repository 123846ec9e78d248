import { describe, expect, it } from 'vitest';
import type { DatasetLineage } from './lineageResources';
import { columnSummary, inputLine, LINEAGE_TEXTS, sourceTrails } from './lineageView';

const LINEAGE: Pick<DatasetLineage, 'tables'> = {
  tables: [
    {
      name: 'orders',
      status: 'failed',
      exists: true,
      columns: ['id', 'amount'],
      loaded: '2026-03-01T10:00:00.000Z',
      rows: 3,
      stream: 'orders',
      pipeline: { id: 'p', name: 'Demo shop' },
      loadedBy: { id: 'j1', status: 'COMPLETE', endTime: '2026-03-01T10:00:05.000Z' },
      latestRun: { id: 'j2', status: 'ERROR', endTime: '2026-03-02T10:00:00.000Z' },
      extractors: [{ name: 'tap-demo', plugin: 'tap-demo' }, { name: 'shop', plugin: 'tap-postgres' }],
    },
  ],
};

describe('sourceTrails', () => {
  it('follows a source to its table, the run that loaded it, a later failed run and its extractors', () => {
    expect(sourceTrails(LINEAGE, { sources: [{ table: 'orders', column: 'amount', kind: 'aggregation' }] })).toEqual([
      {
        reference: 'orders.amount',
        kind: 'Aggregated',
        status: 'failed',
        statusText: 'Last run failed',
        pipeline: 'Demo shop',
        run: { status: 'COMPLETE', ended: '2026-03-01T10:00:05.000Z' },
        latestRun: { status: 'ERROR', ended: '2026-03-02T10:00:00.000Z' },
        stream: 'orders',
        sources: ['tap-demo', 'tap-postgres (shop)'],
        model: null,
      },
    ]);
  });

  it('follows a table a dbt model built to the model, its run and each table it read', () => {
    const built: Pick<DatasetLineage, 'tables'> = {
      tables: [
        { ...LINEAGE.tables[0]!, name: 'counted', stream: null, extractors: [], latestRun: null, status: 'fresh', pipeline: { id: 'p2', name: 'Transform' }, model: { name: 'counted', inputs: ['counts', 'gone'], run: { id: 'j1', status: 'COMPLETE' } } },
        { ...LINEAGE.tables[0]!, name: 'counts', stream: 'counts', upstream: true },
      ],
    };
    const [trail] = sourceTrails(built, { sources: [{ table: 'counted', column: 'n', kind: 'direct' }] });
    expect(trail).toMatchObject({
      pipeline: 'Transform',
      stream: null,
      sources: [],
      model: { text: 'Built by the dbt model counted from counts, gone', inputs: ['counts: loaded by the pipeline Demo shop, stream counts (Last run failed)', 'gone: Table not found'] },
    });
    expect(LINEAGE_TEXTS.ranBy(trail!.model !== null)).toBe('Run by the pipeline');
  });

  it('marks a source whose table the lineage does not hold as missing, with no run', () => {
    const [trail] = sourceTrails(LINEAGE, { sources: [{ table: 'ghost', column: 'x', kind: 'direct' }] });
    expect(trail).toMatchObject({ reference: 'ghost.x', status: 'missing', pipeline: null, run: null, latestRun: null, sources: [] });
  });
});

describe('columnSummary', () => {
  it('says how and from what, and when nothing is read', () => {
    expect(columnSummary({ kind: 'aggregation', sources: [{ table: 'orders', column: 'amount', kind: 'aggregation' }], unresolved: [] })).toBe('Aggregated from orders.amount');
    expect(
      columnSummary({
        kind: 'transformation',
        sources: [
          { table: 'a', column: 'x', kind: 'direct' },
          { table: 'b', column: 'y', kind: 'transformation' },
        ],
        unresolved: [],
      }),
    ).toBe('Transformed from a.x and 1 more');
    expect(columnSummary({ kind: null, sources: [], unresolved: [] })).toBe(LINEAGE_TEXTS.noSources);
    expect(columnSummary({ kind: null, sources: [], unresolved: ['m.x'] })).toBe('m.x could not be traced to one table');
  });
});

describe('inputLine', () => {
  const table = LINEAGE.tables[0]!;
  const tables: Pick<DatasetLineage, 'tables'> = {
    tables: [
      { ...table, name: 'mid', status: 'fresh', model: { name: 'mid_model', inputs: ['raw', 'other'] } },
      { ...table, name: 'bare', status: 'fresh', model: { name: 'bare_model', inputs: [] } },
      { ...table, name: 'loose', status: 'unloaded', pipeline: null },
      { ...table, name: 'nostream', status: 'stale', stream: null },
    ],
  };

  it('says what made each input: a model, no pipeline, a pipeline with or without its stream, or nothing', () => {
    expect(inputLine(tables, 'mid')).toBe('mid: built by the dbt model mid_model from raw, other (Fresh)');
    expect(inputLine(tables, 'bare')).toBe('bare: built by the dbt model bare_model (Fresh)');
    expect(inputLine(tables, 'loose')).toBe('loose: Not loaded by a pipeline');
    expect(inputLine(tables, 'nostream')).toBe('nostream: loaded by the pipeline Demo shop (Stale)');
    expect(inputLine(LINEAGE, 'orders')).toBe('orders: loaded by the pipeline Demo shop, stream orders (Last run failed)');
    expect(inputLine(tables, 'ghost')).toBe('ghost: Table not found');
  });
});

describe('sourceTrails, run by run', () => {
  const table = LINEAGE.tables[0]!;
  const trail = (overrides: Partial<typeof table>) => sourceTrails({ tables: [{ ...table, ...overrides }] }, { sources: [{ table: 'orders', column: 'id', kind: 'direct' }] })[0];

  it('shows no latest run when it is the run that loaded the table', () => {
    expect(trail({ latestRun: { id: 'j1', status: 'COMPLETE', endTime: '2026-03-01T10:00:05.000Z' } })?.latestRun).toBeNull();
  });

  it('shows the latest run of a table no run loaded, and no pipeline for a table without one', () => {
    expect(trail({ loadedBy: null, pipeline: null, status: 'unloaded', stream: null, extractors: [] })).toEqual({
      reference: 'orders.id',
      kind: 'Copied',
      status: 'unloaded',
      statusText: 'Not loaded by a pipeline',
      pipeline: null,
      run: null,
      latestRun: { status: 'ERROR', ended: '2026-03-02T10:00:00.000Z' },
      stream: null,
      sources: [],
      model: null,
    });
  });
});

describe('columnSummary of several unplaced references', () => {
  it('lists them with commas', () => {
    expect(columnSummary({ kind: null, sources: [], unresolved: ['m.x', 'y'] })).toBe('m.x, y could not be traced to one table');
  });
});
