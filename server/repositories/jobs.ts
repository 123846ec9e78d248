import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { JobLogsTable, JobsTable } from '../db/schema';
import type { Paging } from '../http/hal';
import { ACTIVE_JOB_STATUSES } from '../../src/domain/jobs';

export type JobRow = Selectable<JobsTable> & { profile_email: string | null };
export type JobLogRow = Selectable<JobLogsTable>;

const ACTIVE_STATUSES = [...ACTIVE_JOB_STATUSES];

const withProfile = (db: Db) =>
  db.selectFrom('jobs').leftJoin('profiles as p', 'p.id', 'jobs.profile_id').selectAll('jobs').select('p.email as profile_email');

/** A workspace's jobs, newest first; `statuses` narrows them (page.totalElements then counts, e.g., the active ones). */
export async function jobsOf(db: Db, workspaceId: string, statuses: readonly string[], paging: Paging): Promise<{ items: JobRow[]; total: number }> {
  let base = db.selectFrom('jobs').where('jobs.workspace_id', '=', workspaceId);
  if (statuses.length > 0) base = base.where('jobs.status', 'in', statuses);
  const [items, count] = await Promise.all([
    withProfile(db)
      .where('jobs.workspace_id', '=', workspaceId)
      .$if(statuses.length > 0, (q) => q.where('jobs.status', 'in', statuses))
      .orderBy('jobs.created', 'desc')
      .orderBy('jobs.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

export function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  return withProfile(db).where('jobs.id', '=', id).executeTakeFirst();
}

/** Deletes a job that is not queued or running, with its log; false when it is (still) active. */
export async function deleteInactiveJob(db: Db, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('jobs').where('id', '=', id).where('status', 'not in', ACTIVE_STATUSES).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Up to `limit` log lines after `afterSequence`, in order. */
export function logLinesAfter(db: Db, jobId: string, afterSequence: number, limit: number): Promise<JobLogRow[]> {
  return db
    .selectFrom('job_logs')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('sequence', '>', afterSequence)
    .orderBy('sequence')
    .limit(limit)
    .execute();
}
