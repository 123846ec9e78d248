// The rows of a dataset as a table: which columns, in which order, and how a cell reads.

/**
 * The columns of a table of rows: every key of every row, in first-seen order, so a key that only
 * some rows carry still gets a column. Only own enumerable keys count (rows are plain JSON).
 */
export function tableColumns(rows: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) {
    if (row === null || typeof row !== 'object') continue;
    for (const key of Object.keys(row)) seen.add(key);
  }
  return [...seen];
}

/** A cell's text: null and undefined are empty, objects are their JSON, everything else String(). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    // a cycle or a throwing toJSON: a cell never breaks the table
    return '';
  }
}

/** How many rows the table shows after `pages` presses of "Show more" (page size rows each). */
export function visibleRowCount(total: number, pages: number, pageSize: number): number {
  const safePages = Number.isFinite(pages) && pages >= 1 ? Math.floor(pages) : 1;
  const safeSize = Number.isFinite(pageSize) && pageSize >= 1 ? Math.floor(pageSize) : 1;
  return Math.max(0, Math.min(Math.max(0, Math.floor(total)), safePages * safeSize));
}
