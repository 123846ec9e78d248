// html-metric: each row's values as big figures with their labels, on the first palette colour.
import { columnValue, type DatasetMetadata } from './metadata';
import { TABLE_ROW_LIMIT } from './messages';
import { colourAt } from './palette';
import type { Rgb } from './metadata';
import { cellText } from './table';

export interface MetricFigure {
  label: string;
  value: string;
  /** the value as a finite number, for locale formatting; null when it is not one */
  number: number | null;
}

const asNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export interface MetricModel {
  /** one group of figures per shown row (at most 10) */
  rows: MetricFigure[][];
  total: number;
  background: Rgb;
}

/**
 * The figures of a metric. With metadata, the aggregates are the figures and the columns name
 * them; without it, every key of the row is a figure.
 */
export function buildMetric(rows: readonly Readonly<Record<string, unknown>>[], metadata: DatasetMetadata | null, limit: number = TABLE_ROW_LIMIT): MetricModel {
  const shown = rows.slice(0, Math.max(0, limit));
  const figures = shown.map((row) => {
    if (metadata && metadata.aggregates.length > 0) {
      const caption = metadata.columns.map((column) => cellText(columnValue(row, metadata.name, column))).filter(Boolean).join(' / ');
      return metadata.aggregates.map((aggregate) => {
        const value = columnValue(row, metadata.name, aggregate);
        return { label: caption ? `${aggregate.label} (${caption})` : aggregate.label, value: cellText(value), number: asNumber(value) };
      });
    }
    return Object.keys(row).map((key) => ({ label: key, value: cellText(row[key]), number: asNumber(row[key]) }));
  });
  return { rows: figures, total: rows.length, background: colourAt(0, metadata?.palette ?? null) };
}
