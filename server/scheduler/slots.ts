import { dueSlot, nextRunTimes } from '../../src/domain/cron';
import type { Db } from '../db/database';
import { isUniqueViolation } from '../repositories/ids';
import { activeJobOfPipeline } from '../repositories/jobs';
import { appendLogLines } from '../runner/logs';
import { insertJobIfIdle, newJobFor, type JobRow } from '../runner/queue';

// Turning due schedule slots into jobs. Every server process runs this; no leader is elected.
// Per pipeline, a claim locks the pipeline row, re-reads the last slot taken and decides, so two
// processes that see the same slot are serialised and the second finds it taken. The unique index
// on (pipeline_id, scheduled_slot) stays the last word should anything get past the lock.

export interface SlotRules {
  /**
   * Edits shortly after a slot do not cancel it: the schedule counts from the pipeline's last
   * save minus this grace (the scheduler's own reaction time), not from the save itself.
   */
  editGraceMs: number;
  /** a slot claimed later than this after its time gets a log line saying it ran late */
  lateAfterMs: number;
}

export type SlotOutcome =
  | { kind: 'QUEUED'; pipelineId: string; slot: Date; job: JobRow; late: boolean }
  | { kind: 'SKIPPED'; pipelineId: string; slot: Date; job: JobRow; activeJobId: string }
  /** another process took the slot first (found under the lock, or by the unique index) */
  | { kind: 'TAKEN'; pipelineId: string; slot: Date | null }
  /** nothing due any more: the schedule changed, the pipeline became a draft or was deleted */
  | { kind: 'NOT_DUE'; pipelineId: string };

interface ScheduledPipeline {
  id: string;
  schedule: string;
  slot: Date;
}

/** Non-draft pipelines with a schedule whose latest slot has no job yet (a pre-filter: claimSlot decides). */
export async function pipelinesDue(db: Db, now: Date, rules: SlotRules, onInvalid?: (pipelineId: string, schedule: string) => void): Promise<ScheduledPipeline[]> {
  const rows = await db
    .selectFrom('pipelines as p')
    .select(['p.id', 'p.schedule', 'p.last_modified'])
    .select((eb) => eb.selectFrom('jobs as j').select((j) => j.fn.max('j.scheduled_slot').as('m')).whereRef('j.pipeline_id', '=', 'p.id').as('last_slot'))
    .where('p.schedule', 'is not', null)
    .where('p.draft', '=', false)
    .execute();
  const due: ScheduledPipeline[] = [];
  for (const row of rows) {
    if (!row.schedule) continue;
    const slot = dueSlot(row.schedule, now, boundOf(row.last_slot, row.last_modified, rules));
    if (slot) due.push({ id: row.id, schedule: row.schedule, slot });
    else if (nextRunTimes(row.schedule, 1, now).length === 0) onInvalid?.(row.id, row.schedule);
  }
  return due;
}

/**
 * Takes the slot due at `now` for one pipeline: a QUEUED job, or a SKIPPED one when the pipeline
 * still has a job QUEUED or RUNNING. The job and its first log line are written in one transaction.
 */
export async function claimSlot(db: Db, pipelineId: string, now: Date, rules: SlotRules): Promise<SlotOutcome> {
  let slotSeen: Date | null = null;
  try {
    return await db.transaction().execute(async (trx): Promise<SlotOutcome> => {
      const pipeline = await trx
        .selectFrom('pipelines')
        .select(['id', 'workspace_id', 'name', 'schedule', 'draft', 'last_modified', 'max_retries', 'timeout'])
        .where('id', '=', pipelineId)
        .forNoKeyUpdate()
        .executeTakeFirst();
      if (!pipeline || pipeline.draft || !pipeline.schedule) return { kind: 'NOT_DUE', pipelineId };
      const last = await trx.selectFrom('jobs').select((eb) => eb.fn.max('scheduled_slot').as('m')).where('pipeline_id', '=', pipelineId).executeTakeFirst();
      const lastSlot = last?.m ? new Date(last.m) : null;
      const bound = boundOf(lastSlot, pipeline.last_modified, rules);
      const slot = dueSlot(pipeline.schedule, now, bound);
      if (!slot) return lastSlot && dueSlot(pipeline.schedule, now, null)?.getTime() === lastSlot.getTime() ? { kind: 'TAKEN', pipelineId, slot: lastSlot } : { kind: 'NOT_DUE', pipelineId };
      slotSeen = slot;

      const job = newJobFor(pipeline, { type: 'PIPELINE_RUN', triggerKind: 'SCHEDULE', triggeredBy: `schedule ${pipeline.schedule} (slot ${slot.toISOString()})`, scheduledSlot: slot });
      // A job of the pipeline may end between the insert and the look-up; then the insert is tried again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const queued = await insertJobIfIdle(trx, job);
        if (queued) {
          const late = now.getTime() - slot.getTime() > rules.lateAfterMs;
          await appendLogLines(trx, queued.id, [`Scheduled run for the slot ${slot.toISOString()} (schedule ${pipeline.schedule}, UTC).`, ...(late ? lateLines(pipeline.schedule, slot, now, lastSlot) : [])], now);
          return { kind: 'QUEUED', pipelineId, slot, job: queued, late };
        }
        const active = await activeJobOfPipeline(trx, pipelineId);
        if (!active) continue;
        const skipped = await insertJobIfIdle(trx, { ...job, status: 'SKIPPED' });
        if (!skipped) throw new Error('a SKIPPED job was not inserted');
        await appendLogLines(
          trx,
          skipped.id,
          [`Skipped the scheduled run for the slot ${slot.toISOString()}: the previous job ${active.id} of this pipeline was still ${active.status}, and a pipeline runs one job at a time.`],
          now,
        );
        return { kind: 'SKIPPED', pipelineId, slot, job: skipped, activeJobId: active.id };
      }
      throw new Error(`pipeline ${pipelineId} kept changing between starting a job and looking up its active job`);
    });
  } catch (error) {
    // The backstop: another process inserted the slot past the lock (e.g. the pipeline row was
    // deleted and re-created); the unique (pipeline_id, scheduled_slot) index refused ours.
    if (isUniqueViolation(error)) return { kind: 'TAKEN', pipelineId, slot: slotSeen };
    throw error;
  }
}

/** The moment after which slots count: the last slot taken, or the last save less the grace. */
function boundOf(lastSlot: Date | string | null, lastModified: Date | string, rules: SlotRules): Date {
  const saved = new Date(new Date(lastModified).getTime() - rules.editGraceMs);
  if (!lastSlot) return saved;
  const last = new Date(lastSlot);
  return last.getTime() > saved.getTime() ? last : saved;
}

function lateLines(schedule: string, slot: Date, now: Date, lastSlot: Date | null): string[] {
  const lines = [`This run starts ${duration(now.getTime() - slot.getTime())} after its slot: no server was checking the schedule at ${slot.toISOString()}.`];
  if (lastSlot) {
    const LIMIT = 100;
    const missed = nextRunTimes(schedule, LIMIT, lastSlot).filter((t) => t.getTime() < slot.getTime()).length;
    if (missed > 0) lines.push(`${missed >= LIMIT ? `${LIMIT} or more` : missed} earlier slot${missed === 1 ? ' was' : 's were'} missed and not run: after an outage only the latest slot runs, once.`);
  }
  return lines;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m} min`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} days`;
}
