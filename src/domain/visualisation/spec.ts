// What a dataset's visualisation JSON asks for: which kind, which chart type, which options.

import { ownValue } from '../ownValue';

/** Chart types of spec 002 §3, and bubble (Matatika's chartjs-chart chart types, issue 19). */
export const CHART_TYPES = ['bar', 'line', 'area', 'scatter', 'bubble', 'pie', 'doughnut', 'treemap', 'horizontalBar'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** Visualisation kinds of spec 002 §3. */
export const VISUALISATION_KINDS = ['chartjs-chart', 'google-chart', 'handsontable-table', 'html-table', 'html-metric', 'mermaid', 'carousel', 'image'] as const;
type VisualisationKind = (typeof VISUALISATION_KINDS)[number];

export type JsonObject = Record<string, unknown>;

export type VisualisationSpec =
  /** chartjs-chart, or google-chart drawn by the same chart.js renderer */
  | { kind: 'chart'; source: 'chartjs-chart' | 'google-chart'; chartType: ChartType; stacked: boolean; options: JsonObject }
  | { kind: 'html-table' | 'html-metric' | 'handsontable-table' | 'mermaid' | 'carousel'; options: JsonObject }
  | { kind: 'image'; url: string | null; options: JsonObject }
  /** no visualisation, or one this build does not know: the rows are shown as a table */
  | { kind: 'table'; reason: 'none' | 'unparseable' | 'unknown' };

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function ownObject(source: JsonObject, key: string): JsonObject {
  const value = ownValue(source, key);
  return isObject(value) ? value : {};
}

function ownString(source: JsonObject, key: string): string | null {
  const value = ownValue(source, key);
  return typeof value === 'string' ? value : null;
}

/** chartType of a chartjs-chart, case-insensitively; 'horizontalbar' and 'horizontal-bar' are horizontalBar. */
export function chartTypeOf(name: string | null): ChartType | null {
  if (name === null) return null;
  const key = name.trim().toLowerCase().replace(/[-_\s]/g, '');
  if (key === 'horizontalbar') return 'horizontalBar';
  return (CHART_TYPES as readonly string[]).includes(key) ? (key as ChartType) : null;
}

/**
 * Google Charts' chartType names mapped to ours. Google's BarChart draws horizontal bars and its
 * ColumnChart vertical ones; the Material 'Bar' is vertical unless options.bars is 'horizontal';
 * a PieChart with a pieHole is a doughnut.
 */
const GOOGLE_CHART_TYPES: Record<string, ChartType> = {
  barchart: 'horizontalBar',
  columnchart: 'bar',
  bar: 'bar',
  combochart: 'bar',
  histogram: 'bar',
  linechart: 'line',
  line: 'line',
  areachart: 'area',
  steppedareachart: 'area',
  scatterchart: 'scatter',
  scatter: 'scatter',
  bubblechart: 'bubble',
  piechart: 'pie',
  donutchart: 'doughnut',
  treemap: 'treemap',
};

export function googleChartTypeOf(name: string | null, options: JsonObject): ChartType | null {
  if (name === null) return null;
  const key = name.trim().toLowerCase().replace(/[-_\s]/g, '');
  const mapped = ownValue(GOOGLE_CHART_TYPES, key) ?? chartTypeOf(name);
  if (!mapped) return null;
  if (mapped === 'bar' && ownString(options, 'bars') === 'horizontal') return 'horizontalBar';
  const pieHole = ownValue(options, 'pieHole');
  if (mapped === 'pie' && typeof pieHole === 'number' && pieHole > 0) return 'doughnut';
  return mapped;
}

/**
 * chart.js v3 has no horizontalBar: a bar chart with `indexAxis: 'y'` is one, and a horizontalBar
 * with `indexAxis: 'x'` is a plain bar. Other chart types keep their axis (our scales follow the type).
 */
function withIndexAxis(chartType: ChartType, options: JsonObject): ChartType {
  const indexAxis = ownString(options, 'indexAxis');
  if (chartType === 'bar' && indexAxis === 'y') return 'horizontalBar';
  if (chartType === 'horizontalBar' && indexAxis === 'x') return 'bar';
  return chartType;
}

/**
 * Matatika's stacked bar example stacks only `scales.x` (chart.js 2's `xAxes[0].stacked`). On its
 * own that lays the bars over each other; the example means them stacked, so a stacked axis in the
 * options makes the whole chart stacked, and the options (merged over ours) still say the last word.
 */
function stacksAnAxis(options: JsonObject): boolean {
  const scales = ownObject(options, 'scales');
  return ['x', 'y'].some((axis) => ownObject(scales, axis).stacked === true);
}

/**
 * Reads a dataset's visualisation JSON text. The first known kind among the object's own keys
 * wins; anything else (no text, bad JSON, an unknown kind or chart type) shows the rows as a table.
 */
export function parseVisualisation(text: string | null | undefined): VisualisationSpec {
  if (typeof text !== 'string' || text.trim() === '') return { kind: 'table', reason: 'none' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'table', reason: 'unparseable' };
  }
  if (!isObject(json)) return { kind: 'table', reason: 'unparseable' };
  const kind = Object.keys(json).find((key): key is VisualisationKind => (VISUALISATION_KINDS as readonly string[]).includes(key));
  if (!kind) return { kind: 'table', reason: 'unknown' };
  const body = ownObject(json, kind);
  const options = ownObject(body, 'options');
  switch (kind) {
    case 'chartjs-chart':
    case 'google-chart': {
      const name = ownString(body, 'chartType');
      const named = kind === 'chartjs-chart' ? chartTypeOf(name) : googleChartTypeOf(name, options);
      if (!named) return { kind: 'table', reason: 'unknown' };
      const chartType = kind === 'chartjs-chart' ? withIndexAxis(named, options) : named;
      const stacked = options.isStacked === true || options.stacked === true || (kind === 'chartjs-chart' && stacksAnAxis(options));
      return { kind: 'chart', source: kind, chartType, stacked, options };
    }
    case 'image':
      return { kind: 'image', url: ownString(body, 'url'), options };
    default:
      return { kind, options };
  }
}
