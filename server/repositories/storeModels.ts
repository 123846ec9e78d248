import { sql } from 'kysely';
import type { DbtModel } from '../../src/domain/dbtManifest';
import type { Db } from '../db/database';
import type { RunRow } from './lineage';

// The store tables a pipeline's dbt models built (issue 41; store_models), always within one
// workspace: written by the runner after a run that ended well, read by lineage.

export interface ModelRow {
  table_name: string;
  model: string;
  inputs: string[];
  built_at: Date | string;
  pipeline_id: string | null;
  job: RunRow | null;
}

/** Upserts one row per model: the latest run that built a table is the one lineage shows. */
export async function recordModels(db: Db, built: { workspaceId: string; jobId: string; pipelineId: string; models: readonly DbtModel[] }): Promise<void> {
  if (built.models.length === 0) return;
  const now = new Date();
  await db
    .insertInto('store_models')
    .values(built.models.map((m) => ({ workspace_id: built.workspaceId, table_name: m.table, model: m.model, inputs: JSON.stringify(m.inputs), job_id: built.jobId, pipeline_id: built.pipelineId, built_at: now })))
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'table_name']).doUpdateSet({
        model: sql<string>`excluded.model`,
        inputs: sql<string>`excluded.inputs`,
        job_id: sql<string>`excluded.job_id`,
        pipeline_id: sql<string>`excluded.pipeline_id`,
        built_at: sql<Date>`excluded.built_at`,
      }),
    )
    .execute();
}

/** The model that last built each of these tables of the workspace, with the run that built it. */
export async function modelsIn(db: Db, workspaceId: string, tables: readonly string[]): Promise<ModelRow[]> {
  if (tables.length === 0) return [];
  const { rows } = await sql<Record<string, unknown>>`
    SELECT m.table_name, m.model, m.inputs, m.built_at, m.pipeline_id,
      j.id AS job_id, j.status AS job_status, j.start_time AS job_start, j.end_time AS job_end
    FROM store_models m
    LEFT JOIN jobs j ON j.id = m.job_id AND j.workspace_id = m.workspace_id
    WHERE m.workspace_id = ${workspaceId} AND m.table_name IN (${sql.join(tables.map((t) => sql`${t}`))})
    ORDER BY m.table_name`.execute(db);
  return rows.map((r) => ({
    table_name: String(r['table_name']),
    model: String(r['model']),
    inputs: namesOf(r['inputs']),
    built_at: r['built_at'] as Date | string,
    pipeline_id: (r['pipeline_id'] as string | null) ?? null,
    job: typeof r['job_id'] !== 'string' ? null : { id: r['job_id'], status: String(r['job_status']), start_time: r['job_start'] as RunRow['start_time'], end_time: r['job_end'] as RunRow['end_time'] },
  }));
}

/** The inputs column as names (PGlite may hand jsonb back as text). */
function namesOf(value: unknown): string[] {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : [];
}
