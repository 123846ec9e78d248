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
