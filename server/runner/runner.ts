import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { pipelineScript, verifyScript } from '../../src/domain/pipelineScript';
import type { Db } from '../db/database';
import { listDataComponents } from '../repositories/dataComponents';
import { getPipeline } from '../repositories/pipelines';
import { ensureDefaultStore } from '../stores/defaultStore';
import { RunnerBridge } from './bridge';
import type { RunnerSettings } from './config';
import { jobEnvironment } from './environment';
import { startJobProcess, type JobProcess, type JobProcessResult } from './jobProcess';
import { LogWriter, lastLogSequence } from './logs';
import { projectDir, writeProjectFile } from './project';
import { claimNextJob, finishJob, recordProcessGroup, recoverLostJobs, renewLeases, stopRequestedAmong, type JobRow } from './queue';
import { queueSignals } from './signals';
import { STORE_CHECK, runStoreCheck } from './storeChecks';
import { WORKSPACE_DEPLOY, WORKSPACE_INIT, runWorkspaceInit, startDeployment } from './workspaceJobs';
import { loadTargetLine, withDefaultStoreLoader } from '../stores/storeKinds';

/** What the runner says about itself; pino and Fastify's logger fit. */
export interface RunnerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  trace(obj: object, msg: string): void;
}

export interface RunnerOptions extends Omit<RunnerSettings, 'enabled'> {
  db: Db;
  /** the embedded database belongs to this process alone, so at start every RUNNING job is lost */
  exclusiveDatabase: boolean;
  dataDir: string;
  log: RunnerLog;
}

interface Running {
  job: JobRow;
  process: JobProcess | undefined;
  /** set when another runner took the job over: nothing more is written for it */
  lost: boolean;
  shutdown: boolean;
}

/**
 * Claims jobs from the jobs table and runs them, at most `concurrency` at a time. Its lease on
 * each running job is renewed by heartbeat; leases that expired elsewhere are recovered.
 */
export class Runner {
  readonly id = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly bridge: RunnerBridge;
  private readonly running = new Map<string, Running>();
  private readonly timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private ticking = false;
  private tickAgain = false;
  private readonly onQueued = () => this.wake();
  private readonly onWithdrawn = (jobId: string) => this.running.get(jobId)?.process?.stop('WITHDRAWN');

  constructor(private readonly options: RunnerOptions) {
    this.bridge = new RunnerBridge(options.db);
  }

  get activeJobs(): number {
    return this.running.size;
  }

  async start(): Promise<void> {
    await this.bridge.listen();
    await this.recover(this.options.exclusiveDatabase);
    queueSignals.on('queued', this.onQueued);
    queueSignals.on('withdrawn', this.onWithdrawn);
    const every = (ms: number, task: () => Promise<unknown>) => {
      const timer = setInterval(() => void task().catch((error: unknown) => this.options.log.error({ err: error }, 'runner: background task failed')), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.pollMs, () => this.tick());
    every(Math.max(250, Math.floor(this.options.leaseMs / 3)), () => this.heartbeat());
    every(Math.min(1000, this.options.pollMs), () => this.watchStops());
    every(this.options.leaseMs, () => this.recover(false));
    this.options.log.info({ runner: this.id, concurrency: this.options.concurrency }, 'runner: started');
    this.wake();
  }

  /**
   * Stops claiming; running jobs get the grace period to finish, then their process groups are
   * stopped and they end ERROR (retried if attempts remain) with a log line saying why.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    queueSignals.off('queued', this.onQueued);
    queueSignals.off('withdrawn', this.onWithdrawn);
    const deadline = Date.now() + this.options.shutdownGraceMs;
    while (this.running.size > 0 && Date.now() < deadline) await sleep(100);
    for (const entry of this.running.values()) {
      entry.shutdown = true;
      entry.process?.stop('RUNNER_LOST');
    }
    while (this.running.size > 0) await sleep(50);
    for (const timer of this.timers) clearInterval(timer);
    await this.bridge.close();
    this.options.log.info({ runner: this.id }, 'runner: stopped');
  }

  wake(): void {
    void this.tick().catch((error: unknown) => this.options.log.error({ err: error }, 'runner: claim failed'));
  }

  private async tick(): Promise<void> {
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    try {
      do {
        this.tickAgain = false;
        while (!this.stopping && this.running.size < this.options.concurrency) {
          const job = await claimNextJob(this.options.db, this.id, this.options.leaseMs);
          if (!job) break;
          const entry: Running = { job, process: undefined, lost: false, shutdown: false };
          this.running.set(job.id, entry);
          void this.run(entry).finally(() => {
            this.running.delete(job.id);
            this.wake();
          });
        }
      } while (this.tickAgain && !this.stopping);
    } finally {
      this.ticking = false;
    }
  }

  private async heartbeat(): Promise<void> {
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    const { owned, stopRequested } = await renewLeases(this.options.db, this.id, ids, this.options.leaseMs);
    for (const id of ids) {
      const entry = this.running.get(id);
      if (!entry) continue;
      if (!owned.has(id) && entry.process) {
        // Our lease lapsed and another runner recovered the job: it must not run on here.
        entry.lost = true;
        entry.process.stop('RUNNER_LOST');
        this.options.log.warn({ jobId: id }, 'runner: lease lost, job stopped here');
      } else if (stopRequested.has(id)) entry.process?.stop('WITHDRAWN');
    }
  }

  private async watchStops(): Promise<void> {
    const ids = [...this.running.keys()];
    for (const id of await stopRequestedAmong(this.options.db, this.id, ids)) this.running.get(id)?.process?.stop('WITHDRAWN');
  }

  private async recover(everyRunning: boolean): Promise<void> {
    if (this.stopping) return;
    const recovered = await recoverLostJobs(this.options.db, `${this.id}:recovery`, { everyRunning, retryBaseMs: this.options.retryBaseMs });
    for (const r of recovered) this.options.log.warn({ jobId: r.job.id, status: r.status, retry: r.retry?.id }, 'runner: recovered a job whose runner was lost');
    if (recovered.length > 0) this.wake();
  }

  private async run(entry: Running): Promise<void> {
    const { db, log } = this.options;
    const job = entry.job;
    const writer = new LogWriter(db, job.id, await lastLogSequence(db, job.id), (jobId, sequence) => log.trace({ jobId, sequence }, 'runner: job log written'));
    let result: JobProcessResult;
    let token: string | undefined;
    try {
      writer.write(`Job started on ${os.hostname()} (runner ${this.id}), attempt ${job.attempt} of ${job.max_attempts}.`);
      const write = (line: string) => writer.write(line);
      if (job.type === STORE_CHECK) result = await runStoreCheck(db, job, write);
      else if (job.type === WORKSPACE_INIT) result = await runWorkspaceInit(db, this.options.dataDir, job, write);
      else if (job.type === WORKSPACE_DEPLOY) result = await this.runDeployment(entry, write);
      else result = await this.runPipeline(entry, writer, (granted) => (token = granted));
    } catch (error) {
      writer.write(error instanceof Error ? error.message : String(error));
      result = { reason: 'SPAWN_FAILED', exitCode: null, signal: null };
    } finally {
      if (token) this.bridge.revoke(token);
    }
    const lines: string[] = [];
    if (result.reason === 'TIMEOUT') lines.push(`Job timed out after ${job.timeout_seconds} s and was stopped.`);
    if (result.reason === 'WITHDRAWN') lines.push('Job stopped on request.');
    if (result.reason === 'RUNNER_LOST' && entry.shutdown) lines.push('The server shut down while the job was running; the job was stopped.');
    try {
      await writer.flush();
    } catch (error) {
      log.error({ err: error, jobId: job.id }, 'runner: job log lines could not be written');
    }
    if (entry.lost) return;
    const finished = await finishJob(db, job.id, this.id, { reason: result.reason, exitCode: result.exitCode, lines, retryBaseMs: this.options.retryBaseMs });
    if (finished) {
      log.info({ jobId: job.id, status: finished.status, exitCode: result.exitCode, retry: finished.retry?.id, triggered: finished.triggered.map((t) => t.id) }, 'runner: job ended');
    }
  }

  /** Clones the workspace's repository in a process of its own (stoppable like a pipeline's), then reads it. */
  private async runDeployment(entry: Running, write: (line: string) => void): Promise<JobProcessResult> {
    const started = await startDeployment(this.options.db, this.options.dataDir, entry.job, write, { killGraceMs: this.options.killGraceMs });
    if (started.done || !started.process) return started.done ?? { reason: 'SPAWN_FAILED', exitCode: null, signal: null };
    entry.process = started.process;
    if (started.process.pid !== undefined) await recordProcessGroup(this.options.db, entry.job.id, this.id, started.process.pid);
    if (this.stopping) started.process.stop('RUNNER_LOST');
    const result = await started.process.done;
    return started.after ? await started.after(result) : result;
  }

  /** Runs a pipeline job's script; `grant` receives the job's bridge token, revoked by the caller. */
  private async runPipeline(entry: Running, writer: LogWriter, grant: (token: string) => void): Promise<JobProcessResult> {
    const { db } = this.options;
    const job = entry.job;
    const pipeline = job.pipeline_id ? await getPipeline(db, job.pipeline_id) : undefined;
    if (!pipeline) throw new Error('The pipeline of this job no longer exists.');
    // A target-store component loads into the default store, whichever store that is (storeKinds.ts).
    const store = await ensureDefaultStore(db, job.workspace_id);
    const all = withDefaultStoreLoader(await listDataComponents(db, job.workspace_id), store);
    const components = pipeline.data_components.map((name) => all.find((c) => c.name === name)).filter((c) => c !== undefined);
    const missing = pipeline.data_components.filter((name) => !all.some((c) => c.name === name));
    if (missing.length > 0) writer.write(`Components not found in the workspace: ${missing.join(', ')}.`);
    const target = loadTargetLine(store);
    if (target && components.some((c) => c.plugin_name === 'target-postgres')) writer.write(target);
    const dir = projectDir(this.options.dataDir, job.workspace_id);
    writeProjectFile(dir, all);
    const scriptComponents = components.map((c) => ({ name: c.name, pluginType: c.plugin_type, pluginName: c.plugin_name }));
    const script = job.type === 'PIPELINE_VERIFY' ? verifyScript(scriptComponents) : pipelineScript({ id: pipeline.id, script: pipeline.script, actions: pipeline.actions, components: scriptComponents });
    const token = this.bridge.grant({ jobId: job.id, workspaceId: job.workspace_id, pipelineId: pipeline.id });
    grant(token);
    const { env, skipped } = jobEnvironment({
      jobId: job.id,
      workspaceId: job.workspace_id,
      pipelineId: pipeline.id,
      projectDir: dir,
      components,
      pipelineProperties: pipeline.properties,
      bridgeSocket: this.bridge.socketPath,
      bridgeToken: token,
    });
    if (skipped.length > 0) writer.write(`Settings not passed to the job (no such component, or a reserved or unusable name): ${skipped.join(', ')}.`);
    const started = startJobProcess({
      script,
      cwd: dir,
      env,
      timeoutMs: job.timeout_seconds * 1000,
      killGraceMs: this.options.killGraceMs,
      onLine: (line) => writer.write(line),
    });
    entry.process = started;
    if (started.pid !== undefined) await recordProcessGroup(db, job.id, this.id, started.pid);
    if (this.stopping) started.stop('RUNNER_LOST');
    return await started.done;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
