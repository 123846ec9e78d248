import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builderSource, defaultLabel, keyOfName, nameOfKey, numericColumns, suggestColumns, type BuilderSource } from './chartBuilderColumns';
import { colourNameOf, describeChartBuilder, kindLabel, MAX_COLOUR_SLOTS } from './chartBuilderView';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import { DEFAULT_PALETTE } from './visualisation/palette';

const ORDERS: BuilderSource = {
  columns: ['status', 'orders'],
  rows: [
    { status: 'paid', orders: 5 },
    { status: 'shipped', orders: '3' },
    { status: 'new', orders: null },
  ],
};
const bar = (columns: string[], values: string[], extra: Record<string, unknown> = {}) => ({
  visualisation: '{"chartjs-chart":{"chartType":"bar"}}',
  metadata: JSON.stringify({ ...extra, related_table: { columns: columns.map((name) => ({ name })), aggregates: values.map((name) => ({ name })) } }),
});

describe('the builder as the view shows it', () => {
  it('offers the preview columns, marks numbers, and names what is missing', () => {
    const view = describeChartBuilder({ visualisation: '', metadata: '' }, ORDERS);
    expect(view).toMatchObject({ ok: true, options: [{ key: 'status', numeric: false, inPreview: true }, { key: 'orders', numeric: true, inPreview: true }], labelKeys: [], valueKeys: [], colourSlots: [] });
    expect(view.ok && view.hints).toEqual(['Pick a chart type.']);
    const noValues = describeChartBuilder({ visualisation: '{"chartjs-chart":{"chartType":"bar"}}', metadata: '' }, ORDERS);
    expect(noValues.ok && noValues.hints).toEqual(['Pick a value column: its numbers are drawn.']);
    const noPreview = describeChartBuilder({ visualisation: '{"html-table":{}}', metadata: '' }, { columns: [], rows: [] });
    expect(noPreview.ok && noPreview.hints).toEqual(['Run the query (or give raw data) to pick from its columns.']);
  });

  it('names a column the preview lacks and a value column without numbers', () => {
    const view = describeChartBuilder(bar(['status'], ['status', 'gone']), ORDERS);
    if (!view.ok) throw new Error(view.problem);
    expect(view.options.at(-1)).toEqual({ key: 'gone', numeric: false, inPreview: false });
    expect(view.hints).toEqual(['gone is not a column of the preview.', 'status has no numbers in the preview.']);
    const scatter = describeChartBuilder({ visualisation: '{"chartjs-chart":{"chartType":"scatter"}}', metadata: bar(['status'], ['orders']).metadata }, ORDERS);
    expect(scatter.ok && scatter.hints).toEqual(['A scatter chart places its points by the first label column: status has no numbers.']);
  });

  it('one colour slot per series, per slice, or the metric background', () => {
    const series = describeChartBuilder(bar(['status'], ['orders'], { palette: [[1, 2, 3]] }), ORDERS);
    expect(series.ok && series.colourSlots).toEqual([{ label: 'orders', colour: [1, 2, 3], colourName: null }]);
    const pie = describeChartBuilder({ ...bar(['status'], ['orders']), visualisation: '{"chartjs-chart":{"chartType":"pie"}}' }, ORDERS);
    expect(pie.ok && pie.colourSlots.map((s) => [s.label, s.colourName])).toEqual([['paid', 'Blue'], ['shipped', 'Orange'], ['new', 'Green']]);
    const metric = describeChartBuilder({ visualisation: '{"html-metric":{}}', metadata: '' }, ORDERS);
    expect(metric.ok && metric.colourSlots).toEqual([{ label: 'Background', colour: DEFAULT_PALETTE[0], colourName: 'Blue' }]);
    const many = describeChartBuilder(bar([], Array.from({ length: 20 }, (_, i) => `v${String(i)}`)), ORDERS);
    expect(many.ok && many.colourSlots).toHaveLength(MAX_COLOUR_SLOTS);
    expect(colourNameOf([227, 0, 140])).toBe('Magenta');
  });

  it('shows qualified preview keys for short names under a metadata name', () => {
    const source = { columns: ['sales.month', 'sales.total'], rows: [{ 'sales.month': 'Jan', 'sales.total': 1 }] };
    const view = describeChartBuilder(bar(['month'], ['total'], { name: 'sales' }), source);
    expect(view).toMatchObject({ ok: true, labelKeys: ['sales.month'], valueKeys: ['sales.total'], hints: [] });
    expect(view.ok && view.options.every((o) => o.inPreview)).toBe(true);
  });

  it('reports JSON it cannot read', () => {
    expect(describeChartBuilder({ visualisation: '{"carousel":{}}', metadata: '' }, ORDERS)).toEqual({ ok: false, problem: 'The builder makes chart.js charts, tables and metrics; a carousel is edited as JSON.' });
  });
});

describe('the builder columns', () => {
  it('reads the query preview, or raw data rows when there is no query', () => {
    expect(builderSource({ query: 'select 1', rawData: '' }, null)).toEqual({ columns: [], rows: [] });
    expect(builderSource({ query: 'select 1', rawData: '' }, { columns: ['a'], rows: [{ a: 1 }] })).toEqual({ columns: ['a'], rows: [{ a: 1 }] });
    expect(builderSource({ query: ' ', rawData: '[{"a":1},{"b":2},3]' }, { columns: ['x'], rows: [] })).toEqual({ columns: ['a', 'b'], rows: [{ a: 1 }, { b: 2 }] });
    expect(builderSource({ query: '', rawData: 'graph TD;' }, null)).toEqual({ columns: [], rows: [] });
  });

  it('tells numbers, suggests a first choice and labels columns', () => {
    expect([...numericColumns({ columns: ['a', 'b', 'c', 'd'], rows: [{ a: 1, b: 'x', c: null, d: '2' }, { a: '1e3', b: 2, d: '' }] })]).toEqual(['a', 'd']);
    expect(suggestColumns(ORDERS, false)).toEqual({ labels: ['status'], values: ['orders'] });
    expect(suggestColumns({ columns: ['a', 'b'], rows: [{ a: 1, b: 2 }] }, false)).toEqual({ labels: ['a'], values: ['b'] });
    expect(suggestColumns(ORDERS, true)).toEqual({ labels: ['orders'], values: [] });
    expect(suggestColumns({ columns: [], rows: [] }, false)).toEqual({ labels: [], values: [] });
    expect(defaultLabel('orders.order_count')).toBe('Order count');
    expect(defaultLabel('revenue--gbp')).toBe('Revenue gbp');
    expect(defaultLabel('a.')).toBe('a.');
    expect(defaultLabel('__')).toBe('__');
    expect(nameOfKey('orders.status', 'orders')).toBe('status');
    expect(nameOfKey('orders.', 'orders')).toBe('orders.');
    expect(nameOfKey('other.status', 'orders')).toBe('other.status');
    expect(keyOfName('status', 'orders', ['orders.status'])).toBe('orders.status');
    expect(keyOfName('status', 'orders', ['status'])).toBe('status');
  });

  it('a key and its name map back to the key, and nothing throws (properties)', () => {
    fc.assert(
      fc.property(hostileString, fc.option(hostileString, { nil: null }), (key, metadataName) => {
        const name = nameOfKey(key, metadataName);
        expect(keyOfName(name, metadataName, [key])).toBe(key);
        expect(typeof defaultLabel(key)).toBe('string');
      }),
    );
    fc.assert(
      fc.property(hostileStringWithHuge, hostileStringWithHuge, fc.array(fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 })), { maxLength: 5 }), (visualisation, metadata, rows) => {
        const source = builderSource({ query: '', rawData: JSON.stringify(rows) }, null);
        const view = describeChartBuilder({ visualisation, metadata }, source);
        if (view.ok) expect(view.colourSlots.length).toBeLessThanOrEqual(MAX_COLOUR_SLOTS);
        else expect(view.problem.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the builder as the view shows it, kind by kind', () => {
  const as = (chartType: string, columns: string[], values: string[]) => ({ ...bar(columns, values), visualisation: `{"chartjs-chart":{"chartType":"${chartType}"}}` });
  const NUMBERS: BuilderSource = { columns: ['x', 'y', 'size', 'name'], rows: [{ x: 1, y: 2, size: 3, name: 'a' }] };

  it('names a palette colour only when all three channels match', () => {
    expect(colourNameOf([15, 108, 189])).toBe('Blue');
    expect(colourNameOf([15, 108, 190])).toBeNull();
    expect(colourNameOf([15, 109, 189])).toBeNull();
    expect(colourNameOf([16, 108, 189])).toBeNull();
  });

  it("a bubble chart's last value column sizes the bubbles and has no colour slot", () => {
    const bubble = describeChartBuilder(as('bubble', ['x'], ['y', 'size']), NUMBERS);
    expect(bubble.ok && bubble.colourSlots.map((s) => s.label)).toEqual(['y']);
    const three = describeChartBuilder(as('bubble', ['x'], ['y', 'z', 'size']), NUMBERS);
    expect(three.ok && three.colourSlots.map((s) => s.label)).toEqual(['y', 'z']);
    const one = describeChartBuilder(as('bubble', ['x'], ['y']), NUMBERS);
    expect(one.ok && one.colourSlots.map((s) => s.label)).toEqual(['y']);
    const line = describeChartBuilder(as('line', ['x'], ['y', 'size']), NUMBERS);
    expect(line.ok && line.colourSlots.map((s) => s.label)).toEqual(['y', 'size']);
  });

  it('no colour slots without a kind, nor for a table', () => {
    const none = describeChartBuilder({ visualisation: '', metadata: bar(['name'], ['y']).metadata }, NUMBERS);
    expect(none.ok && none.colourSlots).toEqual([]);
    const table = describeChartBuilder({ visualisation: '{"html-table":{}}', metadata: bar(['name'], ['y']).metadata }, NUMBERS);
    expect(table.ok && table.colourSlots).toEqual([]);
  });

  it('a pie that cannot be drawn yet (no value column) has no colour slots', () => {
    const pie = describeChartBuilder(as('pie', ['name'], []), { columns: ['name', 'y'], rows: [{ name: 'a', y: 1 }] });
    expect(pie.ok && pie.colourSlots).toEqual([]);
  });

  it('a pie has one colour slot per category, at most one per palette colour', () => {
    const rows = Array.from({ length: 13 }, (_, i) => ({ name: `c${String(i)}`, y: i + 1 }));
    const pie = describeChartBuilder(as('pie', ['name'], ['y']), { columns: ['name', 'y'], rows });
    expect(pie.ok && pie.colourSlots.map((s) => s.label)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'c10', 'c11']);
  });

  it('without a preview, names no missing column', () => {
    const view = describeChartBuilder(bar(['gone'], ['also']), { columns: [], rows: [] });
    expect(view.ok && view.hints).toEqual(['Run the query (or give raw data) to pick from its columns.']);
  });

  it('a table draws no numbers: a text column is no problem there', () => {
    const table = describeChartBuilder({ visualisation: '{"html-table":{}}', metadata: bar(['name'], ['name']).metadata }, NUMBERS);
    expect(table.ok && table.hints).toEqual([]);
  });

  it('a scatter or bubble chart needs numbers in its first label column; a bar chart does not', () => {
    const bubble = describeChartBuilder(as('bubble', ['name'], ['y', 'size']), NUMBERS);
    expect(bubble.ok && bubble.hints).toEqual(['A bubble chart places its points by the first label column: name has no numbers.']);
    const scatter = describeChartBuilder(as('scatter', ['name'], ['y']), NUMBERS);
    expect(scatter.ok && scatter.hints).toEqual(['A scatter chart places its points by the first label column: name has no numbers.']);
    const barChart = describeChartBuilder(as('bar', ['name'], ['y']), NUMBERS);
    expect(barChart.ok && barChart.hints).toEqual([]);
  });

  it('a treemap draws its first value column only', () => {
    const two = describeChartBuilder(as('treemap', ['name'], ['y', 'size']), NUMBERS);
    expect(two.ok && two.hints).toEqual(['A treemap draws its first value column only.']);
    const one = describeChartBuilder(as('treemap', ['name'], ['y']), NUMBERS);
    expect(one.ok && one.hints).toEqual([]);
  });

  it('offers a column the preview lacks once, however often the JSON names it', () => {
    const view = describeChartBuilder(bar(['ghost'], ['ghost']), NUMBERS);
    expect(view.ok && view.options.map((o) => o.key)).toEqual(['x', 'y', 'size', 'name', 'ghost']);
  });

  it('labels a kind', () => {
    expect(kindLabel(null)).toBe('');
    expect(kindLabel('horizontalBar')).toBe('Horizontal bar');
    expect(kindLabel('table')).toBe('Table');
  });
});

describe('the builder columns, at their edges', () => {
  it('a column missing from some rows can still be numbers; only the first 100 rows are looked at', () => {
    expect([...numericColumns({ columns: ['a'], rows: [{ a: 1 }, {}] })]).toEqual(['a']);
    const rows = [...Array.from({ length: 100 }, (_, i) => ({ a: i })), { a: 'text' }];
    expect([...numericColumns({ columns: ['a'], rows })]).toEqual(['a']);
    expect([...numericColumns({ columns: ['a'], rows: rows.slice(1) })]).toEqual([]);
  });

  it('suggests the first text column as the label wherever it stands, and three value columns at most', () => {
    expect(suggestColumns({ columns: ['n', 't'], rows: [{ n: 1, t: 'x' }] }, false)).toEqual({ labels: ['t'], values: ['n'] });
    const wide = { columns: ['name', 'a', 'b', 'c', 'd'], rows: [{ name: 'x', a: 1, b: 2, c: 3, d: 4 }] };
    expect(suggestColumns(wide, false)).toEqual({ labels: ['name'], values: ['a', 'b', 'c'] });
  });

  it('no metadata name (null or empty) leaves keys as they are', () => {
    expect(nameOfKey('null.x', null)).toBe('null.x');
    expect(nameOfKey('.x', '')).toBe('.x');
    expect(keyOfName('x', null, ['null.x'])).toBe('x');
    expect(keyOfName('x', '', ['.x'])).toBe('x');
  });

  it('a label collapses runs of spaces', () => {
    expect(defaultLabel('net  total')).toBe('Net total');
    expect(defaultLabel('a_ -b')).toBe('A b');
  });
});
