import { sql } from 'kysely';
import type { Db } from '../db/database';

/** The last load of a store table: which job of which pipeline, and when. */
export interface TableLoad {
  table: string;
  jobId: string | null;
  pipelineId: string | null;
  pipelineName: string | null;
  loaded: Date;
  /** rows that job loaded into the table */
  rows: number;
  /** the pipeline's latest finished job, when it ended in ERROR */
  failedJobId: string | null;
}

/**
 * The recorded loads of these tables in the workspace's store, each with its pipeline's latest
 * finished job if that failed: one query.
 */
export async function loadsOf(db: Db, workspaceId: string, tables: readonly string[]): Promise<TableLoad[]> {
  if (tables.length === 0) return [];
  const { rows } = await sql<{
    table_name: string;
    job_id: string | null;
    pipeline_id: string | null;
    pipeline_name: string | null;
    loaded: Date | string;
    rows: number | string;
    last_id: string | null;
    last_status: string | null;
  }>`
    SELECT l.table_name, l.job_id, l.pipeline_id, p.name AS pipeline_name, l.loaded, l.rows, last.id AS last_id, last.status AS last_status
    FROM store_loads l
    LEFT JOIN pipelines p ON p.id = l.pipeline_id
    LEFT JOIN LATERAL (
      SELECT j.id, j.status FROM jobs j
      WHERE j.pipeline_id = l.pipeline_id AND j.type = 'PIPELINE_RUN' AND j.status IN ('COMPLETE', 'ERROR', 'STOPPED')
      ORDER BY j.end_time DESC NULLS LAST, j.created DESC LIMIT 1
    ) last ON true
    WHERE l.workspace_id = ${workspaceId} AND l.table_name IN (${sql.join(tables.map((t) => sql`${t}`))})`.execute(db);
  return rows.map((r) => ({
    table: r.table_name,
    jobId: r.job_id,
    pipelineId: r.pipeline_id,
    pipelineName: r.pipeline_name,
    loaded: r.loaded instanceof Date ? r.loaded : new Date(r.loaded),
    rows: Number(r.rows),
    failedJobId: r.last_status === 'ERROR' ? r.last_id : null,
  }));
}

/** Records that a job loaded rows into a store table (the bridge calls it with each batch). */
export async function recordLoad(db: Db, load: { workspaceId: string; table: string; jobId: string; pipelineId: string; rows: number }): Promise<void> {
  const now = new Date();
  await db
    .insertInto('store_loads')
    .values({ workspace_id: load.workspaceId, table_name: load.table, job_id: load.jobId, pipeline_id: load.pipelineId, loaded: now, rows: load.rows })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'table_name']).doUpdateSet({
        rows: sql<number>`CASE WHEN store_loads.job_id = ${load.jobId} THEN store_loads.rows + ${load.rows} ELSE ${load.rows} END`,
        job_id: load.jobId,
        pipeline_id: load.pipelineId,
        loaded: now,
      }),
    )
    .execute();
}
