import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from '../hostile.fixture';
import { chartTypeOf, googleChartTypeOf, parseVisualisation, VISUALISATION_KINDS } from './spec';

describe('parseVisualisation', () => {
  it('reads a chartjs-chart with its type and options', () => {
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"bar","options":{"stacked":true}}}')).toEqual({ kind: 'chart', source: 'chartjs-chart', chartType: 'bar', stacked: true, options: { stacked: true } });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"horizontalBar"}}')).toMatchObject({ chartType: 'horizontalBar' });
    expect(parseVisualisation('{"chartjs-chart":{"chartType":"AREA"}}')).toMatchObject({ chartType: 'area' });
  });

  it("maps Google's chart names to ours", () => {
    expect(parseVisualisation('{"google-chart":{"chartType":"BarChart"}}')).toMatchObject({ kind: 'chart', source: 'google-chart', chartType: 'horizontalBar' });
    expect(parseVisualisation('{"google-chart":{"chartType":"ColumnChart","options":{"isStacked":true}}}')).toMatchObject({ chartType: 'bar', stacked: true });
    expect(googleChartTypeOf('Bar', { bars: 'horizontal' })).toBe('horizontalBar');
    expect(googleChartTypeOf('PieChart', { pieHole: 0.4 })).toBe('doughnut');
    expect(googleChartTypeOf('PieChart', {})).toBe('pie');
    expect(googleChartTypeOf('TreeMap', {})).toBe('treemap');
    expect(googleChartTypeOf('AreaChart', {})).toBe('area');
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
