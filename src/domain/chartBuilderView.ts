// What the chart builder shows (issue 20): the column choices the preview offers, which are picked,
// one colour slot per series (or per slice, tile or metric background) and what is still missing.
// Pure: the JSON texts and the preview in, a description for the view out.
import { BUILDER_KIND_LABELS, keysOfColumns, PALETTE_COLOUR_NAMES, readChartBuilder, type BuilderKind, type BuilderTexts, type ChartBuilderState } from './chartBuilder';
import { numericColumns, type BuilderSource } from './chartBuilderColumns';
import { buildChartModel } from './visualisation/chartData';
import { parseMetadata, type Rgb } from './visualisation/metadata';
import { colourAt, DEFAULT_PALETTE } from './visualisation/palette';

export interface ColumnOption {
  readonly key: string;
  /** every value in the preview's first rows is a number */
  readonly numeric: boolean;
  /** false for a column the JSON names that the preview does not have */
  readonly inPreview: boolean;
}

export interface ColourSlot {
  /** what the colour paints: a series' label, a category, or 'Background' */
  readonly label: string;
  readonly colour: Rgb;
  /** the palette colour's name, null for a colour of the user's own */
  readonly colourName: string | null;
}

type BuilderView =
  | { readonly ok: false; readonly problem: string }
  | {
      readonly ok: true;
      readonly state: ChartBuilderState;
      readonly options: readonly ColumnOption[];
      readonly labelKeys: readonly string[];
      readonly valueKeys: readonly string[];
      readonly colourSlots: readonly ColourSlot[];
      /** what still stops the chart from being drawn as meant */
      readonly hints: readonly string[];
    };

/** Colour slots shown at most: the default palette's length, after which colours repeat. */
export const MAX_COLOUR_SLOTS = DEFAULT_PALETTE.length;

const SERIES_KINDS: readonly BuilderKind[] = ['bar', 'horizontalBar', 'line', 'area', 'scatter', 'bubble'];
const CATEGORY_KINDS = ['pie', 'doughnut', 'treemap'] as const;
const isCategoryKind = (kind: BuilderKind | null): kind is (typeof CATEGORY_KINDS)[number] => (CATEGORY_KINDS as readonly (BuilderKind | null)[]).includes(kind);

export function colourNameOf(colour: Rgb): string | null {
  const index = DEFAULT_PALETTE.findIndex((c) => c[0] === colour[0] && c[1] === colour[1] && c[2] === colour[2]);
  return index < 0 ? null : (PALETTE_COLOUR_NAMES[index] ?? null);
}

const slot = (label: string, index: number, palette: readonly Rgb[] | null): ColourSlot => {
  const colour = colourAt(index, palette);
  return { label, colour, colourName: colourNameOf(colour) };
};

function colourSlots(state: ChartBuilderState, texts: BuilderTexts, source: BuilderSource): ColourSlot[] {
  const { kind, palette } = state;
  if (kind === 'metric') return [slot('Background', 0, palette)];
  // a bubble chart's last value column sizes the bubbles: it has no colour of its own
  const drawn = kind === 'bubble' && state.values.length > 1 ? state.values.slice(0, -1) : state.values;
  if (kind !== null && SERIES_KINDS.includes(kind)) return drawn.slice(0, MAX_COLOUR_SLOTS).map((value, i) => slot(value.label ?? value.name, i, palette));
  if (!isCategoryKind(kind)) return [];
  // slices and tiles are coloured per category: the preview's categories, as the chart names them
  const chart = buildChartModel({ chartType: kind, stacked: false, metadata: parseMetadata(texts.metadata), rows: source.rows, datasetHref: (alias) => alias, compact: true });
  return chart.ok ? chart.model.fullLabels.slice(0, MAX_COLOUR_SLOTS).map((label, i) => slot(label, i, palette)) : [];
}

function hintsOf(state: ChartBuilderState, options: readonly ColumnOption[], labelKeys: readonly string[], valueKeys: readonly string[], source: BuilderSource): string[] {
  const hints: string[] = [];
  const option = (key: string) => options.find((o) => o.key === key);
  if (state.kind === null) hints.push('Pick a chart type.');
  if (source.columns.length === 0) hints.push('Run the query (or give raw data) to pick from its columns.');
  const charted = state.kind !== null && state.kind !== 'table';
  if (charted && state.values.length === 0) hints.push('Pick a value column: its numbers are drawn.');
  if (source.columns.length > 0) {
    for (const key of [...labelKeys, ...valueKeys]) if (option(key)?.inPreview === false) hints.push(`${key} is not a column of the preview.`);
    if (charted) for (const key of valueKeys) if (option(key)?.inPreview === true && option(key)?.numeric === false) hints.push(`${key} has no numbers in the preview.`);
    const first = labelKeys[0];
    if ((state.kind === 'scatter' || state.kind === 'bubble') && first !== undefined && option(first)?.numeric === false) hints.push(`A ${state.kind} chart places its points by the first label column: ${first} has no numbers.`);
  }
  if (state.kind === 'treemap' && state.values.length > 1) hints.push('A treemap draws its first value column only.');
  return hints;
}

/** The builder as the view shows it, or why it cannot read the JSON. */
export function describeChartBuilder(texts: BuilderTexts, source: BuilderSource): BuilderView {
  const read = readChartBuilder(texts);
  if (!read.ok) return read;
  const { state } = read;
  const numeric = numericColumns(source);
  const labelKeys = keysOfColumns(state.labels, state, source);
  const valueKeys = keysOfColumns(state.values, state, source);
  const named = [...labelKeys, ...valueKeys].filter((key, i, all) => !source.columns.includes(key) && all.indexOf(key) === i);
  const options: ColumnOption[] = [
    ...source.columns.map((key) => ({ key, numeric: numeric.has(key), inPreview: true })),
    ...named.map((key) => ({ key, numeric: false, inPreview: false })),
  ];
  return { ok: true, state, options, labelKeys, valueKeys, colourSlots: colourSlots(state, texts, source), hints: hintsOf(state, options, labelKeys, valueKeys, source) };
}

export const kindLabel = (kind: BuilderKind | null): string => (kind === null ? '' : BUILDER_KIND_LABELS[kind]);
