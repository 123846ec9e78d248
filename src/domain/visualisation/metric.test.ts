import { describe, expect, it } from 'vitest';
import { parseMetadata } from './metadata';
import { buildMetric } from './metric';
import { DEFAULT_PALETTE } from './palette';

describe('html-metric', () => {
  it('a metric shows aggregates labelled by columns, at most 10 rows, on the first palette colour', () => {
    const metadata = parseMetadata('{"palette":[[1,2,3]],"related_table":{"columns":[{"name":"region"}],"aggregates":[{"name":"total","label":"Total"}]}}');
    if (!metadata.ok) throw new Error('metadata');
    const rows = Array.from({ length: 12 }, (_, i) => ({ region: `r${i}`, total: i }));
    const metric = buildMetric(rows, metadata.metadata);
    expect(metric.rows).toHaveLength(10);
    expect(metric.total).toBe(12);
    expect(metric.rows[0]).toEqual([{ label: 'Total (r0)', value: '0', number: 0 }]);
    expect(metric.background).toEqual([1, 2, 3]);
    expect(buildMetric([{ a: 1 }], null)).toEqual({ rows: [[{ label: 'a', value: '1', number: 1 }]], total: 1, background: DEFAULT_PALETTE[0] });
  });
});

describe('metric edges (by hand)', () => {
  it('labels by every non-empty column, and gives a number only for finite numbers', () => {
    const metadata = parseMetadata('{"related_table":{"columns":[{"name":"region"},{"name":"shop"}],"aggregates":[{"name":"total","label":"Total"}]}}');
    if (!metadata.ok) throw new Error('metadata');
    expect(buildMetric([{ region: 'north', shop: 'a', total: '5' }, { region: null, shop: 'b', total: Number.NaN }], metadata.metadata).rows).toEqual([
      [{ label: 'Total (north / a)', value: '5', number: null }],
      [{ label: 'Total (b)', value: 'NaN', number: null }],
    ]);
  });

  it('shows every key of the row when the metadata has no aggregates', () => {
    const metadata = parseMetadata('{"related_table":{"columns":[{"name":"region"}],"aggregates":[]}}');
    if (!metadata.ok) throw new Error('metadata');
    expect(buildMetric([{ region: 'north', total: 3 }], metadata.metadata).rows).toEqual([[{ label: 'region', value: 'north', number: null }, { label: 'total', value: '3', number: 3 }]]);
  });
});
