// The chart builder's columns (issue 20): which rows it offers columns from, which of them hold
// numbers, the first choice it suggests, how a preview key and a related_table name map to each
// other, and the label a newly picked column starts with. Pure.
import { rawDataRows } from './datasetEditor';
import type { DatasetPreview } from './resources';
import { toNumber } from './visualisation/chartData';
import { tableColumns } from './visualisation/table';
import { ownValue } from './ownValue';

/** The preview's columns and rows the builder picks from. */
export interface BuilderSource {
  readonly columns: readonly string[];
  readonly rows: readonly Readonly<Record<string, unknown>>[];
}

export const EMPTY_SOURCE: BuilderSource = { columns: [], rows: [] };

/** How many rows are looked at to tell a column of numbers. */
const SAMPLE_ROWS = 100;
/** How many value columns a first suggestion picks: more series than this crowd a first chart. */
const SUGGESTED_VALUES = 3;

/**
 * What the editor previews: the query's rows when there is a query (none until it has run), else
 * the raw data's JSON rows. The chart preview draws the same rows.
 */
export function builderSource(values: { readonly query: string; readonly rawData: string }, preview: Pick<DatasetPreview, 'columns' | 'rows'> | null): BuilderSource {
  if (values.query.trim() !== '') return preview === null ? EMPTY_SOURCE : { columns: preview.columns, rows: preview.rows };
  const rows = rawDataRows(values.rawData) ?? [];
  return { columns: tableColumns(rows), rows };
}

/** The columns whose values in the first rows are all numbers (or empty), at least one of them a number. */
export function numericColumns(source: BuilderSource): Set<string> {
  const sample = source.rows.slice(0, SAMPLE_ROWS);
  return new Set(
    source.columns.filter((column) => {
      const values = sample.map((row) => ownValue(row, column)).filter((value) => value !== null && value !== undefined && value !== '');
      return values.length > 0 && values.every((value) => toNumber(value) !== null);
    }),
  );
}

/**
 * A first choice for a fresh chart: the first column of text names the points (for a scatter,
 * the first column of numbers places them), and the other columns of numbers are drawn.
 */
export function suggestColumns(source: BuilderSource, numericLabel: boolean): { labels: string[]; values: string[] } {
  const numeric = numericColumns(source);
  const label = numericLabel ? source.columns.find((c) => numeric.has(c)) : (source.columns.find((c) => !numeric.has(c)) ?? source.columns[0]);
  const values = source.columns.filter((c) => c !== label && numeric.has(c)).slice(0, SUGGESTED_VALUES);
  return { labels: label === undefined ? [] : [label], values };
}

/** The related_table name of a preview key: `{metadata name}.x` is x, any other key is itself. */
export function nameOfKey(key: string, metadataName: string | null): string {
  if (metadataName === null || metadataName === '') return key;
  const prefix = `${metadataName}.`;
  return key.startsWith(prefix) && key.length > prefix.length ? key.slice(prefix.length) : key;
}

/** The preview key a related_table name is read from, as the renderers read it: the qualified key wins. */
export function keyOfName(name: string, metadataName: string | null, columns: readonly string[]): string {
  if (metadataName !== null && metadataName !== '' && columns.includes(`${metadataName}.${name}`)) return `${metadataName}.${name}`;
  return name;
}

/** A column's first label: its last dotted part, underscores and dashes as spaces, capitalised ('orders.order_count' → 'Order count'). */
export function defaultLabel(key: string): string {
  const last = key.slice(key.lastIndexOf('.') + 1);
  const words = last.replace(/[_-]+/gu, ' ').replace(/\s+/gu, ' ').trim();
  if (words === '') return key;
  const [first = '', ...rest] = Array.from(words);
  return first.toUpperCase() + rest.join('');
}
