import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../hostile.fixture';
import { bubbleRadii, BUBBLE_MAX_RADIUS, BUBBLE_MIN_RADIUS, BUBBLE_PLAIN_RADIUS, buildChartModel, LEGEND_MAX_ENTRIES, OTHER_LABEL, PIE_MAX_SLICES, toNumber, truncateLabel, type ChartRequest } from './chartData';
import { CHART_HAS_NO_METADATA, LINK_EXPECTED_HREF, METADATA_NOT_WELL_FORMED, METADATA_UNPARSEABLE, NO_DATA_TO_DISPLAY, ROW_DATA_NONCONFORMING } from './messages';
import { parseMetadata } from './metadata';
import { DEFAULT_PALETTE } from './palette';

const META = JSON.stringify({
  name: 'sales',
  related_table: {
    columns: [{ name: 'month', label: 'Month' }],
    aggregates: [{ name: 'revenue', label: 'Revenue', yaxis: 'GBP' }, { name: 'orders', label: 'Orders', yaxis: 'count' }, { name: 'refunds', label: 'Refunds', yaxis: 'GBP' }],
  },
});
const ROWS = [{ 'sales.month': '2024-01', 'sales.revenue': 10, 'sales.orders': '3', 'sales.refunds': 1 }, { month: '2024-02', revenue: 20, orders: 4, refunds: 'n/a' }];
const request = (overrides: Partial<ChartRequest> = {}): ChartRequest => ({ chartType: 'bar', stacked: false, metadata: parseMetadata(META), rows: ROWS, datasetHref: (alias) => `/l/w/dataset/${alias}`, compact: false, ...overrides });
const model = (overrides: Partial<ChartRequest> = {}) => {
  const result = buildChartModel(request(overrides));
  if (!result.ok) throw new Error(result.message);
  return result.model;
};

describe('buildChartModel', () => {
  it('makes one series per aggregate, grouping y axes by yaxis', () => {
    const m = model();
    expect(m.labels).toEqual(['2024-01', '2024-02']);
    expect(m.series.map((s) => [s.label, s.values, s.yAxisId])).toEqual([['Revenue', [10, 20], 'y'], ['Orders', [3, 4], 'y1'], ['Refunds', [1, null], 'y']]);
    expect(m.axes).toEqual([{ id: 'y', title: 'GBP', position: 'left' }, { id: 'y1', title: 'count', position: 'right' }]);
    expect(m.series.map((s) => s.colour)).toEqual(DEFAULT_PALETTE.slice(0, 3));
    expect(m.showLegend).toBe(true);
    expect(model({ compact: true }).showLegend).toBe(false);
    // a pie's slices are named only by its legend: a compact preview keeps it (issue 38)
    expect(model({ chartType: 'pie', compact: true }).showLegend).toBe(true);
    expect(model({ chartType: 'doughnut', compact: true }).showLegend).toBe(true);
    expect(model({ chartType: 'treemap', compact: true }).showLegend).toBe(false);
  });

  it('uses the metadata palette', () => {
    const metadata = parseMetadata(JSON.stringify({ ...JSON.parse(META), palette: [[1, 2, 3]] }));
    expect(model({ metadata }).series.map((s) => s.colour)).toEqual([[1, 2, 3], [1, 2, 3], [1, 2, 3]]);
  });

  it('truncates long labels to 50 characters and keeps the full text for tooltips', () => {
    const long = 'x'.repeat(80);
    const m = model({ rows: [{ month: long, revenue: 1 }] });
    expect(Array.from(m.labels[0]!)).toHaveLength(50);
    expect(m.fullLabels[0]).toBe(long);
    expect(truncateLabel('😀'.repeat(60))).toBe('😀'.repeat(49) + '…');
  });

  it('hides a legend with more than 12 entries (many series stay legible)', () => {
    const aggregates = Array.from({ length: LEGEND_MAX_ENTRIES + 1 }, (_, i) => ({ name: `a${i}` }));
    const metadata = parseMetadata(JSON.stringify({ related_table: { columns: [{ name: 'k' }], aggregates } }));
    const m = model({ metadata, rows: [Object.fromEntries([['k', 'x'], ...aggregates.map((a, i) => [a.name, i])])] });
    expect(m.series).toHaveLength(13);
    expect(m.showLegend).toBe(false);
  });

  it('limits a pie to 20 slices with the rest as Other, colouring each slice', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ month: `m${i}`, revenue: i + 1 }));
    const m = model({ chartType: 'pie', rows });
    expect(m.labels).toHaveLength(PIE_MAX_SLICES);
    expect(m.labels.at(-1)).toBe(OTHER_LABEL);
    expect(m.series).toHaveLength(1);
    const sum = (values: (number | null)[]) => values.reduce<number>((a, b) => a + (b ?? 0), 0);
    expect(sum(m.series[0]!.values)).toBe((30 * 31) / 2);
    expect(m.categoryColours).toHaveLength(20);
    expect(m.axes).toEqual([]);
  });

  it("draws one row with several aggregates as one slice per aggregate, labelled by the aggregate (Matatika's doughnut and pie examples)", () => {
    const weekdays = ['monday', 'tuesday', 'wednesday'];
    const metadata = parseMetadata(JSON.stringify({ name: 'customer', related_table: { columns: [], aggregates: weekdays.map((d) => ({ name: `visitors_${d}`, label: `${d} visitors` })) } }));
    const rows = [{ 'customer.visitors_monday': 1090, 'customer.visitors_tuesday': 980, 'customer.visitors_wednesday': '1020' }];
    for (const chartType of ['pie', 'doughnut'] as const) {
      const m = model({ chartType, metadata, rows });
      expect(m.labels).toEqual(['monday visitors', 'tuesday visitors', 'wednesday visitors']);
      expect(m.series).toHaveLength(1);
      expect(m.series[0]?.values).toEqual([1090, 980, 1020]);
      expect(m.categoryColours).toEqual(DEFAULT_PALETTE.slice(0, 3));
      expect(m.showLegend).toBe(true);
    }
    // several rows keep one slice per row, and one aggregate on one row stays one slice
    expect(model({ chartType: 'pie' }).labels).toEqual(['2024-01', '2024-02']);
    const single = parseMetadata(JSON.stringify({ name: 'c', related_table: { columns: [], aggregates: [{ name: 'v', label: 'Visitors' }] } }));
    expect(model({ chartType: 'pie', metadata: single, rows: [{ 'c.v': 5 }] }).labels).toEqual(['1']);
    // a bar chart of the same row is still one bar per aggregate series
    expect(model({ chartType: 'bar', metadata, rows }).series).toHaveLength(3);
  });

  it('bubble: the last aggregate sizes the bubbles, area by value, radius bounded; one aggregate draws one size', () => {
    const m = model({ chartType: 'bubble' });
    expect(m.series.map((s) => s.label)).toEqual(['Revenue', 'Orders']);
    expect(m.sizeLabel).toBe('Refunds');
    expect(m.series[0]?.sizes).toEqual([1, null]);
    expect(m.series[0]?.radii).toEqual([BUBBLE_MAX_RADIUS, BUBBLE_MIN_RADIUS]);
    expect(m.axes.map((a) => a.title)).toEqual(['GBP', 'count']);
    const single = parseMetadata(JSON.stringify({ related_table: { columns: [{ name: 'month' }], aggregates: [{ name: 'revenue', label: 'Revenue' }] } }));
    const plain = model({ chartType: 'bubble', metadata: single });
    expect(plain.sizeLabel).toBeNull();
    // the legend says what the size means, even for one series; bubbles all one size need none
    expect(plain.showLegend).toBe(false);
    expect(model({ chartType: 'bubble', metadata: parseMetadata(JSON.stringify({ related_table: { columns: [{ name: 'month' }], aggregates: [{ name: 'revenue' }, { name: 'orders' }] } })) }).showLegend).toBe(true);
    expect(plain.series[0]?.radii).toEqual([BUBBLE_PLAIN_RADIUS, BUBBLE_PLAIN_RADIUS]);
    expect(bubbleRadii([100, 25, 0, -4, null, Number.MAX_VALUE])).toEqual([3, 3, 3, 3, 3, 30]);
    expect(bubbleRadii([100, 25])).toEqual([30, 16.5]);
    expect(bubbleRadii([100, 25], 12)).toEqual([12, 7.5]);
    expect(model({ chartType: 'bar' }).series[0]?.radii).toEqual([]);
  });

  it('marks treemap tiles under 20 % of the total for a transparent label', () => {
    const m = model({ chartType: 'treemap', rows: [{ month: 'a', revenue: 70 }, { month: 'b', revenue: 20 }, { month: 'c', revenue: 10 }] });
    expect(m.tileLabelVisible).toEqual([true, true, false]);
    expect(m.series).toHaveLength(1);
  });

  it('resolves drill-down links: dataset alias through datasetHref, safe hrefs as they are', () => {
    const withLinks = (links: unknown) => parseMetadata(JSON.stringify({ links, related_table: { aggregates: [{ name: 'revenue' }] } }));
    expect(model({ metadata: withLinks([{ dataset: 'detail/x' }]) }).series[0]?.href).toBe('/l/w/dataset/detail/x');
    expect(model({ metadata: withLinks([{ href: 'https://example.com/a' }]) }).series[0]?.href).toBe('https://example.com/a');
    expect(buildChartModel(request({ metadata: withLinks([{ label: 'nowhere' }]) }))).toMatchObject({ ok: false, message: LINK_EXPECTED_HREF });
    expect(buildChartModel(request({ metadata: withLinks([{ href: 'javascript:alert(1)' }]) }))).toMatchObject({ ok: false, message: LINK_EXPECTED_HREF });
  });

  it('gives each §5 message', () => {
    expect(buildChartModel(request({ metadata: parseMetadata(null) }))).toEqual({ ok: false, message: CHART_HAS_NO_METADATA, detail: null });
    expect(buildChartModel(request({ metadata: parseMetadata('{') }))).toMatchObject({ ok: false, message: METADATA_UNPARSEABLE });
    expect(buildChartModel(request({ metadata: parseMetadata('[]') }))).toMatchObject({ ok: false, message: METADATA_NOT_WELL_FORMED });
    expect(buildChartModel(request({ metadata: parseMetadata('{}') }))).toMatchObject({ ok: false, message: METADATA_NOT_WELL_FORMED });
    expect(buildChartModel(request({ rows: [] }))).toEqual({ ok: false, message: NO_DATA_TO_DISPLAY, detail: null });
    expect(buildChartModel(request({ rows: [{ city: 'Leeds', people: 3 }] }))).toEqual({ ok: false, message: ROW_DATA_NONCONFORMING, detail: 'expected keys: month, revenue, orders, refunds; actual keys: city, people' });
  });

  it('toNumber accepts finite numbers and numeric text only', () => {
    expect([toNumber(1), toNumber('2.5'), toNumber(''), toNumber('x'), toNumber(Infinity), toNumber(null), toNumber({})]).toEqual([1, 2.5, null, null, null, null, null]);
  });

  it('never throws on hostile rows and keeps series and labels aligned (property)', () => {
    const cell = fc.oneof(fc.jsonValue(), hostileString);
    const rows = fc.array(fc.dictionary(fc.constantFrom('month', 'revenue', 'orders', 'sales.revenue', '__proto__', 'constructor'), cell), { maxLength: 40 });
    const chartType = fc.constantFrom('bar', 'line', 'area', 'scatter', 'bubble', 'pie', 'doughnut', 'treemap', 'horizontalBar' as const);
    fc.assert(fc.property(rows, chartType, (data, type) => {
      const result = buildChartModel(request({ rows: data, chartType: type }));
      if (!result.ok) return;
      for (const series of result.model.series) expect(series.values).toHaveLength(result.model.labels.length);
      for (const label of result.model.labels) expect(Array.from(label).length).toBeLessThanOrEqual(50);
      for (const series of result.model.series) for (const r of series.radii) expect(r >= BUBBLE_MIN_RADIUS && r <= BUBBLE_MAX_RADIUS).toBe(true);
    }));
  });
});
