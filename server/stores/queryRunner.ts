import { sql } from 'kysely';
import type { Db } from '../db/database';
import { storeDbOf } from '../db/storeDatabase';
import type { CheckedQuery } from './queryGuard';
import { inStore, QUERY_LIMIT_DEFAULTS, type QueryLimits, valueTooLarge } from './querySession';
import { declareCursor, fetchRows } from './storeCursor';
import { storeSchemaName } from './storeRole';

// Runs a query that queryGuard.checkQuery accepted against a workspace's default store, inside the
// fenced session of querySession.ts, always through a cursor read in batches: the JSON answer
// stops at its row cap or its byte cap. The CSV export (csvExport.ts) streams the same way, its
// lines formatted by the database.

export { datasetQueryLimits, QueryFailed, type QueryLimits } from './querySession';
export { exportCsv } from './csvExport';

type Row = Record<string, unknown>;

/** Which of `tables` the workspace's store does not have (yet: a pipeline creates them on its first load). */
export async function missingTables(db: Db, workspaceId: string, tables: readonly string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = ${storeSchemaName(workspaceId)} AND table_name IN (${sql.join(tables.map((t) => sql`${t}`))})`.execute(storeDbOf(db));
  const present = new Set(rows.map((r) => r.table_name));
  return tables.filter((t) => !present.has(t));
}

/** Dates as ISO text, so JSON and CSV carry the same value; a value over the cap refuses the query. */
function plainRow(row: Row, valueMaxBytes: number): Row {
  for (const [key, value] of Object.entries(row)) {
    if (value instanceof Date) row[key] = value.toISOString();
    else if (valueBytes(value) > valueMaxBytes) {
      throw valueTooLarge(key, valueMaxBytes);
    }
  }
  return row;
}

function valueBytes(value: unknown): number {
  if (typeof value === 'string') return value.length <= 256 ? value.length * 3 : Buffer.byteLength(value);
  if (Buffer.isBuffer(value)) return value.length;
  if (typeof value === 'object' && value !== null) return Buffer.byteLength(JSON.stringify(value));
  return 0;
}

export interface QueryResult {
  columns: string[];
  rows: Row[];
  /** more rows exist than `cap`, or the rows reached the JSON byte cap */
  truncated: boolean;
}

/** Rows per FETCH of a JSON answer: small, since the answer may stop early at its byte cap. */
const JSON_BATCH = 200;

/** At most `cap` rows of the query and at most limits.jsonMaxBytes of JSON. */
export async function runQuery(db: Db, workspaceId: string, checked: CheckedQuery, cap: number, limits: QueryLimits, signal?: AbortSignal): Promise<QueryResult> {
  const valueMax = limits.valueMaxBytes ?? QUERY_LIMIT_DEFAULTS.valueMaxBytes;
  const jsonMax = limits.jsonMaxBytes ?? QUERY_LIMIT_DEFAULTS.jsonMaxBytes;
  return inStore(db, workspaceId, limits, signal, async (session) => {
    await declareCursor(session, checked.text);
    const rows: Row[] = [];
    let columns: string[] | undefined;
    let bytes = 2; // []
    for (;;) {
      const wanted = Math.min(JSON_BATCH, cap + 1 - rows.length);
      const page = await fetchRows(session, wanted);
      columns ??= page[0] ? Object.keys(page[0]) : undefined;
      for (const row of page) {
        const size = Buffer.byteLength(JSON.stringify(plainRow(row, valueMax))) + 1;
        if (rows.length === cap || bytes + size > jsonMax) return { columns: columns ?? [], rows, truncated: true };
        rows.push(row);
        bytes += size;
      }
      if (page.length < wanted) return { columns: columns ?? [], rows, truncated: false };
    }
  });
}
