import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { JobsTable } from '../db/schema';
import type { Paging } from '../http/hal';
import { ACTIVE_JOB_STATUSES } from '../../src/domain/jobs';

// Reads of jobs for the HTTP layer, with what a job's body embeds (who started it, which pipeline).
// Writes — start, withdraw, delete, logs — are the runner's (server/runner/index.ts).

export type JobRow = Selectable<JobsTable> & {
  profile_email: string | null;
  pipeline_name: string | null;
  embedded_pipeline_id: string | null;
  embedded_datastore_id: string | null;
  datastore_name: string | null;
};

const ACTIVE_STATUSES = [...ACTIVE_JOB_STATUSES];

/** The pipeline's QUEUED or RUNNING job, if any (a unique index keeps it to one); the one query for it. */
export function activeJobOfPipeline(db: Db, pipelineId: string): Promise<Selectable<JobsTable> | undefined> {
  return db.selectFrom('jobs').selectAll().where('pipeline_id', '=', pipelineId).where('status', 'in', ACTIVE_STATUSES).executeTakeFirst();
}

const withProfile = (db: Db) =>
  db
    .selectFrom('jobs')
    .leftJoin('profiles as p', 'p.id', 'jobs.profile_id')
    // a run names its pipeline; a setup task (011) names the pipeline or store it asks to finish
    .leftJoin('pipelines as pl', (join) => join.on(sql<boolean>`pl.id = coalesce(jobs.pipeline_id, jobs.task_pipeline_id)`))
    .leftJoin('data_stores as ds', (join) => join.on(sql<boolean>`ds.id = coalesce(jobs.datastore_id, jobs.task_datastore_id)`))
    .selectAll('jobs')
    .select(['p.email as profile_email', 'pl.name as pipeline_name', 'pl.id as embedded_pipeline_id', 'ds.id as embedded_datastore_id', 'ds.name as datastore_name']);

type JobScope = { workspaceId: string } | { pipelineId: string };

/**
 * A workspace's or a pipeline's jobs, newest first; `statuses` and `types` narrow them (page.totalElements
 * then counts, e.g., the active ones; the setup tasks are the PROFILE_* types).
 */
export async function jobsOf(db: Db, scope: JobScope, statuses: readonly string[], paging: Paging, types: readonly string[] = []): Promise<{ items: JobRow[]; total: number }> {
  const column = 'workspaceId' in scope ? 'jobs.workspace_id' : 'jobs.pipeline_id';
  const value = 'workspaceId' in scope ? scope.workspaceId : scope.pipelineId;
  const count = db
    .selectFrom('jobs')
    .where(column, '=', value)
    .$if(statuses.length > 0, (q) => q.where('jobs.status', 'in', statuses))
    .$if(types.length > 0, (q) => q.where('jobs.type', 'in', types))
    .select((eb) => eb.fn.countAll<number>().as('total'));
  const [items, total] = await Promise.all([
    withProfile(db)
      .where(column, '=', value)
      .$if(statuses.length > 0, (q) => q.where('jobs.status', 'in', statuses))
    .$if(types.length > 0, (q) => q.where('jobs.type', 'in', types))
      .orderBy('jobs.created', 'desc')
      .orderBy('jobs.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.total) };
}

export function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  return withProfile(db).where('jobs.id', '=', id).executeTakeFirst();
}

/** The newest job of each pipeline (the `latest job` a pipeline embeds). */
export async function latestJobsOf(db: Db, pipelineIds: readonly string[]): Promise<Map<string, JobRow>> {
  if (pipelineIds.length === 0) return new Map();
  const rows = await withProfile(db)
    .where('jobs.pipeline_id', 'in', pipelineIds)
    .distinctOn('jobs.pipeline_id')
    .orderBy('jobs.pipeline_id')
    .orderBy('jobs.created', 'desc')
    .orderBy('jobs.id')
    .execute();
  return new Map(rows.map((r) => [r.pipeline_id ?? '', r]));
}

/** The QUEUED or RUNNING job of each pipeline (at most one: a unique index says so). */
export async function activeJobsOf(db: Db, pipelineIds: readonly string[]): Promise<Map<string, string>> {
  if (pipelineIds.length === 0) return new Map();
  const rows = await db.selectFrom('jobs').select(['id', 'pipeline_id']).where('pipeline_id', 'in', pipelineIds).where('status', 'in', ACTIVE_STATUSES).execute();
  return new Map(rows.map((r) => [r.pipeline_id ?? '', r.id]));
}
