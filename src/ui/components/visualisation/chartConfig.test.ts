import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildChartModel, BUBBLE_MAX_RADIUS, type ChartModel } from '../../../domain/visualisation/chartData';
import { MATATIKA_EXAMPLES } from '../../../domain/visualisation/matatikaExamples.fixture';
import { parseMetadata } from '../../../domain/visualisation/metadata';
import { TICK_COUNT_MAX } from '../../../domain/visualisation/options';
import { parseVisualisation } from '../../../domain/visualisation/spec';
import { categoryLabelRoom, chartConfig } from './chartConfig';

type Options = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- chart.js options read back in tests

/** The chart.js configuration the page builds for a visualisation, metadata and rows. */
function configOf(visualisation: string, metadata: string, rows: readonly Record<string, unknown>[], compact = false) {
  const spec = parseVisualisation(visualisation);
  if (spec.kind !== 'chart') throw new Error(spec.kind);
  const result = buildChartModel({ chartType: spec.chartType, stacked: spec.stacked, metadata: parseMetadata(metadata), rows, datasetHref: (a) => a, compact });
  if (!result.ok) throw new Error(result.message);
  const config = chartConfig({ model: result.model, userOptions: spec.options, compact, onSeriesClick: () => undefined });
  return { model: result.model, config, options: config.options as Options };
}

const example = (key: string) => {
  const found = MATATIKA_EXAMPLES.find((e) => e.key === key);
  if (!found) throw new Error(key);
  return configOf(found.visualisation, found.metadata, found.rows);
};

describe('legible previews (issue 38)', () => {
  const statuses = JSON.stringify({ related_table: { columns: [{ name: 'status' }], aggregates: [{ name: 'orders', label: 'Orders' }] } });
  const rows = ['completed', 'processing', 'refunded', 'shipped', 'cancelled'].map((status, i) => ({ status, orders: 10 + i }));

  it("a category label keeps what its own width holds upright: five bars on a card's 300 px keep 'processing' whole", () => {
    expect(categoryLabelRoom('x', 300, 160, 5)).toBeGreaterThanOrEqual('processing'.length);
    // wide enough upright, the whole label up to 50 characters; crowded, the tilted room, never under 12
    expect(categoryLabelRoom('x', 848, 160, 5)).toBe(23);
    expect(categoryLabelRoom('x', 300, 160, 60)).toBe(12);
    expect(categoryLabelRoom('x', 300, 360, 60)).toBe(21);
    expect(categoryLabelRoom('x', 5000, 160, 1)).toBe(50);
    expect(categoryLabelRoom('y', 375, 160, 7)).toBe(17);
    fc.assert(
      fc.property(fc.constantFrom('x', 'y'), fc.nat(10_000), fc.nat(10_000), fc.nat(1000), (axis, width, height, count) => {
        const room = categoryLabelRoom(axis, width, height, count);
        expect(Number.isInteger(room) && room >= 12 && room <= 50).toBe(true);
      }),
    );
  });

  it("a compact pie keeps its legend beside it (its colours name nothing without it); other compact charts drop theirs", () => {
    const pie = configOf('{"chartjs-chart":{"chartType":"pie"}}', statuses, rows, true);
    expect(pie.options.plugins.legend).toMatchObject({ display: true, position: 'right' });
    const line = configOf('{"chartjs-chart":{"chartType":"line"}}', JSON.stringify({ related_table: { columns: [{ name: 'status' }], aggregates: [{ name: 'orders' }, { name: 'value' }] } }), rows.map((r) => ({ ...r, value: 1 })), true);
    expect(line.options.plugins.legend).toMatchObject({ display: false });
  });

  it("a horizontal bar chart's names sit close enough that a card shows every one, not every other", () => {
    const bars = configOf('{"chartjs-chart":{"chartType":"horizontalBar"}}', statuses, rows, true);
    expect(bars.options.scales.y.ticks).toMatchObject({ autoSkipPadding: 2, font: { size: 11 } });
    expect(bars.options.scales.x.title.display).toBe(false);
    expect(configOf('{"chartjs-chart":{"chartType":"horizontalBar"}}', statuses, rows).options.scales.x.title).toEqual({ display: true, text: 'Orders' });
    expect(configOf('{"chartjs-chart":{"chartType":"bar"}}', statuses, rows).options.scales.x.ticks.autoSkipPadding).toBe(8);
  });
});

describe("chartConfig draws Matatika's examples with their chart.js v3 options as given", () => {
  it('gives every example its chart.js type, labels and one dataset per series', () => {
    for (const e of MATATIKA_EXAMPLES) {
      const { config } = configOf(e.visualisation, e.metadata, e.rows);
      expect(config.type, e.key).toBe(e.expected.chartJsType);
      expect(config.data.labels, e.key).toEqual(e.expected.labels);
      // a sized bubble's legend says what the size is
      const legend = (label: string) => (e.expected.chartType === 'bubble' ? `${label} · size: Orders` : label);
      expect(config.data.datasets.map((d) => d.label), e.key).toEqual(e.expected.series.map((s) => legend(s.label)));
    }
  });

  it('stacked bar: scales.x.stacked stacks the bars (the values too, as the example means)', () => {
    const { options } = example('stacked-bar');
    expect(options.scales.x.stacked).toBe(true);
    expect(options.scales.y.stacked).toBe(true);
    // an explicit y.stacked: false is obeyed as given (bars laid over each other)
    const own = configOf('{"chartjs-chart":{"chartType":"bar","options":{"scales":{"x":{"stacked":true},"y":{"stacked":false}}}}}', MATATIKA_EXAMPLES[2]!.metadata, MATATIKA_EXAMPLES[2]!.rows);
    expect(own.options.scales.y.stacked).toBe(false);
  });

  it('labeled axis: the axis titles are the options\'', () => {
    const { options } = example('labeled-axis');
    expect(options.scales.y.title).toEqual({ display: true, text: 'Number of Cakes' });
    expect(options.scales.x.title).toEqual({ display: true, text: 'Number of Loaves' });
    expect(options.scales.x.ticks.callback).toBeTypeOf('function');
  });

  it('max scale, start at zero and tick scaling take effect; lines fit their data unless told', () => {
    expect(example('max-scale').options.scales.y.max).toBe(100);
    expect(example('line').options.scales.y.beginAtZero).toBe(false);
    expect(example('start-at-0').options.scales.y.beginAtZero).toBe(true);
    const ticks = example('tick-scaling').options.scales.y;
    expect(ticks.beginAtZero).toBe(true);
    expect(ticks.ticks).toMatchObject({ stepSize: 1, maxTicksLimit: 8 });
    expect(example('basic-bar').options.scales.y.beginAtZero).toBe(true);
  });

  it('legend position and indexAxis are honoured', () => {
    const e = MATATIKA_EXAMPLES[2]!;
    const top = configOf('{"chartjs-chart":{"chartType":"bar","options":{"plugins":{"legend":{"position":"top"}}}}}', e.metadata, e.rows);
    expect(top.options.plugins.legend).toMatchObject({ display: true, position: 'top' });
    const sideways = configOf('{"chartjs-chart":{"chartType":"bar","options":{"indexAxis":"y"}}}', e.metadata, e.rows);
    expect(sideways.model.chartType).toBe('horizontalBar');
    expect(sideways.options.indexAxis).toBe('y');
    expect(sideways.options.scales.y.type).toBe('category');
    // a line keeps its axis: our scales follow the chart type
    expect(configOf('{"chartjs-chart":{"chartType":"line","options":{"indexAxis":"y"}}}', e.metadata, e.rows).options.indexAxis).toBe('x');
  });

  it('bubble: x, y and a bounded radius per point, the size in the tooltip', () => {
    const { config, options } = example('bubble');
    const data = config.data.datasets[0]?.data as { x: number; y: number; r: number }[];
    expect(data.map((p) => [p.x, p.y])).toEqual([[420, 180], [310, 260], [505, 140], [275, 215], [390, 120]]);
    expect(Math.max(...data.map((p) => p.r))).toBe(BUBBLE_MAX_RADIUS);
    expect(options.scales.x.type).toBe('linear');
    expect([options.scales.x.grace, options.scales.y.grace]).toEqual(['12%', '12%']);
    expect(options.plugins.legend.display).toBe(true);
    expect(options.scales.x.title).toEqual({ display: true, text: 'Loaves' });
    const label = options.plugins.tooltip.callbacks.label as (item: { datasetIndex: number; dataIndex: number }) => string;
    expect(label({ datasetIndex: 0, dataIndex: 1 })).toBe('Cakes: 260 (Orders: 130)');
    // hostile sizes still draw bounded bubbles
    const huge = configOf('{"chartjs-chart":{"chartType":"bubble"}}', JSON.stringify({ related_table: { columns: [{ name: 'x' }], aggregates: [{ name: 'y' }, { name: 'r' }] } }), [{ x: 1, y: 1, r: 1e308 }, { x: 2, y: 2, r: -5 }, { x: 3, y: 3, r: 'big' }, { x: 4, y: 4, r: 1e-300 }]);
    for (const point of huge.config.data.datasets[0]?.data as { r: number }[]) expect(point.r).toBeLessThanOrEqual(BUBBLE_MAX_RADIUS);
  });
});

const CALLBACK_NAMES = ['callback', 'callbacks', 'external', 'generateLabels', 'filter', 'sort', 'itemSort', 'formatter', 'labelColor', 'onClick', 'onHover', 'onComplete', 'onProgress', 'onLeave', 'onResize'];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'devicePixelRatio', 'locale', 'count', 'precision', 'ticks', 'scales', 'x', 'y', 'plugins', 'legend', 'tooltip', 'title', 'stacked', 'polluted', ...CALLBACK_NAMES];

describe('chartConfig with hostile options (property)', () => {
  const model = (): ChartModel => {
    const e = MATATIKA_EXAMPLES[2]!;
    const result = buildChartModel({ chartType: 'bar', stacked: false, metadata: parseMetadata(e.metadata), rows: e.rows, datasetHref: (a) => a, compact: false });
    if (!result.ok) throw new Error(result.message);
    return result.model;
  };
  const leaf = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constantFrom('alert(1)', 'function(){return 1}', '() => fetch("/x")', 'x'.repeat(10_000), 1e9, -1, 2.5, 'xx-invalid-locale-!!'));
  const tree = fc.letrec((tie) => ({ node: fc.oneof({ depthSize: 'small', maxDepth: 5 }, leaf, fc.dictionary(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 6 })), tie('node'), { maxKeys: 5 })) })).node;

  it('keeps callbacks ours, refuses unsafe and code-like keys, bounds tick counts, never pollutes', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).join();
    fc.assert(fc.property(tree, (hostile) => {
      // through JSON, as a dataset's visualisation text arrives
      const userOptions = JSON.parse(JSON.stringify({ o: hostile })).o as Record<string, unknown>;
      const options = chartConfig({ model: model(), userOptions: typeof userOptions === 'object' && userOptions !== null ? userOptions : {}, compact: false, onSeriesClick: () => undefined }).options as Options;
      expect(options.onClick).toBeTypeOf('function');
      expect(options.onHover).toBeTypeOf('function');
      expect(options.indexAxis).toBe('x');
      expect(Object.hasOwn(options, 'devicePixelRatio')).toBe(false);
      if (Object.hasOwn(options, 'locale')) expect(() => new Intl.NumberFormat(options.locale as string)).not.toThrow();
      const walk = (value: unknown, key: string, parent = ''): void => {
        if (CALLBACK_NAMES.includes(key) && key !== 'callbacks') expect(typeof value, key).toBe('function');
        if (key === 'callbacks') expect(Object.values(value as object).every((v) => typeof v === 'function')).toBe(true);
        if (key === 'count' && parent === 'ticks') expect(Number.isInteger(value) && (value as number) <= TICK_COUNT_MAX).toBe(true);
        if (value === null || typeof value !== 'object') return;
        for (const k of Object.keys(value)) {
          expect(['__proto__', 'constructor', 'prototype', '__defineGetter__']).not.toContain(k);
          walk((value as Record<string, unknown>)[k], k, key);
        }
      };
      walk(options, '');
      expect(Object.getOwnPropertyNames(Object.prototype).join()).toBe(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }), { numRuns: 300 });
  });
});
