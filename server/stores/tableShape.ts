// How a Singer SCHEMA becomes a table: names folded to safe identifiers, JSON Schema types to
// PostgreSQL types. Pure, so it can be tested on hostile schemas without a database.

type ColumnType = 'bigint' | 'double precision' | 'boolean' | 'timestamptz' | 'date' | 'jsonb' | 'text';

export interface ColumnShape {
  /** the record property it is read from */
  property: string;
  column: string;
  type: ColumnType;
}

export interface TableShape {
  table: string;
  columns: ColumnShape[];
  /** column names of the key, in order */
  key: string[];
}

const MAX_IDENTIFIER = 63;

/** Lower-case letters, digits and '_', not starting with a digit, at most 63 characters; never empty. */
export function safeIdentifier(name: string, fallback = 'x'): string {
  let id = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (id.length === 0) id = fallback;
  if (/^[0-9]/.test(id)) id = `_${id}`;
  return id.slice(0, MAX_IDENTIFIER);
}

function typesOf(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as { type?: unknown; anyOf?: unknown };
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  if (Array.isArray(s.anyOf)) return s.anyOf.flatMap(typesOf);
  return [];
}

export function columnTypeOf(schema: unknown): ColumnType {
  const types = typesOf(schema).filter((t) => t !== 'null');
  const format = typeof schema === 'object' && schema !== null ? (schema as { format?: unknown }).format : undefined;
  if (types.length !== 1) return types.length === 0 ? 'text' : types.every((t) => t === 'integer' || t === 'number') ? 'double precision' : 'jsonb';
  switch (types[0]) {
    case 'integer':
      return 'bigint';
    case 'number':
      return 'double precision';
    case 'boolean':
      return 'boolean';
    case 'object':
    case 'array':
      return 'jsonb';
    case 'string':
      return format === 'date-time' ? 'timestamptz' : format === 'date' ? 'date' : 'text';
    default:
      return 'text';
  }
}

/** The table for a stream: one column per schema property (distinct safe names), the key from key_properties. */
/** The table of a stream, behind the pipeline's table prefix (checked by tablePrefixError: an identifier or ''). */
export function tableNameOf(stream: string, prefix = ''): string {
  return `${prefix}${safeIdentifier(stream, 'stream')}`.slice(0, MAX_IDENTIFIER);
}

export function tableShapeOf(stream: string, schema: unknown, keyProperties: readonly unknown[], prefix = ''): TableShape {
  const properties = typeof schema === 'object' && schema !== null ? (schema as { properties?: unknown }).properties : undefined;
  const entries = typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? Object.entries(properties as Record<string, unknown>) : [];
  const used = new Set<string>();
  const columns: ColumnShape[] = [];
  for (const [property, propertySchema] of entries.slice(0, 1500)) {
    const base = safeIdentifier(property, 'column');
    let column = base;
    for (let n = 2; used.has(column); n++) column = `${base.slice(0, MAX_IDENTIFIER - String(n).length - 1)}_${n}`;
    used.add(column);
    columns.push({ property, column, type: columnTypeOf(propertySchema) });
  }
  const key: string[] = [];
  for (const property of keyProperties) {
    const found = columns.find((c) => c.property === property);
    if (found && !key.includes(found.column)) key.push(found.column);
  }
  return { table: tableNameOf(stream, prefix), columns, key: key.length === keyProperties.length ? key : [] };
}

/** A record's value as the text the column's type reads (null when absent). */
export function columnValue(value: unknown, type: ColumnType): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb') return JSON.stringify(value);
  if (typeof value === 'object') return JSON.stringify(value);
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : (JSON.stringify(value) ?? '');
  // looked for before replacing: most values have none, and a loader asks this of every value
  return text.includes('\u0000') ? text.replace(/\u0000/g, '\uFFFD') : text;
}
