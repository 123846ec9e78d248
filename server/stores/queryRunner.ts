import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { sql, type Transaction } from 'kysely';
import { parse } from 'libpg-query';
import { csvLine, csvRow } from '../../src/domain/csv';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { storeSchemaName } from './defaultStore';
import type { CheckedQuery } from './queryGuard';

// Runs a query that queryGuard.checkQuery accepted against a workspace's default store, with
// the database's own fences on top of the parser's: a READ ONLY transaction, a search_path of
// the store schema (then pg_catalog, so a bare name finds the store's table first) and a
// statement timeout (honoured by PostgreSQL; PGlite ignores it, see docs/decisions.md).

export interface QueryLimits {
  timeoutMs: number;
}

/** The database refused or failed the query (a missing column, the time limit, a write). */
export class QueryFailed extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'QueryFailed';
  }
}

type Row = Record<string, unknown>;

/** Which of `tables` the workspace's store does not have (yet: a pipeline creates them on its first load). */
export async function missingTables(db: Db, workspaceId: string, tables: readonly string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = ${storeSchemaName(workspaceId)} AND table_name IN (${sql.join(tables.map((t) => sql`${t}`))})`.execute(db);
  const present = new Set(rows.map((r) => r.table_name));
  return tables.filter((t) => !present.has(t));
}

async function inStore<T>(db: Db, workspaceId: string, limits: QueryLimits, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const searchPath = `"${storeSchemaName(workspaceId)}", pg_catalog`;
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`SET TRANSACTION READ ONLY`.execute(trx);
      await sql`SELECT set_config('search_path', ${searchPath}, true), set_config('statement_timeout', ${String(limits.timeoutMs)}, true)`.execute(trx);
      return work(trx);
    });
  } catch (error) {
    throw asQueryFailed(error);
  }
}

function asQueryFailed(error: unknown): QueryFailed {
  if (error instanceof QueryFailed) return error;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  // 57014: canceled by statement_timeout
  if (code === '57014' || /statement timeout/i.test(message)) return new QueryFailed('The query ran longer than its time limit', true);
  return new QueryFailed(`The query failed: ${message}`, false);
}

/** Dates as ISO text, so JSON and CSV carry the same value. */
function plainRow(row: Row): Row {
  for (const [key, value] of Object.entries(row)) if (value instanceof Date) row[key] = value.toISOString();
  return row;
}

export interface QueryResult {
  columns: string[];
  rows: Row[];
  /** more rows exist than `cap` */
  truncated: boolean;
}

/** At most `cap` rows of the query (one more is read to know whether it was cut). */
export async function runQuery(db: Db, workspaceId: string, checked: CheckedQuery, cap: number, limits: QueryLimits): Promise<QueryResult> {
  const rows = await inStore(db, workspaceId, limits, async (trx) => {
    // A bound parameter keeps this on the extended protocol: one statement, whatever the text says.
    const result = await sql<Row>`SELECT * FROM (${sql.raw(`\n${checked.text}\n`)}) AS q LIMIT ${cap + 1}`.execute(trx);
    return result.rows;
  });
  const truncated = rows.length > cap;
  const kept = (truncated ? rows.slice(0, cap) : rows).map(plainRow);
  return { columns: kept[0] ? Object.keys(kept[0]) : [], rows: kept, truncated };
}

const CURSOR = 'dataset_export';

/**
 * The whole result as CSV in a temporary file, read through a cursor in batches and written with
 * back-pressure: memory stays flat whatever the row count, and the database connection (PGlite
 * has one for the whole server) is held only while the database produces rows, never while a
 * slow client downloads. The caller streams the file and removes it.
 */
export async function spoolCsv(db: Db, workspaceId: string, checked: CheckedQuery, limits: QueryLimits, batch = 5_000): Promise<{ file: string; rows: number }> {
  const declare = `DECLARE ${CURSOR} NO SCROLL CURSOR FOR\n${checked.text}\n`;
  // The cursor's text goes through the simple protocol: prove it is still one statement.
  const parsed = (await parse(declare)) as { stmts?: { stmt: Record<string, unknown> }[] };
  if (parsed.stmts?.length !== 1 || !('DeclareCursorStmt' in (parsed.stmts[0]?.stmt ?? {}))) throw new QueryFailed('The query cannot be exported', false);

  const file = path.join(os.tmpdir(), `dataset-${randomBytes(12).toString('hex')}.csv`);
  const out = fs.createWriteStream(file, { mode: 0o600 });
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  try {
    const rows = await inStore(db, workspaceId, limits, async (trx) => {
      await sql.raw(declare).execute(trx);
      let columns: string[] | undefined;
      let count = 0;
      for (;;) {
        const { rows: page } = await sql.raw<Row>(`FETCH FORWARD ${batch} FROM ${CURSOR}`).execute(trx);
        if (page.length === 0) break;
        if (!columns) {
          columns = Object.keys(page[0] ?? {});
          await write(csvLine(columns));
        }
        const cols = columns;
        await write(page.map((row) => csvRow(cols, plainRow(row))).join(''));
        count += page.length;
        if (page.length < batch) break;
      }
      return count;
    });
    out.end();
    await once(out, 'finish');
    return { file, rows };
  } catch (error) {
    out.destroy();
    fs.rmSync(file, { force: true });
    throw error;
  }
}
