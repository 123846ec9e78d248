import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/database';
import { DIGEST_CHECK_MS, startDigests } from './notifications/digest';
import { OpenLineageSender, senderSettings } from './openLineage/sender';
import { Runner, loadRunnerSettings } from './runner';
import { Scheduler, loadSchedulerSettings } from './scheduler';

/** What a process does besides serving HTTP: run jobs, queue scheduled ones, send digests. */
interface BackgroundWork {
  start(): Promise<void>;
  /** no new slots first, then stop claiming; running jobs get their grace period */
  stop(): Promise<void>;
  /** how long stop() may take before a process should give up on it */
  readonly stopBudgetMs: number;
}

/**
 * The queue's workers and the scheduler, as `npm start` (beside the API) and `npm run worker`
 * (alone) both run them. Every process may run them: the queue's claims and the schedules' slots
 * make sure nothing runs twice (server/runner/queue.ts, server/scheduler/slots.ts).
 */
export function backgroundWork(deps: { config: Config; db: Db; exclusiveDatabase: boolean; log: FastifyBaseLogger }): BackgroundWork {
  const runnerSettings = loadRunnerSettings();
  const schedulerSettings = loadSchedulerSettings();
  const runner = runnerSettings.enabled
    ? new Runner({ ...runnerSettings, db: deps.db, exclusiveDatabase: deps.exclusiveDatabase, dataDir: deps.config.dataDir, log: deps.log, storeAllowedHosts: deps.config.storeAllowedHosts, repositoryLocalRoots: deps.config.repositoryLocalRoots })
    : undefined;
  const scheduler = schedulerSettings.enabled ? new Scheduler({ intervalMs: schedulerSettings.intervalMs, db: deps.db, log: deps.log }) : undefined;
  // OpenLineage events go out from every process: leases keep each event to one sender
  const openLineage = new OpenLineageSender({ db: deps.db, log: deps.log, settings: senderSettings(deps.config) });
  let stopDigests: (() => Promise<void>) | undefined;
  return {
    stopBudgetMs: runnerSettings.shutdownGraceMs + runnerSettings.killGraceMs + 10_000,
    async start() {
      await runner?.start();
      openLineage.start();
      scheduler?.start();
      // Digests ride with the scheduler: a process that checks schedules also checks due digests.
      if (scheduler) stopDigests = startDigests({ db: deps.db, config: deps.config, log: deps.log }, DIGEST_CHECK_MS);
    },
    async stop() {
      await scheduler?.stop();
      await stopDigests?.();
      await runner?.stop();
      await openLineage.stop();
    },
  };
}

/**
 * Stops the process on SIGTERM or SIGINT: `steps` in order, then exit 0; exit 1 when a step fails
 * or when they take longer than `budgetMs`.
 */
export function stopOnSignals(log: FastifyBaseLogger, what: string, budgetMs: number, steps: ReadonlyArray<() => Promise<unknown>>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${what}shutting down`);
    const force = setTimeout(() => process.exit(1), budgetMs);
    force.unref();
    try {
      for (const step of steps) await step();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, `${what}shutdown failed`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
