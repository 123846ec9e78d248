import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from '../hostile.fixture';
import { chartTypeOf, googleChartTypeOf, parseVisualisation, VISUALISATION_KINDS } from './spec';

describe('parseVisualisation', () => {
  it('reads a chartjs-chart with its type and options', () => {
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"bar","options":{"stacked":true}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'bar', stacked: true, options: { stacked: true } });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"horizontalBar"}}')).toMatchObject({ chartType: 'horizontalBar' });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"AREA"}}')).toMatchObject({ chartType: 'area' });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"bubble"}}')).toMatchObject({ chartType: 'bubble', stacked: false });
  });

  it('reads chart.js v3 options that change the drawing: a stacked axis, indexAxis of a bar chart', () => {
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"bar","options":{"scales":{"x":{"stacked":true}}}}}')).toMatchObject({ chartType: 'bar', stacked: true, options: { scales: { x: { stacked: true } } } });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"line","options":{"scales":{"y":{"stacked":true}}}}}')).toMatchObject({ chartType: 'line', stacked: true });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"bar","options":{"scales":{"x":{"stacked":"yes"}}}}}')).toMatchObject({ stacked: false });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"bar","options":{"indexAxis":"y"}}}')).toMatchObject({ chartType: 'horizontalBar' });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"horizontalBar","options":{"indexAxis":"x"}}}')).toMatchObject({ chartType: 'bar' });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"line","options":{"indexAxis":"y"}}}')).toMatchObject({ chartType: 'line' });
    // Google's options are not chart.js's: a scales key there stacks nothing
    expect(parseVisualisation('{"google-chart":{"chartType":"ColumnChart","options":{"scales":{"x":{"stacked":true}}}}}')).toMatchObject({ stacked: false });
  });

  it("maps Google's chart names to ours", () => {
    expect(parseVisualisation('{"google-chart":{"chartType":"BarChart"}}')).toMatchObject({ kind: 'chart', source: 'google-chart', chartType: 'horizontalBar' });
    expect(parseVisualisation('{"google-chart":{"chartType":"ColumnChart","options":{"isStacked":true}}}')).toMatchObject({ chartType: 'bar', stacked: true });
    expect(googleChartTypeOf('Bar', { bars: 'horizontal' })).toBe('horizontalBar');
    expect(googleChartTypeOf('PieChart', { pieHole: 0.4 })).toBe('doughnut');
    expect(googleChartTypeOf('PieChart', {})).toBe('pie');
    expect(googleChartTypeOf('TreeMap', {})).toBe('treemap');
    expect(googleChartTypeOf('AreaChart', {})).toBe('area');
    expect(googleChartTypeOf('BubbleChart', {})).toBe('bubble');
    expect(googleChartTypeOf('GeoChart', {})).toBeNull();
  });

  it('reads every other kind', () => {
    for (const kind of ['html-table', 'html-metric', 'handsontable-table', 'mermaid', 'carousel'] as const) {
      expect(parseVisualisation(JSON.stringify({ [kind]: {} }))).toEqual({ kind, options: {} });
    }
    expect(parseVisualisation('{"image":{"url":"https://x.test/a.png"}}')).toEqual({ kind: 'image', url: 'https://x.test/a.png', options: {} });
  });

  it('shows the rows as a table when there is nothing it knows', () => {
    expect(parseVisualisation(null)).toEqual({ kind: 'table', reason: 'none' });
    expect(parseVisualisation('  ')).toEqual({ kind: 'table', reason: 'none' });
    expect(parseVisualisation('{oops')).toEqual({ kind: 'table', reason: 'unparseable' });
    expect(parseVisualisation('[1]')).toEqual({ kind: 'table', reason: 'unparseable' });
    expect(parseVisualisation('{"vega":{}}')).toEqual({ kind: 'table', reason: 'unknown' });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"radar"}}')).toEqual({ kind: 'table', reason: 'unknown' });
    expect(parseVisualisation('{"__proto__":{"chartType":"bar"}}')).toEqual({ kind: 'table', reason: 'unknown' });
  });

  it('chartTypeOf ignores case and separators and refuses inherited names', () => {
    expect(chartTypeOf('horizontal-bar')).toBe('horizontalBar');
    expect(chartTypeOf('Doughnut')).toBe('doughnut');
    expect(chartTypeOf('constructor')).toBeNull();
    expect(googleChartTypeOf('toString', {})).toBeNull();
  });

  it('never throws and always names a known kind (property)', () => {
    const kinds = [...VISUALISATION_KINDS, 'chart', 'table'];
    const json = fc.oneof(hostileStringWithHuge, fc.jsonValue().map((v) => JSON.stringify(v)), fc.record({ k: fc.constantFrom(...VISUALISATION_KINDS), body: fc.jsonValue() }).map(({ k, body }) => JSON.stringify({ [k]: body })));
    fc.assert(fc.property(json, (text) => {
      const spec = parseVisualisation(text);
      expect(kinds).toContain(spec.kind);
    }));
  });
});

describe('chart types (by hand)', () => {
  it("maps each of Google's names, then falls back to ours", () => {
    const names: [string, string | null][] = [
      ['BarChart', 'horizontalBar'], ['ColumnChart', 'bar'], ['Bar', 'bar'], ['ComboChart', 'bar'], ['Histogram', 'bar'], ['LineChart', 'line'], ['Line', 'line'],
      ['AreaChart', 'area'], ['SteppedAreaChart', 'area'], ['ScatterChart', 'scatter'], ['Scatter', 'scatter'], ['BubbleChart', 'bubble'], ['PieChart', 'pie'],
      ['DonutChart', 'doughnut'], ['TreeMap', 'treemap'], [' Pie-Chart ', 'pie'], ['stepped_area chart', 'area'], ['doughnut', 'doughnut'], ['horizontal_bar', 'horizontalBar'], ['GeoChart', null], ['', null],
    ];
    expect(names.map(([name]) => [name, googleChartTypeOf(name, {})])).toEqual(names);
    expect(googleChartTypeOf(null, {})).toBeNull();
  });

  it('a Google bar is horizontal with bars: horizontal, a pie a doughnut with a positive pieHole', () => {
    expect([googleChartTypeOf('ColumnChart', { bars: 'horizontal' }), googleChartTypeOf('Bar', { bars: 'vertical' }), googleChartTypeOf('LineChart', { bars: 'horizontal' })]).toEqual(['horizontalBar', 'bar', 'line']);
    expect([googleChartTypeOf('PieChart', { pieHole: 0 }), googleChartTypeOf('PieChart', { pieHole: '0.5' }), googleChartTypeOf('PieChart', { pieHole: -1 }), googleChartTypeOf('BarChart', { pieHole: 0.5 })]).toEqual(['pie', 'pie', 'pie', 'horizontalBar']);
    expect(googleChartTypeOf('PieChart', Object.create({ pieHole: 0.5, bars: 'horizontal' }) as Record<string, unknown>)).toBe('pie');
    expect(googleChartTypeOf('Bar', Object.create({ bars: 'horizontal' }) as Record<string, unknown>)).toBe('bar');
  });

  it('chartTypeOf: our names in any case and with any separators, nothing else', () => {
    expect([null, ' Bar ', 'horizontal bar', 'HORIZONTAL_BAR', 'horizontalBar', 'pie_chart', 'tree-map', 'Scatter', 'radar', ''].map(chartTypeOf)).toEqual([null, 'bar', 'horizontalBar', 'horizontalBar', 'horizontalBar', null, 'treemap', 'scatter', null, null]);
  });
});

describe('parseVisualisation (whole values)', () => {
  it('a chart: stacked by isStacked or stacked (true only), or by a stacked axis of a chartjs-chart', () => {
    const chart = (text: string) => parseVisualisation(text);
    expect(chart('{"chartjs-chart":{"chartType":"line","options":{"isStacked":true}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'line', stacked: true, options: { isStacked: true } });
    expect(chart('{"chartjs-chart":{"chartType":"line","options":{"isStacked":"true","stacked":1}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'line', stacked: false, options: { isStacked: 'true', stacked: 1 } });
    expect(chart('{"google-chart":{"chartType":"LineChart","options":{"stacked":true}}}')).toEqual({ kind: 'chart', source: 'google-chart', chartType: 'line', stacked: true, options: { stacked: true } });
    expect(chart('{"google-chart":{"chartType":"Bar","options":{"bars":"horizontal","indexAxis":"x"}}}')).toEqual({ kind: 'chart', source: 'google-chart', chartType: 'horizontalBar', stacked: false, options: { bars: 'horizontal', indexAxis: 'x' } });
    expect(chart('{"chartjs-chart":{"chartType":"bar","options":{"scales":{"z":{"stacked":true},"y":{"stacked":false}}}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'bar', stacked: false, options: { scales: { z: { stacked: true }, y: { stacked: false } } } });
    expect(chart('{"chartjs-chart":{"chartType":"bar","options":{"scales":[{"stacked":true}]}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'bar', stacked: false, options: { scales: [{ stacked: true }] } });
    expect(chart('{"chartjs-chart":{"chartType":"bar","options":{"scales":{"y":{"stacked":true}},"indexAxis":"y"}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'horizontalBar', stacked: true, options: { scales: { y: { stacked: true } }, indexAxis: 'y' } });
    expect(chart('{"chartjs-chart":{"chartType":"horizontalBar","options":{"indexAxis":"y"}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'horizontalBar', stacked: false, options: { indexAxis: 'y' } });
    expect(chart('{"chartjs-chart":{"chartType":"bar","options":{"indexAxis":"x"}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'bar', stacked: false, options: { indexAxis: 'x' } });
    expect(chart('{"chartjs-chart":{"chartType":"line","options":{"indexAxis":"x"}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'line', stacked: false, options: { indexAxis: 'x' } });
    // a chartjs-chart reads chart.js names only, not Google's, and no pieHole
    expect(chart('{"chartjs-chart":{"chartType":"BarChart"}}')).toEqual({ kind: 'table', reason: 'unknown' });
    expect(chart('{"chartjs-chart":{"chartType":"pie","options":{"pieHole":0.5}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'pie', stacked: false, options: { pieHole: 0.5 } });
  });

  it('options and bodies that are not objects count as empty', () => {
    expect(parseVisualisation('{"mermaid":{"options":[1]}}')).toEqual({ kind: 'mermaid', options: {} });
    expect(parseVisualisation('{"html-table":5}')).toEqual({ kind: 'html-table', options: {} });
    expect(parseVisualisation('{"html-metric":{"options":{"a":1}}}')).toEqual({ kind: 'html-metric', options: { a: 1 } });
    expect(parseVisualisation('{"image":{"url":5,"options":{"b":2}}}')).toEqual({ kind: 'image', url: null, options: { b: 2 } });
    expect(parseVisualisation('{"chartjs-chart":5}')).toEqual({ kind: 'table', reason: 'unknown' });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":5}}')).toEqual({ kind: 'table', reason: 'unknown' });
    expect(parseVisualisation('{"google-chart":{"chartType":"GeoChart"}}')).toEqual({ kind: 'table', reason: 'unknown' });
  });

  it('the first known kind among the keys wins; text that is not an object is unparseable', () => {
    expect(parseVisualisation('{"vega":{},"carousel":{"options":{"a":1}},"image":{}}')).toEqual({ kind: 'carousel', options: { a: 1 } });
    expect(parseVisualisation('{"image":{},"carousel":{}}')).toEqual({ kind: 'image', url: null, options: {} });
    for (const text of ['null', '"x"', '1', '[]']) expect(parseVisualisation(text), text).toEqual({ kind: 'table', reason: 'unparseable' });
    expect(parseVisualisation(undefined)).toEqual({ kind: 'table', reason: 'none' });
    expect(parseVisualisation('{}')).toEqual({ kind: 'table', reason: 'unknown' });
  });
});
