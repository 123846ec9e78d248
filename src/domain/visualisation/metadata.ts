// A dataset's metadata JSON: its name, label, links, palette and related_table (columns and
// aggregates), read defensively, and how a column's value is found in a data row.
import { compileExpression, ExpressionError, type CompiledExpression } from './expression';
import { METADATA_NOT_WELL_FORMED, METADATA_UNPARSEABLE } from './messages';
import { ownValue } from '../ownValue';

/** A drill-down link: to another dataset by alias, or to an address. */
export interface MetadataLink {
  dataset: string | null;
  href: string | null;
  label: string | null;
}

export interface MetadataColumn {
  name: string;
  label: string;
  description: string | null;
  type: string | null;
  /** aggregates with the same yaxis share a y axis; different ones get their own */
  yaxis: string | null;
  links: MetadataLink[];
  /** applied to every value of the column before it is shown (post_process_expr wins over post_process) */
  postProcess: CompiledExpression | null;
}

export type Rgb = readonly [number, number, number];

export interface DatasetMetadata {
  name: string | null;
  label: string | null;
  links: MetadataLink[];
  palette: Rgb[] | null;
  columns: MetadataColumn[];
  aggregates: MetadataColumn[];
}

export type MetadataResult =
  | { ok: true; metadata: DatasetMetadata }
  /** no metadata text at all */
  | { ok: false; reason: 'missing' }
  /** message is one of spec 002 §5's; detail is the parser's complaint or the offending text */
  | { ok: false; reason: 'unparseable' | 'malformed'; message: string; detail: string };

/** How much of the offending text a 'not well formed' report quotes. */
const DETAIL_MAX = 500;

class Malformed extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function optionalString(source: Record<string, unknown>, key: string, where: string): string | null {
  const value = ownValue(source, key);
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Malformed(`${where}.${key} must be text`);
}

function readLinks(value: unknown, where: string): MetadataLink[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list.map((item, index) => {
    if (!isObject(item)) throw new Malformed(`${where}.links[${index}] must be an object`);
    const at = `${where}.links[${index}]`;
    return { dataset: optionalString(item, 'dataset', at), href: optionalString(item, 'href', at), label: optionalString(item, 'label', at) };
  });
}

/** post_process "json_parse" is JSON.parse; post_process_expr is the restricted evaluator's expression. */
function readPostProcess(column: Record<string, unknown>, where: string): CompiledExpression | null {
  const expression = optionalString(column, 'post_process_expr', where);
  const named = optionalString(column, 'post_process', where);
  try {
    if (expression !== null && expression.trim() !== '') return compileExpression(expression);
    if (named === null || named.trim() === '') return null;
    if (named.trim().toLowerCase() === 'json_parse') return compileExpression('JSON.parse');
  } catch (error) {
    if (error instanceof ExpressionError) throw new Malformed(`${where}.post_process_expr: ${error.message}`);
    throw error;
  }
  throw new Malformed(`${where}.post_process '${named}' is unknown (json_parse is the one named post-process)`);
}

function readColumns(value: unknown, where: string): MetadataColumn[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Malformed(`${where} must be a list`);
  return (value as unknown[]).map((item, index) => {
    const at = `${where}[${index}]`;
    if (!isObject(item)) throw new Malformed(`${at} must be an object`);
    const name = optionalString(item, 'name', at);
    if (name === null || name.trim() === '') throw new Malformed(`${at} needs a name`);
    return {
      name,
      label: optionalString(item, 'label', at) ?? name,
      description: optionalString(item, 'description', at),
      type: optionalString(item, 'type', at),
      yaxis: optionalString(item, 'yaxis', at),
      links: readLinks(ownValue(item, 'links'), at),
      postProcess: readPostProcess(item, at),
    };
  });
}

function readPalette(value: unknown): Rgb[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new Malformed('palette must be a list of [r, g, b]');
  const colours = (value as unknown[]).map((entry, index) => {
    const valid = Array.isArray(entry) && entry.length >= 3 && (entry as unknown[]).slice(0, 3).every((c) => typeof c === 'number' && Number.isFinite(c) && c >= 0 && c <= 255);
    if (!valid) throw new Malformed(`palette[${index}] must be [r, g, b] with 0 to 255 each`);
    const [r, g, b] = entry as number[];
    return [Math.round(r ?? 0), Math.round(g ?? 0), Math.round(b ?? 0)] as const;
  });
  return colours.length > 0 ? colours : null;
}

/** Reads metadata JSON text; every failure is a §5 message with its detail, never a throw. */
export function parseMetadata(text: string | null | undefined): MetadataResult {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, reason: 'missing' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: 'unparseable', message: METADATA_UNPARSEABLE, detail: error instanceof Error ? error.message : 'invalid JSON' };
  }
  try {
    if (!isObject(json)) throw new Malformed('metadata must be an object');
    const table = ownValue(json, 'related_table');
    if (table !== undefined && table !== null && !isObject(table)) throw new Malformed('related_table must be an object');
    const related = isObject(table) ? table : {};
    return {
      ok: true,
      metadata: {
        name: optionalString(json, 'name', 'metadata'),
        label: optionalString(json, 'label', 'metadata'),
        links: readLinks(ownValue(json, 'links'), 'metadata'),
        palette: readPalette(ownValue(json, 'palette')),
        columns: readColumns(ownValue(related, 'columns'), 'related_table.columns'),
        aggregates: readColumns(ownValue(related, 'aggregates'), 'related_table.aggregates'),
      },
    };
  } catch (error) {
    if (!(error instanceof Malformed)) throw error;
    const quoted = text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX)}…` : text;
    return { ok: false, reason: 'malformed', message: METADATA_NOT_WELL_FORMED, detail: `${error.message}: ${quoted}` };
  }
}

/**
 * A column's raw value in a row. Rows key columns as `{metadata name}.{column}` (the Matatika
 * reference, e.g. `customer.visitors`); the demo data and plain SQL results key them as `{column}`.
 * The qualified key wins when both exist. Own keys only.
 */
export function rawColumnValue(row: Readonly<Record<string, unknown>>, metadataName: string | null, column: string): unknown {
  if (row === null || typeof row !== 'object') return undefined;
  if (metadataName !== null) {
    const qualified = `${metadataName}.${column}`;
    if (Object.hasOwn(row, qualified)) return row[qualified];
  }
  return ownValue(row, column);
}

/** The row key a column is read from (for table headers), or null when the row has neither. */
export function columnKey(row: Readonly<Record<string, unknown>>, metadataName: string | null, column: string): string | null {
  if (metadataName !== null && Object.hasOwn(row, `${metadataName}.${column}`)) return `${metadataName}.${column}`;
  return Object.hasOwn(row, column) ? column : null;
}

/** A column's value after its post-process; a value the post-process fails on is shown as it came. */
export function columnValue(row: Readonly<Record<string, unknown>>, metadataName: string | null, column: MetadataColumn): unknown {
  const raw = rawColumnValue(row, metadataName, column.name);
  if (!column.postProcess || raw === undefined) return raw;
  try {
    return column.postProcess(raw);
  } catch (error) {
    if (error instanceof ExpressionError) return raw;
    throw error;
  }
}

/** Header labels for a table of rows: each column's label under whichever key the rows use. */
export function columnLabels(metadata: DatasetMetadata, rows: readonly Readonly<Record<string, unknown>>[]): Map<string, string> {
  const labels = new Map<string, string>();
  const first = rows[0];
  for (const column of [...metadata.columns, ...metadata.aggregates]) {
    const key = first ? columnKey(first, metadata.name, column.name) : null;
    labels.set(key ?? column.name, column.label);
  }
  return labels;
}
