import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../hostile.fixture';
import { bubbleRadii, BUBBLE_MAX_RADIUS, BUBBLE_MAX_RADIUS_COMPACT, BUBBLE_MIN_RADIUS, BUBBLE_PLAIN_RADIUS, buildChartModel, groupAxes, keysDetail, LEGEND_MAX_ENTRIES, OTHER_LABEL, PIE_MAX_SLICES, slicesNamedByLegend, toNumber, truncateLabel, type ChartRequest } from './chartData';
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

// ---- whole models and the helpers, by hand ----

const P = DEFAULT_PALETTE;
const meta = (value: unknown) => {
  const result = parseMetadata(JSON.stringify(value));
  if (!result.ok) throw new Error('bad metadata');
  return result.metadata;
};

describe('groupAxes', () => {
  it('puts aggregates without a yaxis on one axis, titled by the aggregate when it is alone', () => {
    expect(groupAxes(meta({ related_table: { aggregates: [{ name: 'n', label: 'Count' }] } }))).toEqual({ axes: [{ id: 'y', title: 'Count', position: 'left' }], axisOf: ['y'] });
    expect(groupAxes(meta({ related_table: { aggregates: [{ name: 'a' }, { name: 'b', yaxis: '  ' }] } }))).toEqual({ axes: [{ id: 'y', title: '', position: 'left' }], axisOf: ['y', 'y'] });
  });

  it('gives each yaxis its own axis, alternating sides, and an aggregate without one its own when others have one', () => {
    const metadata = meta({ related_table: { aggregates: [{ name: 'a', yaxis: 'GBP' }, { name: 'b' }, { name: 'c', yaxis: ' GBP ' }, { name: 'd', yaxis: 'n' }] } });
    expect(groupAxes(metadata)).toEqual({
      axes: [
        { id: 'y', title: 'GBP', position: 'left' },
        { id: 'y1', title: 'b', position: 'right' },
        { id: 'y2', title: 'n', position: 'left' },
      ],
      axisOf: ['y', 'y1', 'y', 'y2'],
    });
  });
});

describe('keysDetail and the row-data message', () => {
  it('says (none) when the rows have no keys, and reads keys from the first 100 rows only', () => {
    expect(keysDetail(['a', 'b'], [])).toBe('expected keys: a, b; actual keys: (none)');
    expect(keysDetail(['a'], ['c'])).toBe('expected keys: a; actual keys: c');
    const metadata = { ok: true as const, metadata: meta({ related_table: { columns: [{ name: 'k' }], aggregates: [{ name: 'v' }] } }) };
    expect(buildChartModel(request({ metadata, rows: [{}] }))).toEqual({ ok: false, message: ROW_DATA_NONCONFORMING, detail: 'expected keys: k, v; actual keys: (none)' });
    const rows = [...Array.from({ length: 100 }, () => ({ a: 1 })), { late: 1 }];
    expect(buildChartModel(request({ metadata, rows }))).toEqual({ ok: false, message: ROW_DATA_NONCONFORMING, detail: 'expected keys: k, v; actual keys: a' });
    expect(buildChartModel(request({ metadata, rows: [null as unknown as Record<string, unknown>, 'ab' as unknown as Record<string, unknown>, { b: 'x' }] }))).toEqual({ ok: false, message: ROW_DATA_NONCONFORMING, detail: 'expected keys: k, v; actual keys: b' });
  });

  it('needs at least one aggregate', () => {
    expect(buildChartModel(request({ metadata: parseMetadata(JSON.stringify({ related_table: { columns: [{ name: 'k' }] } })) }))).toEqual({ ok: false, message: METADATA_NOT_WELL_FORMED, detail: 'related_table needs at least one aggregate to chart' });
  });

  it('passes a metadata or link failure on with its detail', () => {
    expect(buildChartModel(request({ metadata: parseMetadata('[]') }))).toEqual({ ok: false, message: METADATA_NOT_WELL_FORMED, detail: 'metadata must be an object: []' });
    const metadata = parseMetadata(JSON.stringify({ related_table: { aggregates: [{ name: 'revenue', links: { label: 'x' } }] } }));
    expect(buildChartModel(request({ metadata }))).toEqual({ ok: false, message: LINK_EXPECTED_HREF, detail: '{"dataset":null,"href":null,"label":"x"}' });
  });
});

describe('buildChartModel (whole models)', () => {
  it('a bar chart: labels from every column, x from the first, links per aggregate before the metadata’s', () => {
    const metadata = parseMetadata(
      JSON.stringify({
        name: 's',
        links: [{ href: '/l/w/all' }],
        related_table: { columns: [{ name: 'year' }, { name: 'city' }], aggregates: [{ name: 'n', label: 'N', links: [{ dataset: ' d ' }] }, { name: 'm', label: 'M' }] },
      }),
    );
    const rows = [{ 's.year': 2024, city: 'Leeds', n: 3, m: 1 }, { year: '', city: null, n: '4', m: 0 }, { n: 'x', m: 2 }];
    expect(buildChartModel(request({ metadata, rows, stacked: true }))).toEqual({
      ok: true,
      model: {
        chartType: 'bar',
        stacked: true,
        labels: ['2024 / Leeds', '2', '3'],
        fullLabels: ['2024 / Leeds', '2', '3'],
        series: [
          { label: 'N', values: [3, 4, null], xs: [2024, 2, 3], radii: [], sizes: [], yAxisId: 'y', colour: P[0], href: '/l/w/dataset/d' },
          { label: 'M', values: [1, 0, 2], xs: [2024, 2, 3], radii: [], sizes: [], yAxisId: 'y', colour: P[1], href: '/l/w/all' },
        ],
        axes: [{ id: 'y', title: '', position: 'left' }],
        categoryColours: [P[0], P[1], P[2]],
        tileLabelVisible: [true, true, false],
        showLegend: true,
        sizeLabel: null,
      },
    });
  });

  it('a chart without columns labels rows by their position, and x is the position', () => {
    const metadata = parseMetadata(JSON.stringify({ related_table: { aggregates: [{ name: 'n' }] } }));
    const result = buildChartModel(request({ chartType: 'line', metadata, rows: [{ n: 1 }, { n: -1 }] }));
    expect(result).toEqual({
      ok: true,
      model: {
        chartType: 'line',
        stacked: false,
        labels: ['1', '2'],
        fullLabels: ['1', '2'],
        series: [{ label: 'n', values: [1, -1], xs: [1, 2], radii: [], sizes: [], yAxisId: 'y', colour: P[0], href: null }],
        axes: [{ id: 'y', title: 'n', position: 'left' }],
        categoryColours: [P[0], P[1]],
        tileLabelVisible: [true, true],
        showLegend: false,
        sizeLabel: null,
      },
    });
  });

  it('a treemap: one series, no axes, no legend, labels on tiles of 20 % or more of the absolute total', () => {
    const metadata = parseMetadata(JSON.stringify({ related_table: { columns: [{ name: 'k' }], aggregates: [{ name: 'a' }, { name: 'b' }] } }));
    const rows = [{ k: 'x', a: -70, b: 1 }, { k: 'y', a: 20, b: 1 }, { k: 'z', a: 10, b: 1 }, { k: 'w', a: null, b: 1 }];
    const result = buildChartModel(request({ chartType: 'treemap', metadata, rows }));
    expect(result.ok && result.model.series.map((s) => s.label)).toEqual(['a']);
    expect(result.ok && result.model.tileLabelVisible).toEqual([true, true, false, false]);
    expect(result.ok && [result.model.axes, result.model.showLegend]).toEqual([[], false]);
    const exact = buildChartModel(request({ chartType: 'treemap', metadata, rows: [{ k: 'x', a: 80, b: 1 }, { k: 'y', a: 20, b: 1 }] }));
    expect(exact.ok && exact.model.tileLabelVisible).toEqual([true, true]);
    const zero = buildChartModel(request({ chartType: 'treemap', metadata, rows: [{ k: 'x', a: 0, b: 1 }] }));
    expect(zero.ok && zero.model.tileLabelVisible).toEqual([false]);
  });

  it('a pie of 21 rows keeps the 19 biggest in their order and sums the rest as Other; 20 rows stay 20 slices', () => {
    const metadata = parseMetadata(JSON.stringify({ related_table: { columns: [{ name: 'k' }], aggregates: [{ name: 'v', label: 'V' }, { name: 'w' }] } }));
    const rows = Array.from({ length: 21 }, (_, i) => ({ k: `m${i}`, v: i === 5 ? null : (i * 7) % 21, w: 1 }));
    // values 0, 7, 14, 0, 7, null, 0, 7, … : the smallest after sorting are the zeros and the null
    const values = rows.map((row) => row.v);
    const order = values.map((value, index) => ({ value: value ?? 0, index })).sort((a, b) => b.value - a.value || a.index - b.index);
    const kept = order.slice(0, 19).map((e) => e.index).sort((a, b) => a - b);
    const result = buildChartModel(request({ chartType: 'pie', metadata, rows }));
    expect(result.ok && result.model.fullLabels).toEqual([...kept.map((i) => `m${i}`), 'Other']);
    expect(result.ok && result.model.series.map((s) => [s.label, s.values])).toEqual([['V', [...kept.map((i) => values[i]), 0]]]);
    const biggest = Array.from({ length: 21 }, (_, i) => ({ k: `m${i}`, v: i + 1, w: 1 }));
    const limited = buildChartModel(request({ chartType: 'doughnut', metadata, rows: biggest }));
    expect(limited.ok && [limited.model.fullLabels, limited.model.series[0]?.values]).toEqual([
      [...Array.from({ length: 19 }, (_, i) => `m${i + 2}`), 'Other'],
      [...Array.from({ length: 19 }, (_, i) => i + 3), 3],
    ]);
    // other charts draw every row and every aggregate
    const bars = buildChartModel(request({ chartType: 'bar', metadata, rows: biggest }));
    expect(bars.ok && [bars.model.fullLabels.length, bars.model.series.map((s) => s.values.length)]).toEqual([21, [21, 21]]);
    const twenty = buildChartModel(request({ chartType: 'pie', metadata, rows: biggest.slice(0, 20) }));
    expect(twenty.ok && [twenty.model.fullLabels.length, twenty.model.series.length, twenty.model.showLegend]).toEqual([20, 2, false]);
  });

  it('one row of several aggregates as slices: the shared link only, the legend in a preview too', () => {
    const metadata = parseMetadata(JSON.stringify({ name: 'shop', links: [{ href: 'https://example.com/x' }], related_table: { columns: [{ name: 'day' }], aggregates: [{ name: 'visitors', label: 'Visitors' }, { name: 'sales', label: '' }] } }));
    const rows = [{ 'shop.visitors': 5, 'shop.sales': '7' }];
    expect(buildChartModel(request({ chartType: 'doughnut', stacked: true, metadata, rows, compact: true }))).toEqual({
      ok: true,
      model: {
        chartType: 'doughnut',
        stacked: true,
        labels: ['Visitors', 'sales'],
        fullLabels: ['Visitors', 'sales'],
        series: [{ label: '1', values: [5, 7], xs: [1, 2], radii: [], sizes: [], yAxisId: 'y', colour: P[0], href: 'https://example.com/x' }],
        axes: [],
        categoryColours: [P[0], P[1]],
        tileLabelVisible: [true, true],
        showLegend: true,
        sizeLabel: null,
      },
    });
    const own = parseMetadata(JSON.stringify({ related_table: { aggregates: [{ name: 'a', links: [{ href: '/a' }] }, { name: 'b' }] } }));
    const split = buildChartModel(request({ chartType: 'pie', metadata: own, rows: [{ a: 1, b: 2 }] }));
    expect(split.ok && split.model.series[0]?.href).toBeNull();
    const many = parseMetadata(JSON.stringify({ related_table: { aggregates: Array.from({ length: 13 }, (_, i) => ({ name: `a${i}` })) } }));
    const thirteen = buildChartModel(request({ chartType: 'pie', metadata: many, rows: [Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`a${i}`, i]))] }));
    expect(thirteen.ok && [thirteen.model.fullLabels.length, thirteen.model.showLegend]).toEqual([13, false]);
    const twelve = parseMetadata(JSON.stringify({ related_table: { aggregates: Array.from({ length: 12 }, (_, i) => ({ name: `a${i}` })) } }));
    const legend = buildChartModel(request({ chartType: 'pie', metadata: twelve, rows: [Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`a${i}`, i]))] }));
    expect(legend.ok && legend.model.showLegend).toBe(true);
  });

  it('a sized bubble chart: compact bubbles are smaller, the size label falls back to the name', () => {
    const metadata = parseMetadata(JSON.stringify({ related_table: { columns: [{ name: 'x' }], aggregates: [{ name: 'y', label: 'Y' }, { name: 'size', label: '' }] } }));
    const rows = [{ x: 1, y: 2, size: 100 }, { x: 2, y: 3, size: 25 }];
    expect(buildChartModel(request({ chartType: 'bubble', metadata, rows, compact: true }))).toEqual({
      ok: true,
      model: {
        chartType: 'bubble',
        stacked: false,
        labels: ['1', '2'],
        fullLabels: ['1', '2'],
        series: [{ label: 'Y', values: [2, 3], xs: [1, 2], radii: [BUBBLE_MAX_RADIUS_COMPACT, 7.5], sizes: [100, 25], yAxisId: 'y', colour: P[0], href: null }],
        axes: [{ id: 'y', title: 'Y', position: 'left' }],
        categoryColours: [P[0], P[1]],
        tileLabelVisible: [true, true],
        showLegend: false,
        sizeLabel: 'size',
      },
    });
    const full = buildChartModel(request({ chartType: 'bubble', metadata, rows }));
    expect(full.ok && [full.model.series[0]?.radii, full.model.showLegend]).toEqual([[30, 16.5], true]);
  });

  it('hides the legend of 12+ categories of a pie, keeps it for 12, and never shows a treemap’s', () => {
    const metadata = parseMetadata(JSON.stringify({ related_table: { columns: [{ name: 'k' }], aggregates: [{ name: 'v' }] } }));
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ k: `c${i}`, v: i + 1 }));
    const legend = (chartType: ChartRequest['chartType'], n: number, compact = false) => {
      const result = buildChartModel(request({ chartType, metadata, rows: rows(n), compact }));
      return result.ok && result.model.showLegend;
    };
    expect([legend('pie', 12), legend('pie', 13), legend('pie', 1), legend('doughnut', 2, true), legend('treemap', 2), legend('bar', 2)]).toEqual([true, false, false, true, false, false]);
    expect([slicesNamedByLegend('pie'), slicesNamedByLegend('doughnut'), slicesNamedByLegend('bar'), slicesNamedByLegend('treemap')]).toEqual([true, true, false, false]);
  });
});

describe('small helpers (by hand)', () => {
  it('truncateLabel keeps a label of the maximum whole and cuts one longer', () => {
    expect(truncateLabel('x'.repeat(50))).toBe('x'.repeat(50));
    expect(truncateLabel('x'.repeat(51))).toBe(`${'x'.repeat(49)}…`);
    expect(truncateLabel('abcd', 3)).toBe('ab…');
    expect(truncateLabel('abc', 3)).toBe('abc');
  });

  it('toNumber reads numeric text with spaces, and refuses blank text and other types', () => {
    expect([toNumber(' 3 '), toNumber('   '), toNumber('1e400'), toNumber(-0.5), toNumber(Number.NaN), toNumber(true), toNumber('0x10')]).toEqual([3, null, null, -0.5, null, null, 16]);
  });

  it('bubbleRadii: the largest gets the maximum, zero and missing the minimum, all minimum when none is positive', () => {
    expect(bubbleRadii([])).toEqual([]);
    expect(bubbleRadii([4, 1, 0])).toEqual([30, 16.5, 3]);
    expect(bubbleRadii([-1, null, 0])).toEqual([3, 3, 3]);
    expect(bubbleRadii([1, 1], 3)).toEqual([3, 3]);
    expect(bubbleRadii([9, 4])).toEqual([30, 21]);
  });
});
