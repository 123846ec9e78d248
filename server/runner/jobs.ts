import type { Db } from '../db/database';
import type { JobTriggerKind } from '../db/schema';
import { notifyJobEnded } from '../notifications/pipelineEvents';
import { getPipeline } from '../repositories/pipelines';
import { isUuid } from '../repositories/ids';
import { activeJobOfPipeline } from '../repositories/jobs';
import { appendLogLines } from './logs';
import { insertJobIfIdle, newJobFor, type JobRow, type RunnableType } from './queue';
import { queueSignals } from './signals';

// The service the HTTP layer calls for jobs: start ('create job'), withdraw, delete, metrics.
// Results are tagged unions so each maps to one status code (201, 409, 404, 400, 202, 204).

export interface JobTrigger {
  kind: JobTriggerKind;
  /** who pressed Start (a profile id), for MANUAL */
  profileId?: string | null;
  /** a human-readable cause, shown as the job's triggeredBy */
  description?: string | null;
  scheduledSlot?: Date | null;
}

export type EnqueueResult =
  | { status: 'QUEUED'; job: JobRow }
  | { status: 'CONFLICT'; active: JobRow | undefined }
  | { status: 'DRAFT' }
  | { status: 'NOT_FOUND' };

/** Queues a run (or verification) of a pipeline; CONFLICT while it has a job QUEUED or RUNNING. */
export async function enqueueJob(db: Db, pipelineId: string, trigger: JobTrigger, type: RunnableType = 'PIPELINE_RUN'): Promise<EnqueueResult> {
  if (!isUuid(pipelineId)) return { status: 'NOT_FOUND' };
  const pipeline = await getPipeline(db, pipelineId);
  if (!pipeline) return { status: 'NOT_FOUND' };
  if (pipeline.draft) return { status: 'DRAFT' };
  const job = await insertJobIfIdle(
    db,
    newJobFor(pipeline, { type, triggerKind: trigger.kind, triggeredBy: trigger.description ?? null, profileId: trigger.profileId ?? null, scheduledSlot: trigger.scheduledSlot ?? null }),
  );
  if (!job) return { status: 'CONFLICT', active: await activeJobOfPipeline(db, pipelineId) };
  return { status: 'QUEUED', job };
}


export type WithdrawResult =
  | { status: 'STOPPED'; job: JobRow } // it was QUEUED: stopped at once
  | { status: 'STOPPING'; job: JobRow } // it is RUNNING: its runner kills the process group within a second
  | { status: 'NOT_ACTIVE'; job: JobRow }
  | { status: 'NOT_FOUND' };

export async function withdrawJob(db: Db, jobId: string, by?: string | null): Promise<WithdrawResult> {
  if (!isUuid(jobId)) return { status: 'NOT_FOUND' };
  const who = by ? ` by ${by}` : '';
  const result = await db.transaction().execute(async (trx): Promise<WithdrawResult> => {
    const job = await trx.selectFrom('jobs').selectAll().where('id', '=', jobId).forUpdate().executeTakeFirst();
    if (!job) return { status: 'NOT_FOUND' };
    if (job.status === 'QUEUED') {
      const stopped = await trx.updateTable('jobs').set({ status: 'STOPPED', end_time: new Date(), end_reason: 'WITHDRAWN', stop_requested: true }).where('id', '=', jobId).returningAll().executeTakeFirstOrThrow();
      await appendLogLines(trx, jobId, [`Job withdrawn${who} before it started.`]);
      await notifyJobEnded(trx, stopped, 'STOPPED');
      return { status: 'STOPPED', job: stopped };
    }
    if (job.status === 'RUNNING') {
      // The running job's log has one writer, its runner, which logs the stop when it acts on it;
      // a line written here could take a sequence number the runner is still holding.
      const stopping = await trx.updateTable('jobs').set({ stop_requested: true }).where('id', '=', jobId).returningAll().executeTakeFirstOrThrow();
      return { status: 'STOPPING', job: stopping };
    }
    return { status: 'NOT_ACTIVE', job };
  });
  if (result.status === 'STOPPING') queueSignals.emit('withdrawn', jobId);
  return result;
}

/** Deletes a finished job and its log; ACTIVE while it is QUEUED or RUNNING (withdraw it first). */
export async function deleteJob(db: Db, jobId: string): Promise<'DELETED' | 'ACTIVE' | 'NOT_FOUND'> {
  if (!isUuid(jobId)) return 'NOT_FOUND';
  const job = await db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirst();
  if (!job) return 'NOT_FOUND';
  // A setup task (PROFILE_*) runs no process: dismissing it deletes it whatever its status.
  const deleted = await db
    .deleteFrom('jobs')
    .where('id', '=', jobId)
    .where((eb) => eb.or([eb('status', 'not in', ['QUEUED', 'RUNNING']), eb('type', 'like', 'PROFILE\\_%')]))
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0 ? 'DELETED' : 'ACTIVE';
}

export interface JobMetric {
  jobId: string;
  status: string;
  created: Date;
  startTime: Date | null;
  endTime: Date | null;
  /** run time in milliseconds; null until the job has started and ended */
  durationMs: number | null;
  rowsLoaded: number;
  attempt: number;
}

/** Per job of a pipeline, newest first: duration, rows loaded, status (the History chart). */
export async function jobMetrics(db: Db, pipelineId: string, limit = 50): Promise<JobMetric[]> {
  const size = Math.max(1, Math.min(Math.floor(limit) || 50, 1000));
  const rows = await db
    .selectFrom('jobs')
    .select(['id', 'status', 'created', 'start_time', 'end_time', 'rows_loaded', 'attempt'])
    .where('pipeline_id', '=', pipelineId)
    .orderBy('created', 'desc')
    .limit(size)
    .execute();
  return rows.map((r) => ({
    jobId: r.id,
    status: r.status,
    created: new Date(r.created),
    startTime: r.start_time ? new Date(r.start_time) : null,
    endTime: r.end_time ? new Date(r.end_time) : null,
    durationMs: r.start_time && r.end_time ? new Date(r.end_time).getTime() - new Date(r.start_time).getTime() : null,
    rowsLoaded: Number(r.rows_loaded),
    attempt: r.attempt,
  }));
}
