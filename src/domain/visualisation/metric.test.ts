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
