// CSV as RFC 4180 writes it, for a dataset's data downloaded by people who open it in a spreadsheet.

import { ownValue } from './ownValue';

const NEEDS_QUOTES = /[",\r\n]/;
// A text cell starting like a formula would be run by a spreadsheet (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The columns of a list of rows: every key, in order of first appearance. */
export function csvColumns(rows: readonly Record<string, unknown>[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) columns.add(key);
  return [...columns];
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(cell).join(',')}\r\n`;
}

/** One row's line under `columns` (a missing value is an empty cell). */
export function csvRow(columns: readonly string[], row: Record<string, unknown>): string {
  return csvLine(columns.map((c) => ownValue(row, c)));
}

/** A header line, then one line per row. */
export function toCsv(rows: readonly Record<string, unknown>[]): string {
  const columns = csvColumns(rows);
  return csvLine(columns) + rows.map((row) => csvRow(columns, row)).join('');
}
