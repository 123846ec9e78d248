import fs from 'node:fs';
import os from 'node:os';
import { sql } from 'kysely';
import { effectiveTimeoutSeconds, endStatusOf, maxAttemptsOf, retryDelayMs, shouldRetry, type EndReason } from '../../src/domain/jobStatus';
import { DEPLOY_TRIGGER } from '../../src/domain/pipelineConstants';
import type { JobStatus } from '../../src/domain/resources';
import type { Db } from '../db/database';
import type { JobTriggerKind } from '../db/schema';
import { checkRulesAfterRefresh, datasetEventsOfJobEnd } from '../notifications/datasetEvents';
import { notifyJobEnded, notifyJobStarted } from '../notifications/pipelineEvents';
import { newId } from '../repositories/ids';
import { recordRunEvent } from '../repositories/openLineage';
import { appendLogLines } from './logs';
import { killGroup } from './jobProcess';
import { queueSignals } from './signals';
import { CLAIMABLE_TYPES, settleJob } from './jobKinds';
import type { JobRow } from './jobRow';
import { WORKSPACE_DEPLOY } from './workspaceJobs';

// The jobs table is the queue. Every statement here is safe with several server processes on one
// PostgreSQL: claims skip rows another transaction holds, every write by a runner is conditional on
// its lease, and the one-active-job-per-pipeline rule is a unique index, not a check-then-insert.

export type { JobRow } from './jobRow';

const ACTIVE_CONFLICT = sql`(pipeline_id) WHERE pipeline_id IS NOT NULL AND status IN ('QUEUED', 'RUNNING')`;
export const RUNNABLE_TYPES = ['PIPELINE_RUN', 'PIPELINE_VERIFY'] as const;
export type RunnableType = (typeof RUNNABLE_TYPES)[number];

interface NewJob {
  workspaceId: string;
  pipelineId: string;
  type: RunnableType;
  triggerKind: JobTriggerKind;
  triggeredBy: string | null;
  profileId?: string | null;
  triggeredByJobId?: string | null;
  retryOf?: string | null;
  scheduledSlot?: Date | null;
  attempt?: number;
  maxAttempts: number;
  timeoutSeconds: number;
  runAfter?: Date;
  status?: 'QUEUED' | 'SKIPPED';
}

/** The columns of a pipeline a new job of it takes over. */
type JobSource = { id: string; workspace_id: string; max_retries: number; timeout: number };

/**
 * A new job of `pipeline`: its workspace, its attempts (the pipeline's retries + 1) and its time
 * limit; the caller says why it runs. The one place a job is built from a pipeline (a run asked
 * for, a schedule slot, a triggered pipeline); a retry copies the job it retries instead.
 */
export function newJobFor(pipeline: JobSource, why: Omit<NewJob, 'workspaceId' | 'pipelineId' | 'maxAttempts' | 'timeoutSeconds'>): NewJob {
  return { ...why, workspaceId: pipeline.workspace_id, pipelineId: pipeline.id, maxAttempts: maxAttemptsOf(pipeline.max_retries), timeoutSeconds: effectiveTimeoutSeconds(pipeline.timeout) };
}

/** Inserts a QUEUED job unless its pipeline already has one QUEUED or RUNNING; undefined then. */
export async function insertJobIfIdle(db: Db, job: NewJob): Promise<JobRow | undefined> {
  const id = newId();
  const status = job.status ?? 'QUEUED';
  const now = new Date();
  const result = await sql<JobRow>`
    INSERT INTO jobs (id, workspace_id, profile_id, pipeline_id, type, status, triggered_by, attempt, max_attempts,
                      trigger_kind, triggered_by_job_id, retry_of, scheduled_slot, run_after, timeout_seconds, created, end_time)
    VALUES (${id}, ${job.workspaceId}, ${job.profileId ?? null}, ${job.pipelineId}, ${job.type}, ${status}, ${job.triggeredBy},
            ${job.attempt ?? 1}, ${job.maxAttempts}, ${job.triggerKind}, ${job.triggeredByJobId ?? null}, ${job.retryOf ?? null},
            ${job.scheduledSlot ?? null}, ${job.runAfter ?? now}, ${job.timeoutSeconds}, ${now}, ${status === 'SKIPPED' ? now : null})
    ON CONFLICT ${ACTIVE_CONFLICT} DO NOTHING
    RETURNING *`.execute(db);
  const row = result.rows[0];
  if (row && status === 'SKIPPED') await notifyJobEnded(db, row, 'SKIPPED');
  if (row && status === 'QUEUED') queueSignals.emit('queued', row.id);
  return row;
}

/** Takes the oldest due QUEUED job and marks it RUNNING under this runner's lease. */
export async function claimNextJob(db: Db, owner: string, leaseMs: number): Promise<JobRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const claimed = await claimIn(trx, owner, leaseMs);
    if (claimed) {
      await notifyJobStarted(trx, claimed);
      // OpenLineage START, with the claim: the event exists exactly when the run does (issue 41)
      await recordRunEvent(trx, claimed, 'RUNNING');
    }
    return claimed;
  });
}

async function claimIn(db: Db, owner: string, leaseMs: number): Promise<JobRow | undefined> {
  const result = await sql<JobRow>`
    UPDATE jobs
       SET status = 'RUNNING', start_time = now(), lease_owner = ${owner},
           lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', process_host = ${os.hostname()}
     WHERE id = (
       SELECT id FROM jobs
        WHERE status = 'QUEUED' AND run_after <= now() AND type IN (${sql.join(CLAIMABLE_TYPES)})
        ORDER BY run_after, created
        FOR UPDATE SKIP LOCKED
        LIMIT 1)
       AND status = 'QUEUED'
    RETURNING *`.execute(db);
  return result.rows[0];
}

export async function recordProcessGroup(db: Db, jobId: string, owner: string, pid: number): Promise<void> {
  await db.updateTable('jobs').set({ process_group: pid }).where('id', '=', jobId).where('lease_owner', '=', owner).execute();
}

/** Extends this runner's leases; answers which jobs it still owns and which were asked to stop. */
export async function renewLeases(db: Db, owner: string, jobIds: readonly string[], leaseMs: number): Promise<{ owned: Set<string>; stopRequested: Set<string> }> {
  if (jobIds.length === 0) return { owned: new Set(), stopRequested: new Set() };
  const result = await sql<{ id: string; stop_requested: boolean }>`
    UPDATE jobs SET lease_expires_at = now() + ${leaseMs} * interval '1 millisecond'
     WHERE lease_owner = ${owner} AND status = 'RUNNING' AND id IN (${sql.join(jobIds)})
    RETURNING id, stop_requested`.execute(db);
  return { owned: new Set(result.rows.map((r) => r.id)), stopRequested: new Set(result.rows.filter((r) => r.stop_requested).map((r) => r.id)) };
}

export async function stopRequestedAmong(db: Db, owner: string, jobIds: readonly string[]): Promise<Set<string>> {
  if (jobIds.length === 0) return new Set();
  const rows = await db.selectFrom('jobs').select('id').where('lease_owner', '=', owner).where('stop_requested', '=', true).where('id', 'in', jobIds).execute();
  return new Set(rows.map((r) => r.id));
}

interface Finish {
  reason: EndReason;
  exitCode: number | null;
  lines: string[];
  retryBaseMs: number;
  /**
   * The runner stopped the job because it is itself stopping (a graceful shutdown): the job ends
   * as lost, and a next attempt is queued at once whatever attempts remain, with one more allowed,
   * so a worker going away never spends a pipeline's retries (issue 42).
   */
  handBack?: boolean;
}

interface Finished {
  job: JobRow;
  status: JobStatus;
  retry: JobRow | undefined;
  triggered: JobRow[];
}

/**
 * Ends a job this runner owns: status, exit code, closing log lines, the retry (a new job, the
 * next attempt) and the pipelines triggered by a COMPLETE run, in one transaction. Undefined when
 * the lease was lost meanwhile (another runner recovered the job): then nothing is written.
 */
export async function finishJob(db: Db, jobId: string, owner: string, finish: Finish): Promise<Finished | undefined> {
  let refreshed: string[] = [];
  const finished = await db.transaction().execute(async (trx): Promise<Finished | undefined> => {
    const current = await trx.selectFrom('jobs').selectAll().where('id', '=', jobId).forUpdate().executeTakeFirst();
    if (!current || current.status !== 'RUNNING' || current.lease_owner !== owner) return undefined;
    const status = current.stop_requested && finish.reason !== 'TIMEOUT' ? 'STOPPED' : endStatusOf(finish);
    const job = await trx
      .updateTable('jobs')
      .set({
        status,
        end_time: new Date(),
        exit_code: finish.exitCode,
        end_reason: current.stop_requested && finish.reason === 'RUNNER_LOST' ? 'WITHDRAWN' : finish.reason,
        lease_owner: null,
        lease_expires_at: null,
        process_group: null,
      })
      .where('id', '=', jobId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const lines = [...finish.lines];
    let retry: JobRow | undefined;
    const handBack = finish.handBack === true && status === 'ERROR';
    if ((handBack || shouldRetry(status, job.attempt, job.max_attempts)) && job.pipeline_id) {
      const delay = handBack ? 0 : retryDelayMs(job.attempt, finish.retryBaseMs);
      retry = await insertJobIfIdle(trx, {
        workspaceId: job.workspace_id,
        pipelineId: job.pipeline_id,
        type: job.type as RunnableType,
        triggerKind: 'RETRY',
        triggeredBy: job.triggered_by,
        profileId: job.profile_id,
        triggeredByJobId: job.triggered_by_job_id,
        retryOf: job.id,
        attempt: job.attempt + 1,
        maxAttempts: job.max_attempts + (handBack ? 1 : 0),
        timeoutSeconds: job.timeout_seconds,
        runAfter: new Date(Date.now() + delay),
      });
      if (retry && handBack) {
        lines.push(`The job was handed back to the queue as job ${retry.id} (attempt ${retry.attempt} of ${retry.max_attempts}: a worker stopping does not spend the pipeline's retries).`);
        await appendLogLines(trx, retry.id, [`Attempt ${retry.attempt} of ${retry.max_attempts}, handed back by the worker that stopped while running job ${job.id}.`]);
      } else if (retry) {
        lines.push(`Attempt ${job.attempt} of ${job.max_attempts} failed; attempt ${retry.attempt} is queued as job ${retry.id}${delay > 0 ? ` to start in ${Math.round(delay / 1000)} s` : ''}.`);
        await appendLogLines(trx, retry.id, [`Attempt ${retry.attempt} of ${retry.max_attempts}, retrying job ${job.id}.`]);
      }
    }
    lines.push(`Job ended ${status}${job.exit_code === null ? '' : ` (exit code ${job.exit_code})`}.`);
    await appendLogLines(trx, job.id, lines);
    await notifyJobEnded(trx, job, status);
    await recordRunEvent(trx, job, status);
    refreshed = await datasetEventsOfJobEnd(trx, job, status, retry === undefined);
    await settleJob(trx, job, status);
    const triggered = status === 'COMPLETE' ? await queueTriggeredPipelines(trx, job) : [];
    return { job, status, retry, triggered };
  });
  // Rules read the fresh rows through the store's own read-only transaction, so only once the job's
  // end is committed; a failing rule query must not undo or hide the job's end.
  if (finished && refreshed.length > 0) await checkRulesAfterRefresh(db, finished.job.workspace_id, refreshed).catch(() => 0);
  return finished;
}

/**
 * Every non-draft pipeline of the workspace whose triggeredBy names the finished one: a COMPLETE
 * pipeline run by its name, a COMPLETE deployment that fetched a commit by 'deploy'.
 */
async function queueTriggeredPipelines(db: Db, finished: JobRow): Promise<JobRow[]> {
  let source: { id: string | null; trigger: string; description: string };
  if (finished.type === 'PIPELINE_RUN' && finished.pipeline_id) {
    const pipeline = await db.selectFrom('pipelines').select(['id', 'name']).where('id', '=', finished.pipeline_id).executeTakeFirst();
    if (!pipeline) return [];
    source = { id: pipeline.id, trigger: pipeline.name, description: `pipeline ${pipeline.name}` };
  } else if (finished.type === WORKSPACE_DEPLOY && finished.pipeline_id === null && finished.commit_id !== null) {
    source = { id: null, trigger: DEPLOY_TRIGGER, description: `deployment of commit ${finished.commit_id.slice(0, 7)}` };
  } else {
    return [];
  }
  const followers = await db
    .selectFrom('pipelines')
    .select(['id', 'workspace_id', 'name', 'max_retries', 'timeout'])
    .where('workspace_id', '=', finished.workspace_id)
    .where('draft', '=', false)
    .$if(source.id !== null, (qb) => qb.where('id', '!=', source.id!))
    .where(sql<boolean>`triggered_by ? ${source.trigger}`)
    .orderBy('name')
    .execute();
  const queued: JobRow[] = [];
  const notes: string[] = [];
  for (const follower of followers) {
    const job = await insertJobIfIdle(db, newJobFor(follower, { type: 'PIPELINE_RUN', triggerKind: 'PIPELINE', triggeredBy: source.description, triggeredByJobId: finished.id }));
    if (job) {
      queued.push(job);
      notes.push(`Triggered pipeline ${follower.name} (job ${job.id}).`);
      await appendLogLines(db, job.id, [`Triggered by ${source.description} (job ${finished.id}).`]);
    } else {
      notes.push(`Pipeline ${follower.name} already has a job queued or running; not triggered again.`);
    }
  }
  await appendLogLines(db, finished.id, notes);
  return queued;
}

/**
 * Ends RUNNING jobs whose lease has expired (or every RUNNING job, when `everyRunning`: an
 * embedded database belongs to one process, so at start nothing else can be running them).
 * Each ends ERROR with a log line saying the runner was lost, and is retried if attempts remain.
 */
export async function recoverLostJobs(db: Db, recoverer: string, options: { everyRunning: boolean; retryBaseMs: number }): Promise<Finished[]> {
  const candidates = await db
    .selectFrom('jobs')
    .select(['id', 'lease_owner', 'lease_expires_at', 'process_host', 'process_group'])
    .where('status', '=', 'RUNNING')
    .$if(!options.everyRunning, (qb) => qb.where(sql<boolean>`(lease_expires_at IS NULL OR lease_expires_at < now())`))
    .execute();
  const recovered: Finished[] = [];
  for (const candidate of candidates) {
    const done = await db.transaction().execute(async (trx) => {
      // Re-check under a row lock, skipping a row a live runner is finishing right now.
      const locked = await sql<{ id: string }>`
        SELECT id FROM jobs WHERE id = ${candidate.id} AND status = 'RUNNING'
          ${options.everyRunning ? sql`` : sql`AND (lease_expires_at IS NULL OR lease_expires_at < now())`}
        FOR UPDATE SKIP LOCKED`.execute(trx);
      if (locked.rows.length === 0) return undefined;
      // Taken over for a minute, so a second recovering process leaves it alone.
      await trx.updateTable('jobs').set({ lease_owner: recoverer, lease_expires_at: sql<Date>`now() + interval '1 minute'` }).where('id', '=', candidate.id).execute();
      return true;
    });
    if (!done) continue;
    const killed = killLostGroup(candidate.id, candidate.process_host, candidate.process_group);
    const since = candidate.lease_expires_at ? ` (its lease expired at ${new Date(candidate.lease_expires_at).toISOString()})` : '';
    const finished = await finishJob(db, candidate.id, recoverer, {
      reason: 'RUNNER_LOST',
      exitCode: null,
      lines: [`The runner running this job was lost${since}; the job ended without a result.${killed ? ' Its leftover processes were stopped.' : ''}`],
      retryBaseMs: options.retryBaseMs,
    });
    if (finished) recovered.push(finished);
  }
  return recovered;
}

/** Kills a lost job's process group when it runs on this host and is provably that job's (its environment names the job). */
function killLostGroup(jobId: string, host: string | null, pid: number | null): boolean {
  if (pid === null || host !== os.hostname()) return false;
  try {
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
    if (!environ.split('\u0000').includes(`JOB_ID=${jobId}`)) return false;
  } catch {
    return false;
  }
  return killGroup(pid, 'SIGKILL');
}
