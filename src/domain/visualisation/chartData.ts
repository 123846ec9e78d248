// The chart data model: rows and metadata turned into labels, series, axes, colours and
// drill-down links, independent of the drawing library. Every failure is a §5 message.
import { resolveLink } from './links';
import { columnValue, type DatasetMetadata, type MetadataLink, type MetadataResult, type Rgb } from './metadata';
import { CHART_HAS_NO_METADATA, CHART_LABEL_MAX, METADATA_NOT_WELL_FORMED, NO_DATA_TO_DISPLAY, ROW_DATA_NONCONFORMING, TREEMAP_LABEL_MIN_SHARE } from './messages';
import { colourAt } from './palette';
import type { ChartType } from './spec';
import { cellText } from './table';

/** A legend with more entries than this is hidden: it would bury the chart (Metabase #21392). */
export const LEGEND_MAX_ENTRIES = 12;
/** Pie and doughnut keep this many slices and sum the rest into 'Other' (thin slices are unreadable). */
export const PIE_MAX_SLICES = 20;
export const OTHER_LABEL = 'Other';
/** A bubble's radius in px is bounded whatever the data says (a hostile size cannot cover the page). */
export const BUBBLE_MIN_RADIUS = 3;
export const BUBBLE_MAX_RADIUS = 30;
/** In a compact preview the biggest bubble is smaller. */
export const BUBBLE_MAX_RADIUS_COMPACT = 12;
/** Bubbles drawn all one size, when no aggregate sizes them. */
export const BUBBLE_PLAIN_RADIUS = 6;

/**
 * Bubble radii from the size aggregate's values: a bubble's area follows its value (radius by the
 * square root of value over the largest value), from BUBBLE_MIN_RADIUS to the maximum. Zero,
 * negative and missing sizes get the smallest bubble.
 */
export function bubbleRadii(sizes: readonly (number | null)[], maxRadius: number = BUBBLE_MAX_RADIUS): number[] {
  const largest = sizes.reduce<number>((max, size) => (size !== null && size > max ? size : max), 0);
  return sizes.map((size) => {
    if (size === null || size <= 0 || largest <= 0) return BUBBLE_MIN_RADIUS;
    const share = Math.sqrt(Math.min(1, size / largest));
    return Math.round((BUBBLE_MIN_RADIUS + (maxRadius - BUBBLE_MIN_RADIUS) * share) * 10) / 10;
  });
}

export interface ChartSeries {
  label: string;
  /** one value per label; null where a row has no number */
  values: (number | null)[];
  /** scatter and bubble: x of each point (the first column when numeric, else the row's position) */
  xs: number[];
  /** bubble only: each bubble's radius in px, BUBBLE_MIN_RADIUS to BUBBLE_MAX_RADIUS (empty otherwise) */
  radii: number[];
  /** bubble only: the size aggregate's value behind each radius, for the tooltip (empty otherwise) */
  sizes: (number | null)[];
  yAxisId: string;
  colour: Rgb;
  /** where a click on this series goes, when the aggregate or the metadata has a link */
  href: string | null;
}

export interface ChartAxis {
  id: string;
  title: string;
  position: 'left' | 'right';
}

export interface ChartModel {
  chartType: ChartType;
  stacked: boolean;
  /** category labels, truncated to 50 characters */
  labels: string[];
  /** the same labels in full (tooltips) */
  fullLabels: string[];
  series: ChartSeries[];
  axes: ChartAxis[];
  /** pie, doughnut and treemap colour each category rather than each series */
  categoryColours: Rgb[];
  /** treemap: whether each category's tile is big enough (20 % of the total) for its label */
  tileLabelVisible: boolean[];
  showLegend: boolean;
  /** bubble: the label of the aggregate that sizes the bubbles (null when they are all one size) */
  sizeLabel: string | null;
}

type ChartModelResult = { ok: true; model: ChartModel } | { ok: false; message: string; detail: string | null };

/** A label cut to 50 characters with an ellipsis (the cut keeps surrogate pairs whole). */
export function truncateLabel(text: string, max: number = CHART_LABEL_MAX): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** A cell as a number for the chart: finite numbers and numeric text; anything else is a gap. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** Aggregates sharing a yaxis share an axis; the first group is on the left, the others alternate. */
export function groupAxes(metadata: DatasetMetadata): { axes: ChartAxis[]; axisOf: string[] } {
  const groups = new Map<string, ChartAxis>();
  const axisOf = metadata.aggregates.map((aggregate) => {
    const key = aggregate.yaxis?.trim() || (metadata.aggregates.some((a) => a.yaxis?.trim()) ? aggregate.name : '');
    let axis = groups.get(key);
    if (!axis) {
      const index = groups.size;
      axis = { id: index === 0 ? 'y' : `y${index}`, title: key || (metadata.aggregates.length === 1 ? aggregate.label : ''), position: index % 2 === 0 ? 'left' : 'right' };
      groups.set(key, axis);
    }
    return axis.id;
  });
  return { axes: [...groups.values()], axisOf };
}

function firstLink(links: MetadataLink[], fallback: MetadataLink[]): MetadataLink | null {
  return links[0] ?? fallback[0] ?? null;
}

function keysOf(rows: readonly Readonly<Record<string, unknown>>[]): string[] {
  const keys = new Set<string>();
  for (const row of rows.slice(0, 100)) if (row && typeof row === 'object') Object.keys(row).forEach((key) => keys.add(key));
  return [...keys];
}

/** 'expected keys: a, b; actual keys: c' for the row-data message. */
export function keysDetail(expected: readonly string[], actual: readonly string[]): string {
  return `expected keys: ${expected.join(', ')}; actual keys: ${actual.length > 0 ? actual.join(', ') : '(none)'}`;
}

/** Sums the categories past the biggest PIE_MAX_SLICES into one 'Other' slice. */
function limitSlices(labels: string[], values: (number | null)[]): { labels: string[]; values: (number | null)[] } {
  if (labels.length <= PIE_MAX_SLICES) return { labels, values };
  const order = values.map((value, index) => ({ value: value ?? 0, index })).sort((a, b) => b.value - a.value);
  const kept = order.slice(0, PIE_MAX_SLICES - 1).map((entry) => entry.index).sort((a, b) => a - b);
  const rest = order.slice(PIE_MAX_SLICES - 1).reduce((sum, entry) => sum + entry.value, 0);
  return { labels: [...kept.map((i) => labels[i] ?? ''), OTHER_LABEL], values: [...kept.map((i) => values[i] ?? null), rest] };
}

export interface ChartRequest {
  chartType: ChartType;
  stacked: boolean;
  metadata: MetadataResult;
  rows: readonly Readonly<Record<string, unknown>>[];
  datasetHref: (alias: string) => string;
  compact: boolean;
}

/** Builds the chart model, or the §5 message that replaces the chart. */
export function buildChartModel({ chartType, stacked, metadata: result, rows, datasetHref, compact }: ChartRequest): ChartModelResult {
  if (!result.ok) {
    if (result.reason === 'missing') return { ok: false, message: CHART_HAS_NO_METADATA, detail: null };
    return { ok: false, message: result.message, detail: result.detail };
  }
  const metadata = result.metadata;
  if (metadata.aggregates.length === 0) return { ok: false, message: METADATA_NOT_WELL_FORMED, detail: 'related_table needs at least one aggregate to chart' };
  if (rows.length === 0) return { ok: false, message: NO_DATA_TO_DISPLAY, detail: null };

  const values = metadata.aggregates.map((aggregate) => rows.map((row) => toNumber(columnValue(row, metadata.name, aggregate))));
  if (values.every((series) => series.every((value) => value === null))) {
    const expected = [...metadata.columns, ...metadata.aggregates].map((column) => column.name);
    return { ok: false, message: ROW_DATA_NONCONFORMING, detail: keysDetail(expected, keysOf(rows)) };
  }

  const hrefs: (string | null)[] = [];
  for (const aggregate of metadata.aggregates) {
    const link = firstLink(aggregate.links, metadata.links);
    if (!link) {
      hrefs.push(null);
      continue;
    }
    const resolved = resolveLink(link, datasetHref);
    if (!resolved.ok) return { ok: false, message: resolved.message, detail: resolved.detail };
    hrefs.push(resolved.href);
  }

  let fullLabels = rows.map((row, index) => {
    const parts = metadata.columns.map((column) => cellText(columnValue(row, metadata.name, column))).filter((part) => part !== '');
    return parts.length > 0 ? parts.join(' / ') : String(index + 1);
  });
  const firstColumn = metadata.columns[0];
  const xs = rows.map((row, index) => (firstColumn ? toNumber(columnValue(row, metadata.name, firstColumn)) : null) ?? index + 1);

  // a bubble's size aggregate has no axis of its own
  const sized = chartType === 'bubble' && metadata.aggregates.length > 1;
  const { axes, axisOf } = groupAxes(sized ? { ...metadata, aggregates: metadata.aggregates.slice(0, -1) } : metadata);
  const perCategory = chartType === 'pie' || chartType === 'doughnut' || chartType === 'treemap';
  if ((chartType === 'pie' || chartType === 'doughnut') && rows.length === 1 && metadata.aggregates.length > 1) {
    return { ok: true, model: aggregatesAsSlices(chartType, stacked, metadata, values, hrefs, fullLabels[0] ?? '') };
  }
  let seriesValues = values;
  if (chartType === 'pie' || chartType === 'doughnut') {
    // past 20 slices only the first aggregate is drawn, its smallest slices summed into 'Other'
    if (fullLabels.length > PIE_MAX_SLICES) {
      const limited = limitSlices(fullLabels, values[0] ?? []);
      seriesValues = [limited.values];
      fullLabels = limited.labels;
    }
  }
  if (chartType === 'treemap') seriesValues = values.slice(0, 1);
  // bubble: with two or more aggregates the last one sizes the bubbles; the others are drawn
  const sizeAggregate = sized ? metadata.aggregates.at(-1) : undefined;
  const sizes = sizeAggregate ? (values.at(-1) ?? []) : [];
  if (sizeAggregate) seriesValues = values.slice(0, -1);
  const radii = chartType !== 'bubble' ? [] : sizeAggregate ? bubbleRadii(sizes, compact ? BUBBLE_MAX_RADIUS_COMPACT : BUBBLE_MAX_RADIUS) : rows.map(() => BUBBLE_PLAIN_RADIUS);

  const series: ChartSeries[] = seriesValues.map((data, index) => {
    const aggregate = metadata.aggregates[index];
    return {
      label: aggregate?.label ?? '',
      values: data,
      xs,
      radii,
      sizes,
      yAxisId: axisOf[index] ?? 'y',
      colour: colourAt(index, metadata.palette),
      href: hrefs[index] ?? null,
    };
  });

  const first = series[0]?.values ?? [];
  const total = first.reduce<number>((sum, value) => sum + Math.abs(value ?? 0), 0);
  const tileLabelVisible = first.map((value) => total > 0 && Math.abs(value ?? 0) / total >= TREEMAP_LABEL_MIN_SHARE);
  const legendEntries = perCategory ? fullLabels.length : series.length;

  return {
    ok: true,
    model: {
      chartType,
      stacked,
      labels: fullLabels.map((label) => truncateLabel(label)),
      fullLabels,
      series,
      axes: perCategory ? [] : axes,
      categoryColours: fullLabels.map((_, index) => colourAt(index, metadata.palette)),
      tileLabelVisible,
      // a sized bubble chart's legend says what the size means, even for one series; a compact
      // preview keeps only a pie's or doughnut's, whose colours name nothing without it (issue 38)
      showLegend: (!compact || slicesNamedByLegend(chartType)) && chartType !== 'treemap' && (legendEntries > 1 || sizeAggregate !== undefined) && legendEntries <= LEGEND_MAX_ENTRIES,
      sizeLabel: sizeAggregate ? sizeAggregate.label || sizeAggregate.name : null,
    },
  };
}

/** A pie's or doughnut's slices carry no label of their own: the legend is their only name. */
export function slicesNamedByLegend(chartType: ChartType): boolean {
  return chartType === 'pie' || chartType === 'doughnut';
}

/**
 * One row with several aggregates as a pie or doughnut (Matatika's basic doughnut and pie examples:
 * visitors and sales of one shop; visitors per weekday): one slice per aggregate, labelled by the
 * aggregate's label, as Matatika's chart component draws it, rather than one one-slice ring each.
 * A click goes to the aggregates' link only when they share one: a slice has no link of its own.
 */
function aggregatesAsSlices(
  chartType: ChartType,
  stacked: boolean,
  metadata: DatasetMetadata,
  values: (number | null)[][],
  hrefs: (string | null)[],
  rowLabel: string,
): ChartModel {
  const fullLabels = metadata.aggregates.map((aggregate) => aggregate.label || aggregate.name);
  const href = hrefs.every((h) => h === hrefs[0]) ? (hrefs[0] ?? null) : null;
  return {
    chartType,
    stacked,
    labels: fullLabels.map((label) => truncateLabel(label)),
    fullLabels,
    series: [{ label: rowLabel, values: values.map((series) => series[0] ?? null), xs: fullLabels.map((_, i) => i + 1), radii: [], sizes: [], yAxisId: 'y', colour: colourAt(0, metadata.palette), href }],
    axes: [],
    categoryColours: fullLabels.map((_, index) => colourAt(index, metadata.palette)),
    tileLabelVisible: fullLabels.map(() => true),
    // the legend names the slices, in a compact preview too (issue 38)
    showLegend: fullLabels.length > 1 && fullLabels.length <= LEGEND_MAX_ENTRIES,
    sizeLabel: null,
  };
}
