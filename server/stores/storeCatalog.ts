import { sql } from 'kysely';
import type { Db } from '../db/database';
import { storeDbOf } from '../db/storeDatabase';
import { loadsOf, type TableLoad } from '../repositories/freshness';
import { checkQuery } from './queryGuard';
import { runQuery, type QueryLimits, type QueryResult } from './queryRunner';
import { inStore, QueryFailed } from './querySession';
import { storeSchemaName } from './storeRole';

// What is in a workspace's default store, for the store browser (issue 20): its tables with their
// columns and types, how many rows each holds, and the pipeline run that last loaded it; and the
// first rows of one table. Counting and sampling run as the workspace's SQL does (querySession.ts:
// its role, read-only, under the dataset time limit), so the browser can read nothing a dataset
// query could not.

export type StoreColumn = {
  name: string;
  /** as PostgreSQL names it: bigint, text, timestamp with time zone… */
  type: string;
};

export interface StoreTable {
  name: string;
  columns: StoreColumn[];
  /** the table's rows, counted up to ROW_COUNT_CAP; null when counting ran out of time */
  rows: number | null;
  /** the table holds more rows than `rows` says */
  rowsAtLeast: boolean;
  lastLoad: TableLoad | null;
}

/** Counting stops here: a store's page must not scan a billion-row table to say how big it is. */
const ROW_COUNT_CAP = 1_000_000;
/** The rows a table's sample shows. */
const SAMPLE_ROWS = 20;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The store's tables, each with its columns in their order: one query of the catalogue. */
async function tablesWithColumns(db: Db, workspaceId: string): Promise<Map<string, StoreColumn[]>> {
  const { rows } = await sql<{ table_name: string; column_name: string | null; data_type: string | null }>`
    SELECT t.table_name, c.column_name, c.data_type
    FROM information_schema.tables t
    LEFT JOIN information_schema.columns c ON c.table_schema = t.table_schema AND c.table_name = t.table_name
    WHERE t.table_schema = ${storeSchemaName(workspaceId)}
    ORDER BY t.table_name, c.ordinal_position`.execute(storeDbOf(db));
  const tables = new Map<string, StoreColumn[]>();
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? [];
    if (row.column_name !== null) columns.push({ name: row.column_name, type: row.data_type ?? 'unknown' });
    tables.set(row.table_name, columns);
  }
  return tables;
}

/** Each table's rows up to the cap, in one statement; null for all when the time limit ends it. */
async function rowCounts(db: Db, workspaceId: string, names: readonly string[], limits: QueryLimits, signal?: AbortSignal): Promise<Map<string, number> | null> {
  if (names.length === 0) return new Map();
  const counts = names.map((name) => sql`SELECT ${name} AS name, (SELECT count(*) FROM (SELECT 1 FROM ${sql.raw(quoted(name))} LIMIT ${ROW_COUNT_CAP + 1}) capped) AS rows`);
  try {
    return await inStore(db, workspaceId, limits, signal, async ({ trx }) => {
      const { rows } = await sql<{ name: string; rows: string | number }>`${sql.join(counts, sql` UNION ALL `)}`.execute(trx);
      return new Map(rows.map((r) => [r.name, Number(r.rows)]));
    });
  } catch (error) {
    // a store too big to count in time still lists its tables; anything else is a real failure
    if (error instanceof QueryFailed && error.timedOut) return null;
    throw error;
  }
}

export async function storeCatalog(db: Db, workspaceId: string, limits: QueryLimits, signal?: AbortSignal): Promise<StoreTable[]> {
  const tables = await tablesWithColumns(db, workspaceId);
  const names = [...tables.keys()];
  const [counts, loads] = await Promise.all([rowCounts(db, workspaceId, names, limits, signal), loadsOf(db, workspaceId, names)]);
  const loadOf = new Map(loads.map((l) => [l.table, l]));
  return names.map((name) => {
    const counted = counts?.get(name);
    return {
      name,
      columns: tables.get(name) ?? [],
      rows: counted === undefined ? null : Math.min(counted, ROW_COUNT_CAP),
      rowsAtLeast: counted !== undefined && counted > ROW_COUNT_CAP,
      lastLoad: loadOf.get(name) ?? null,
    };
  });
}

/** A table's columns, or undefined when the store has no such table. */
export async function storeTableColumns(db: Db, workspaceId: string, table: string): Promise<StoreColumn[] | undefined> {
  const { rows } = await sql<{ column_name: string | null; data_type: string | null }>`
    SELECT c.column_name, c.data_type
    FROM information_schema.tables t
    LEFT JOIN information_schema.columns c ON c.table_schema = t.table_schema AND c.table_name = t.table_name
    WHERE t.table_schema = ${storeSchemaName(workspaceId)} AND t.table_name = ${table}
    ORDER BY c.ordinal_position`.execute(storeDbOf(db));
  if (rows.length === 0) return undefined;
  return rows.filter((r) => r.column_name !== null).map((r) => ({ name: r.column_name!, type: r.data_type ?? 'unknown' }));
}

/** The table's first SAMPLE_ROWS rows, read through the same guard and session as a dataset query. */
export async function sampleOf(db: Db, workspaceId: string, table: string, limits: QueryLimits, signal?: AbortSignal): Promise<QueryResult> {
  // one row more than shown, so `truncated` says whether the table has more
  const checked = await checkQuery(`SELECT * FROM ${quoted(table)} LIMIT ${SAMPLE_ROWS + 1}`);
  return runQuery(db, workspaceId, checked, SAMPLE_ROWS, limits, signal);
}
