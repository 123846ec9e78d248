// The chart.js configuration of a chart model: which controller, datasets, scales and the
// settings that keep many series and long labels legible (Metabase #21392, #18775).
import type { ChartConfiguration, ChartType as ChartJsType } from 'chart.js';
import { BUBBLE_MIN_RADIUS, truncateLabel, type ChartModel } from '../../../domain/visualisation/chartData';
import { chartJsOptions, mergeOptions } from '../../../domain/visualisation/options';
import { cssColour, textOn } from '../../../domain/visualisation/palette';

/** Past this many points a line draws no point markers and nothing animates. */
const MANY_POINTS = 200;

/** The chart.js type a model is drawn with: area is a filled line, horizontalBar a bar on the y axis. */
function chartJsType(model: ChartModel): ChartJsType {
  switch (model.chartType) {
    case 'area': return 'line';
    case 'horizontalBar': return 'bar';
    default: return model.chartType;
  }
}

/** A horizontal bar's value axes run along x: the model's 'y', 'y1'… become 'x', 'x1'… there. */
function valueAxisId(id: string, horizontal: boolean): string {
  return horizontal ? id.replace(/^y/, 'x') : id;
}

/** A treemap leaf: its label, value, colour index and whether its label is drawn. */
interface TreemapLeaf {
  label: string;
  value: number;
  index: number;
  showLabel: boolean;
}

function datasetsOf(model: ChartModel) {
  const points = model.labels.length;
  switch (model.chartType) {
    case 'pie':
    case 'doughnut':
      return model.series.map((series) => ({
        label: series.label,
        data: series.values.map((v) => v ?? 0),
        backgroundColor: model.categoryColours.map((c) => cssColour(c)),
        borderColor: '#ffffff',
        borderWidth: 1,
      }));
    case 'treemap': {
      const series = model.series[0];
      const tree: TreemapLeaf[] = (series?.values ?? []).map((v, index) => ({ label: model.labels[index] ?? '', value: Math.abs(v ?? 0), index, showLabel: model.tileLabelVisible[index] ?? false }));
      const leaf = (raw: unknown): TreemapLeaf | undefined => (raw as { _data?: TreemapLeaf } | undefined)?._data;
      const colour = (raw: unknown) => model.categoryColours[leaf(raw)?.index ?? 0] ?? [0, 0, 0];
      return [{
        label: series?.label ?? '',
        tree,
        key: 'value',
        data: [],
        spacing: 1,
        borderWidth: 1,
        borderColor: '#ffffff',
        backgroundColor: (ctx: { raw?: unknown }) => cssColour(colour(ctx.raw)),
        labels: {
          display: true,
          overflow: 'cut',
          font: { size: 14 },
          formatter: (ctx: { raw?: unknown }) => leaf(ctx.raw)?.label ?? '',
          // a tile under 20 % of the total keeps its label transparent (spec 002 §9)
          color: (ctx: { raw?: unknown }) => (leaf(ctx.raw)?.showLabel ? textOn(colour(ctx.raw)) : 'transparent'),
        },
      }];
    }
    case 'scatter':
      return model.series.map((series) => ({
        label: series.label,
        data: series.xs.map((x, i) => ({ x, y: series.values[i] ?? null })),
        backgroundColor: cssColour(series.colour, 0.7),
        borderColor: cssColour(series.colour),
        yAxisID: series.yAxisId,
      }));
    case 'bubble':
      // radii are the model's, already bounded; the tooltip reads the size behind each one
      // the legend says what the size means
      return model.series.map((series) => ({
        label: model.sizeLabel === null ? series.label : `${series.label} · size: ${model.sizeLabel}`,
        data: series.xs.map((x, i) => ({ x, y: series.values[i] ?? null, r: series.radii[i] ?? BUBBLE_MIN_RADIUS })),
        backgroundColor: cssColour(series.colour, 0.45),
        borderColor: cssColour(series.colour),
        borderWidth: 1,
        yAxisID: series.yAxisId,
      }));
    case 'line':
    case 'area':
      return model.series.map((series, index) => ({
        label: series.label,
        data: series.values,
        borderColor: cssColour(series.colour),
        backgroundColor: cssColour(series.colour, model.chartType === 'area' ? 0.25 : 1),
        fill: model.chartType === 'area' ? (model.stacked && index > 0 ? '-1' : 'origin') : false,
        pointRadius: points > MANY_POINTS ? 0 : 3,
        borderWidth: 2,
        spanGaps: true,
        tension: 0.2,
        // a curve never swings past its points (now that a line fits its data, it would leave the plot)
        cubicInterpolationMode: 'monotone',
        yAxisID: series.yAxisId,
      }));
    default:
      return model.series.map((series) => ({
        label: series.label,
        data: series.values,
        backgroundColor: cssColour(series.colour, 0.85),
        borderColor: cssColour(series.colour),
        borderWidth: 1,
        maxBarThickness: 48,
        ...(model.chartType === 'horizontalBar' ? { xAxisID: valueAxisId(series.yAxisId, true) } : { yAxisID: series.yAxisId }),
      }));
  }
}

/** Roughly how wide one character of a tick label is (12 px system font). */
const CHAR_PX = 7;

/** A category tick keeps at least this many characters: a common word ('processing', 'Enterprise') whole. */
const CATEGORY_LABEL_MIN = 12;

/**
 * How many characters a category tick may keep (CATEGORY_LABEL_MIN to the model's 50): down the
 * side of a horizontal bar chart about a third of the width, so a 375 px phone still shows bars;
 * along the bottom, whatever a category's own width holds upright, else what fits tilted 45
 * degrees in about a third of the height, so the labels do not squash the plot. Issue 38: a
 * card's 160 px cut 'processing' to 'processi…' with room to spare.
 */
export function categoryLabelRoom(axis: string, width: number, height: number, categories: number): number {
  const upright = width / Math.max(1, categories) / CHAR_PX - 1;
  const room = axis === 'y' ? (width * 0.33) / CHAR_PX : Math.max(upright, (height * 0.3) / (CHAR_PX * Math.SQRT1_2));
  return Math.min(Math.max(CATEGORY_LABEL_MIN, Math.floor(room)), 50);
}

/** A category tick cut to categoryLabelRoom. */
function fitCategoryLabel(this: { axis: string; chart: { width: number; height: number; data?: { labels?: unknown[] } }; getLabelForValue(value: number): string }, value: number | string): string {
  const label = typeof value === 'number' ? this.getLabelForValue(value) : value;
  return truncateLabel(label, categoryLabelRoom(this.axis, this.chart.width, this.chart.height, this.chart.data?.labels?.length ?? 1));
}

/** A compact preview's tick and legend text: the card is small, its labels need not be. */
const COMPACT_FONT = { size: 11 };

const BUBBLE_GRACE = '12%';

const STAND_ON_ZERO: ReadonlySet<ChartModel['chartType']> = new Set(['bar', 'horizontalBar', 'area']);

function scalesOf(model: ChartModel, compact: boolean) {
  if (model.chartType === 'pie' || model.chartType === 'doughnut' || model.chartType === 'treemap') return undefined;
  const horizontal = model.chartType === 'horizontalBar';
  const pointed = model.chartType === 'scatter' || model.chartType === 'bubble';
  // category ticks: skip what does not fit and tilt at most 45 degrees, so long labels never overlap
  const categories = {
    type: pointed ? 'linear' : 'category',
    stacked: model.stacked,
    ticks: {
      autoSkip: true,
      // labels stacked down a horizontal bar chart need little gap: with 8 px a card's seven
      // countries lost every other name (issue 38)
      autoSkipPadding: horizontal ? 2 : 8,
      maxRotation: horizontal ? 0 : 45,
      minRotation: 0,
      ...(pointed ? {} : { callback: fitCategoryLabel }),
      ...(compact ? { font: COMPACT_FONT } : {}),
    },
    grid: { display: false },
    // room for a bubble's radius at either end, so no bubble lies on an axis
    ...(model.chartType === 'bubble' ? { grace: BUBBLE_GRACE } : {}),
  };
  const values = Object.fromEntries(model.axes.map((axis) => [valueAxisId(axis.id, horizontal), {
    type: 'linear',
    position: horizontal ? (axis.position === 'left' ? 'bottom' : 'top') : axis.position,
    stacked: model.stacked,
    // bars and filled areas stand on zero; lines and points fit their data (chart.js's defaults,
    // as Matatika draws them: its 'Scale Start At 0' example asks for zero with beginAtZero)
    beginAtZero: STAND_ON_ZERO.has(model.chartType),
    // a card's horizontal bars need the height more than the value axis its title (the card names it)
    title: { display: axis.title !== '' && !(compact && horizontal), text: axis.title },
    grid: { drawOnChartArea: axis.id === 'y' },
    ticks: { maxTicksLimit: 8 },
    ...(model.chartType === 'bubble' ? { grace: BUBBLE_GRACE } : {}),
  }]));
  return horizontal ? { y: categories, ...values } : { x: categories, ...values };
}

/** A bubble's tooltip line: its series and y, and the size behind its radius when one sizes it. */
function bubbleLabel(model: ChartModel) {
  return (item: { datasetIndex: number; dataIndex: number; formattedValue?: string; parsed?: { y?: number | null } }): string => {
    const series = model.series[item.datasetIndex];
    const y = series?.values[item.dataIndex];
    const size = series?.sizes[item.dataIndex];
    const head = `${series?.label ?? ''}: ${y === null || y === undefined ? '–' : y.toLocaleString()}`;
    return model.sizeLabel === null ? head : `${head} (${model.sizeLabel}: ${size === null || size === undefined ? '–' : size.toLocaleString()})`;
  };
}

interface ChartConfigInput {
  model: ChartModel;
  /** chartjs-chart options from the visualisation JSON (google-chart options are not chart.js's) */
  userOptions: Record<string, unknown>;
  compact: boolean;
  /** a click on an element of the series (drill-down) */
  onSeriesClick: (seriesIndex: number) => void;
}

export function chartConfig({ model, userOptions, compact, onSeriesClick }: ChartConfigInput): ChartConfiguration {
  const points = model.labels.length * Math.max(1, model.series.length);
  const base: Record<string, unknown> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: points > MANY_POINTS ? false : { duration: 300 },
    normalized: true,
    plugins: {
      // a compact pie's legend (the only name of its slices) beside it, where a card has width to spare
      legend: compact
        ? { display: model.showLegend, position: 'right', labels: { boxWidth: 10, font: COMPACT_FONT } }
        : { display: model.showLegend, position: 'bottom', labels: { boxWidth: 12 } },
      tooltip: {
        enabled: !compact,
        callbacks: {
          // tooltips show the label in full; the axis shows it cut at 50 characters
          title: (items: { dataIndex: number }[]) => model.fullLabels[items[0]?.dataIndex ?? 0] ?? '',
          ...(model.chartType === 'bubble' ? { label: bubbleLabel(model) } : {}),
        },
      },
    },
  };
  const scales = scalesOf(model, compact);
  if (scales) base.scales = scales;
  // the dataset's own options may restyle the chart, never change its kind or its click handling
  const options = {
    ...mergeOptions(base, chartJsOptions(userOptions)),
    indexAxis: model.chartType === 'horizontalBar' ? 'y' : 'x',
    onClick: (_event: unknown, elements: { datasetIndex: number }[]) => {
      const element = elements[0];
      if (element) onSeriesClick(element.datasetIndex);
    },
    onHover: (event: { native?: Event | null }, elements: unknown[]) => {
      const target = event.native?.target;
      if (target instanceof HTMLElement) target.style.cursor = elements.length > 0 && model.series.some((s) => s.href) ? 'pointer' : 'default';
    },
  };
  return {
    type: chartJsType(model),
    data: { labels: model.labels, datasets: datasetsOf(model) },
    options,
  } as ChartConfiguration;
}

/** Height of the drawing area: horizontal bars grow with their categories so every label has room. */
export function chartHeight(model: ChartModel, compact: boolean): number {
  if (compact) return 160;
  if (model.chartType === 'horizontalBar') return Math.min(2_000, Math.max(320, model.labels.length * 24 + 80));
  return 360;
}
