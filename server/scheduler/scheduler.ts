import type { Db } from '../db/database';
import { queueSignals } from '../runner/signals';
import type { SchedulerSettings } from './config';
import { claimSlot, pipelinesDue, type SlotOutcome, type SlotRules } from './slots';

/** What the scheduler says about itself; pino and Fastify's logger fit. */
export interface SchedulerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface SchedulerOptions extends Omit<SchedulerSettings, 'enabled'> {
  db: Db;
  log: SchedulerLog;
  /** the clock; tests move it */
  now?: () => Date;
}

/** The rules of slots for a check every `intervalMs`. */
export function slotRulesFor(intervalMs: number): SlotRules {
  return { editGraceMs: 2 * intervalMs, lateAfterMs: 2 * intervalMs + 1000 };
}

/**
 * Every `intervalMs`, queues a job for each pipeline whose latest schedule slot has none yet.
 * Runs in every server process; the claim (slots.ts) makes sure a slot gets exactly one job.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  private stopping = false;
  private readonly invalidWarned = new Set<string>();
  private readonly rules: SlotRules;

  constructor(private readonly options: SchedulerOptions) {
    this.rules = slotRulesFor(options.intervalMs);
  }

  start(): void {
    this.timer = setInterval(() => this.check(), this.options.intervalMs);
    this.timer.unref();
    this.options.log.info({ intervalMs: this.options.intervalMs }, 'scheduler: started');
    this.check();
  }

  /** No new pass starts; the one under way finishes (each claim is one short transaction). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.pass;
    this.options.log.info({}, 'scheduler: stopped');
  }

  /** One pass now, unless one is under way (a slow database must not pile passes up). */
  check(): void {
    if (this.stopping || this.pass) return;
    this.pass = this.runPass()
      .then(() => undefined)
      .catch((error: unknown) => this.options.log.error({ err: error }, 'scheduler: pass failed'))
      .finally(() => {
        this.pass = undefined;
      });
  }

  /** One pass over the due slots; answers what became of each. */
  async runPass(): Promise<SlotOutcome[]> {
    const { db, log } = this.options;
    const now = this.options.now?.() ?? new Date();
    const due = await pipelinesDue(db, now, this.rules, (pipelineId, schedule) => {
      const key = `${pipelineId} ${schedule}`;
      if (this.invalidWarned.has(key)) return;
      this.invalidWarned.add(key);
      log.warn({ pipelineId, schedule }, 'scheduler: the schedule of a pipeline is not a valid cron expression; it is not scheduled');
    });
    const outcomes: SlotOutcome[] = [];
    for (const pipeline of due) {
      if (this.stopping) break;
      try {
        const outcome = await claimSlot(db, pipeline.id, now, this.rules);
        outcomes.push(outcome);
        this.report(outcome);
      } catch (error) {
        log.error({ err: error, pipelineId: pipeline.id, slot: pipeline.slot.toISOString() }, 'scheduler: claiming a slot failed');
      }
    }
    return outcomes;
  }

  private report(outcome: SlotOutcome): void {
    const { log } = this.options;
    switch (outcome.kind) {
      case 'QUEUED':
        // The job was inserted inside the claim's transaction; wake this process's runner now it is committed.
        queueSignals.emit('queued', outcome.job.id);
        log.info({ pipelineId: outcome.pipelineId, jobId: outcome.job.id, slot: outcome.slot.toISOString(), late: outcome.late }, 'scheduler: job queued');
        break;
      case 'SKIPPED':
        log.info({ pipelineId: outcome.pipelineId, jobId: outcome.job.id, slot: outcome.slot.toISOString(), activeJobId: outcome.activeJobId }, 'scheduler: slot skipped');
        break;
      case 'TAKEN':
        log.debug({ pipelineId: outcome.pipelineId, slot: outcome.slot?.toISOString() }, 'scheduler: slot taken by another process');
        break;
      case 'NOT_DUE':
        break;
    }
  }
}
