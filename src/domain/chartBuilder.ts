// The Lab's chart builder (issue 20): a dataset's visualisation and metadata JSON read as a few
// choices (chart type, label columns, value columns, their labels, colours) and those choices
// written back into the same JSON. The builder owns only what it shows: the visualisation's kind
// and chartType, related_table's columns and aggregates (name and label) and the palette. Every
// other key the user typed is kept as it was, and an unchanged part keeps its very text. JSON the
// builder cannot read is reported and left alone. Pure: text in, text out.
import { chartTypeOf, CHART_TYPES, VISUALISATION_KINDS, type ChartType } from './visualisation/spec';
import { parseMetadata, type Rgb } from './visualisation/metadata';
import { colourAt, DEFAULT_PALETTE } from './visualisation/palette';
import { defaultLabel, keyOfName, nameOfKey, suggestColumns, type BuilderSource } from './chartBuilderColumns';
import { ownValue } from './ownValue';

/** What the builder makes: the spec's chart.js chart types, an html-table and an html-metric. */
export const BUILDER_KINDS = [...CHART_TYPES, 'table', 'metric'] as const;
export type BuilderKind = ChartType | 'table' | 'metric';

export const BUILDER_KIND_LABELS: Readonly<Record<BuilderKind, string>> = {
  bar: 'Bar',
  horizontalBar: 'Horizontal bar',
  line: 'Line',
  area: 'Area',
  scatter: 'Scatter',
  bubble: 'Bubble',
  pie: 'Pie',
  doughnut: 'Doughnut',
  treemap: 'Treemap',
  table: 'Table',
  metric: 'Metric',
};

/** Names of DEFAULT_PALETTE's colours, in its order (the builder's colour choices). */
export const PALETTE_COLOUR_NAMES = ['Blue', 'Orange', 'Green', 'Red', 'Purple', 'Teal', 'Rust', 'Indigo', 'Olive', 'Magenta', 'Forest', 'Grey'] as const;

/** A related_table entry as the builder shows it; label null when the JSON gives none (the name is shown). */
export interface BuilderColumn {
  readonly name: string;
  readonly label: string | null;
}

export interface ChartBuilderState {
  /** null: the visualisation names no kind yet */
  readonly kind: BuilderKind | null;
  /** related_table.columns: what names each bar, slice or point */
  readonly labels: readonly BuilderColumn[];
  /** related_table.aggregates: the numbers drawn, one series each */
  readonly values: readonly BuilderColumn[];
  readonly palette: readonly Rgb[] | null;
  /** metadata.name: rows may key columns as `{name}.{column}` (read only) */
  readonly metadataName: string | null;
}

type BuilderRead = { readonly ok: true; readonly state: ChartBuilderState } | { readonly ok: false; readonly problem: string };

export interface BuilderTexts {
  readonly visualisation: string;
  readonly metadata: string;
}

export type ChartEdit =
  | { readonly type: 'kind'; readonly kind: BuilderKind }
  /** preview keys, in the order chosen */
  | { readonly type: 'labelColumns'; readonly keys: readonly string[] }
  | { readonly type: 'valueColumns'; readonly keys: readonly string[] }
  /** '' goes back to showing the column's name */
  | { readonly type: 'columnLabel'; readonly role: 'label' | 'value'; readonly index: number; readonly label: string }
  | { readonly type: 'colour'; readonly index: number; readonly colour: Rgb };

const CHART_KEY = 'chartjs-chart';
const TABLE_KEY = 'html-table';
const METRIC_KEY = 'html-metric';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** A copy without one key; fromEntries defines keys, so a '__proto__' key stays plain data. */
const withoutKey = (source: Record<string, unknown>, key: string): Record<string, unknown> => Object.fromEntries(Object.entries(source).filter(([k]) => k !== key));

/** JSON text as a value, when it parses and can be written again (very deep nesting cannot). */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'is not valid JSON' };
  }
  try {
    JSON.stringify(value);
  } catch {
    return { ok: false, problem: 'is nested too deeply to be rewritten' };
  }
  return { ok: true, value };
}

const kindKeyOf = (kind: BuilderKind): string => (kind === 'table' ? TABLE_KEY : kind === 'metric' ? METRIC_KEY : CHART_KEY);

/** A label as parseMetadata reads it: text, or a number or boolean as text. */
function labelOf(entry: Record<string, unknown>): string | null {
  const label = ownValue(entry, 'label');
  return typeof label === 'string' ? label : typeof label === 'number' || typeof label === 'boolean' ? String(label) : null;
}

function readKind(text: string): { ok: true; kind: BuilderKind | null } | { ok: false; problem: string } {
  if (text.trim() === '') return { ok: true, kind: null };
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, problem: `The visualisation ${parsed.problem}.` };
  const json = parsed.value;
  if (!isObject(json)) return { ok: false, problem: 'The visualisation is not a JSON object.' };
  const kinds = Object.keys(json).filter((key) => (VISUALISATION_KINDS as readonly string[]).includes(key));
  if (kinds.length === 0) return Object.keys(json).length === 0 ? { ok: true, kind: null } : { ok: false, problem: 'The visualisation names no kind the builder knows (chartjs-chart, html-table, html-metric).' };
  if (kinds.length > 1) return { ok: false, problem: `The visualisation names several kinds (${kinds.join(', ')}).` };
  const key = kinds[0] ?? '';
  const body = ownValue(json, key);
  if (!isObject(body)) return { ok: false, problem: `The visualisation's ${key} is not a JSON object.` };
  if (key === TABLE_KEY) return { ok: true, kind: 'table' };
  if (key === METRIC_KEY) return { ok: true, kind: 'metric' };
  if (key !== CHART_KEY) return { ok: false, problem: `The builder makes chart.js charts, tables and metrics; a ${key} is edited as JSON.` };
  const name = ownValue(body, 'chartType');
  const chartType = typeof name === 'string' ? chartTypeOf(name) : null;
  if (chartType === null) return { ok: false, problem: `The chartType ${JSON.stringify(name) ?? 'undefined'} is not one of ${CHART_TYPES.join(', ')}.` };
  return { ok: true, kind: chartType };
}

function rawEntries(metadata: unknown, list: 'columns' | 'aggregates'): Record<string, unknown>[] {
  const table = isObject(metadata) ? ownValue(metadata, 'related_table') : undefined;
  const entries = isObject(table) ? ownValue(table, list) : undefined;
  return Array.isArray(entries) ? entries.filter(isObject) : [];
}

/** The builder's choices in a dataset's visualisation and metadata JSON, or why it cannot read them. */
export function readChartBuilder(texts: BuilderTexts): BuilderRead {
  const kind = readKind(texts.visualisation);
  if (!kind.ok) return { ok: false, problem: kind.problem };
  const result = parseMetadata(texts.metadata);
  if (!result.ok && result.reason !== 'missing') return { ok: false, problem: `${result.message} ${result.detail}` };
  const parsed = result.ok ? parseJson(texts.metadata) : { ok: true as const, value: {} };
  if (!parsed.ok) return { ok: false, problem: `The metadata ${parsed.problem}.` };
  // parseMetadata checked the shape: every entry is an object with a name
  const columns = (list: 'columns' | 'aggregates') => rawEntries(parsed.value, list).map((entry) => ({ name: String(ownValue(entry, 'name')), label: labelOf(entry) }));
  return {
    ok: true,
    state: {
      kind: kind.kind,
      labels: columns('columns'),
      values: columns('aggregates'),
      palette: result.ok ? result.metadata.palette : null,
      metadataName: result.ok ? result.metadata.name : null,
    },
  };
}

const sameColumns = (a: readonly BuilderColumn[], b: readonly BuilderColumn[]) => a.length === b.length && a.every((column, i) => column.name === b[i]?.name && column.label === b[i]?.label);
const samePalette = (a: readonly Rgb[] | null, b: readonly Rgb[] | null) =>
  a === null || b === null ? a === b : a.length === b.length && a.every((colour, i) => colour.every((c, j) => c === b[i]?.[j]));

const stringify = (value: unknown): string => JSON.stringify(value, null, 2);

function writeVisualisation(text: string, kind: BuilderKind): string {
  const json = text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  const key = kindKeyOf(kind);
  const oldKey = Object.keys(json).find((k) => (VISUALISATION_KINDS as readonly string[]).includes(k));
  const body = oldKey === key ? (ownValue(json, key) as Record<string, unknown>) : {};
  const newBody = key === CHART_KEY ? { ...body, chartType: kind } : body;
  // the kind keeps its place among the user's other keys; fromEntries defines keys ('__proto__' stays data)
  const entries = Object.entries(json).map(([k, v]): [string, unknown] => (k === oldKey ? [key, newBody] : [k, v]));
  if (oldKey === undefined) entries.push([key, newBody]);
  return stringify(Object.fromEntries(entries));
}

/** A related_table list with the builder's names and labels; entries it keeps carry their other keys. */
function writeEntries(originals: Record<string, unknown>[], columns: readonly BuilderColumn[]): Record<string, unknown>[] {
  const used = new Set<number>();
  return columns.map((column) => {
    const index = originals.findIndex((entry, i) => !used.has(i) && String(ownValue(entry, 'name')) === column.name);
    used.add(index);
    const original = originals[index];
    if (original === undefined) return column.label === null ? { name: column.name } : { name: column.name, label: column.label };
    if (labelOf(original) === column.label) return original;
    return column.label === null ? withoutKey(original, 'label') : { ...original, label: column.label };
  });
}

function writeMetadata(text: string, read: ChartBuilderState, state: ChartBuilderState): string {
  const json = text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  const table = ownValue(json, 'related_table');
  const related = isObject(table) ? table : {};
  const nextTable = {
    ...related,
    columns: writeEntries(rawEntries(json, 'columns'), state.labels),
    aggregates: writeEntries(rawEntries(json, 'aggregates'), state.values),
  };
  let next: Record<string, unknown> = { ...json, related_table: nextTable };
  if (!samePalette(read.palette, state.palette)) next = state.palette === null ? withoutKey(next, 'palette') : { ...next, palette: state.palette };
  return stringify(next);
}

/**
 * The JSON texts with the builder's choices written in. A part whose choices did not change keeps
 * its text; texts the builder cannot read come back as they are.
 */
export function writeChartBuilder(texts: BuilderTexts, state: ChartBuilderState): BuilderTexts {
  const read = readChartBuilder(texts);
  if (!read.ok) return texts;
  const visualisation = state.kind === read.state.kind || state.kind === null ? texts.visualisation : writeVisualisation(texts.visualisation, state.kind);
  const metadataChanged = !sameColumns(read.state.labels, state.labels) || !sameColumns(read.state.values, state.values) || !samePalette(read.state.palette, state.palette);
  return { visualisation, metadata: metadataChanged ? writeMetadata(texts.metadata, read.state, state) : texts.metadata };
}

function withColumns(current: readonly BuilderColumn[], keys: readonly string[], metadataName: string | null): BuilderColumn[] {
  const seen = new Set<string>();
  return keys.flatMap((key) => {
    const name = nameOfKey(key, metadataName);
    if (name.trim() === '' || seen.has(name)) return [];
    seen.add(name);
    return [current.find((column) => column.name === name) ?? { name, label: defaultLabel(key) }];
  });
}

const relabel = (columns: readonly BuilderColumn[], index: number, label: string): BuilderColumn[] =>
  columns.map((column, i) => (i === index ? { name: column.name, label: label === '' ? null : label } : column));

/** The builder's state after one edit; `source` is what the preview shows (for first suggestions). */
export function editChartBuilder(state: ChartBuilderState, edit: ChartEdit, source: BuilderSource): ChartBuilderState {
  switch (edit.type) {
    case 'kind': {
      if (!(BUILDER_KINDS as readonly string[]).includes(edit.kind)) return state;
      const fresh = state.labels.length === 0 && state.values.length === 0;
      if (!fresh) return { ...state, kind: edit.kind };
      const suggested = suggestColumns(source, edit.kind === 'scatter' || edit.kind === 'bubble');
      return { ...state, kind: edit.kind, labels: withColumns([], suggested.labels, state.metadataName), values: withColumns([], suggested.values, state.metadataName) };
    }
    case 'labelColumns':
      return { ...state, labels: withColumns(state.labels, edit.keys, state.metadataName) };
    case 'valueColumns':
      return { ...state, values: withColumns(state.values, edit.keys, state.metadataName) };
    case 'columnLabel':
      return edit.role === 'label' ? { ...state, labels: relabel(state.labels, edit.index, edit.label) } : { ...state, values: relabel(state.values, edit.index, edit.label) };
    case 'colour': {
      const index = Math.trunc(edit.index);
      const valid = Number.isFinite(index) && index >= 0 && index < 1000 && edit.colour.length === 3 && edit.colour.every((c) => Number.isInteger(c) && c >= 0 && c <= 255);
      if (!valid) return state;
      const base = state.palette ?? DEFAULT_PALETTE;
      // the palette grows to the slot, each new entry the colour that slot showed
      const palette = Array.from({ length: Math.max(base.length, index + 1) }, (_, i) => (i === index ? edit.colour : colourAt(i, state.palette)));
      return { ...state, palette };
    }
  }
}

/** One builder edit applied to the JSON texts; texts the builder cannot read come back as they are. */
export function applyChartEdit(texts: BuilderTexts, edit: ChartEdit, source: BuilderSource): BuilderTexts {
  const read = readChartBuilder(texts);
  if (!read.ok) return texts;
  return writeChartBuilder(texts, editChartBuilder(read.state, edit, source));
}

/** The preview key a builder column is read from (the qualified one when the preview has it). */
export const keysOfColumns = (columns: readonly BuilderColumn[], state: Pick<ChartBuilderState, 'metadataName'>, source: BuilderSource): string[] =>
  columns.map((column) => keyOfName(column.name, state.metadataName, source.columns));
