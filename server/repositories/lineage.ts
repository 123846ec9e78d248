import { sql } from 'kysely';
import type { Db } from '../db/database';

// What lineage reads of the app's database (issue 41), always within one workspace: the recorded
// loads of store tables (store_loads, written by the runner's bridge and Meltano's loaders), the
// pipelines that made them with their latest finished run, the jobs that loaded them, and the
// datasets that have a query.

export interface RunRow {
  id: string;
  status: string;
  start_time: Date | string | null;
  end_time: Date | string | null;
}

export interface LoadRow {
  table_name: string;
  loaded: Date | string;
  rows: number | string;
  job: (RunRow & { rows_by_stream: Record<string, number> }) | null;
  pipeline_id: string | null;
}

export interface PipelineRunRow {
  id: string;
  name: string;
  schedule: string | null;
  properties: Record<string, unknown>;
  data_components: string[];
  latest: RunRow | null;
}

type Raw = Record<string, unknown>;

const run = (row: Raw, prefix: string): RunRow | null =>
  row[`${prefix}_id`] === null || row[`${prefix}_id`] === undefined
    ? null
    : { id: String(row[`${prefix}_id`]), status: String(row[`${prefix}_status`]), start_time: row[`${prefix}_start`] as RunRow['start_time'], end_time: row[`${prefix}_end`] as RunRow['end_time'] };

/** The last recorded load of each of these tables in the workspace, with the job that made it; `tables` undefined: every table `pipelineId` loaded last. */
export async function loadsIn(db: Db, workspaceId: string, which: { tables: readonly string[] } | { pipelineId: string }): Promise<LoadRow[]> {
  if ('tables' in which && which.tables.length === 0) return [];
  const filter = 'tables' in which ? sql`l.table_name IN (${sql.join(which.tables.map((t) => sql`${t}`))})` : sql`l.pipeline_id = ${which.pipelineId}`;
  const { rows } = await sql<Raw>`
    SELECT l.table_name, l.loaded, l.rows, l.pipeline_id,
      j.id AS job_id, j.status AS job_status, j.start_time AS job_start, j.end_time AS job_end, j.rows_by_stream
    FROM store_loads l
    LEFT JOIN jobs j ON j.id = l.job_id AND j.workspace_id = l.workspace_id
    WHERE l.workspace_id = ${workspaceId} AND ${filter}
    ORDER BY l.table_name`.execute(db);
  return rows.map((r) => {
    const job = run(r, 'job');
    return {
      table_name: String(r['table_name']),
      loaded: r['loaded'] as Date | string,
      rows: r['rows'] as number | string,
      pipeline_id: (r['pipeline_id'] as string | null) ?? null,
      job: job && { ...job, rows_by_stream: parsed<Record<string, number>>(r['rows_by_stream'], {}) },
    };
  });
}

/** These pipelines of the workspace, each with its latest finished run (COMPLETE, ERROR or STOPPED). */
export async function pipelinesWithLatestRun(db: Db, workspaceId: string, pipelineIds: readonly string[]): Promise<Map<string, PipelineRunRow>> {
  if (pipelineIds.length === 0) return new Map();
  const { rows } = await sql<Raw>`
    SELECT p.id, p.name, p.schedule, p.properties, p.data_components,
      last.id AS last_id, last.status AS last_status, last.start_time AS last_start, last.end_time AS last_end
    FROM pipelines p
    LEFT JOIN LATERAL (
      SELECT j.id, j.status, j.start_time, j.end_time FROM jobs j
      WHERE j.pipeline_id = p.id AND j.type = 'PIPELINE_RUN' AND j.status IN ('COMPLETE', 'ERROR', 'STOPPED')
      ORDER BY j.end_time DESC NULLS LAST, j.created DESC LIMIT 1
    ) last ON true
    WHERE p.workspace_id = ${workspaceId} AND p.id IN (${sql.join(pipelineIds.map((id) => sql`${id}`))})`.execute(db);
  return new Map(
    rows.map((r) => [
      String(r['id']),
      {
        id: String(r['id']),
        name: String(r['name']),
        schedule: (r['schedule'] as string | null) ?? null,
        properties: parsed<Record<string, unknown>>(r['properties'], {}),
        data_components: parsed<string[]>(r['data_components'], []),
        latest: run(r, 'last'),
      },
    ]),
  );
}

interface QueryDatasetRow {
  id: string;
  title: string;
  alias: string | null;
  query: string;
}

/** The workspace's datasets that have a query (what can read its store's tables). */
export async function datasetsWithQuery(db: Db, workspaceId: string): Promise<QueryDatasetRow[]> {
  return db.selectFrom('datasets').select(['id', 'title', 'alias', 'query']).where('workspace_id', '=', workspaceId).where('query', 'is not', null).orderBy('title').orderBy('id').execute() as Promise<QueryDatasetRow[]>;
}

function parsed<T>(value: unknown, fallback: T): T {
  if (typeof value !== 'string') return (value as T | null) ?? fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}
