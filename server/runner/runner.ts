import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { pipelineScript, verifyScript } from '../../src/domain/pipelineScript';
import type { Db } from '../db/database';
import { listDataComponents, type DataComponentRow } from '../repositories/dataComponents';
import { getPipeline } from '../repositories/pipelines';
import { NOTHING_ALLOWED, type AllowList } from '../security/netPolicy';
import { ensureDefaultStore } from '../stores/defaultStore';
import { RunnerBridge } from './bridge';
import { loadRunnerSettings, type RunnerSettings, type SandboxSettings } from './config';
import { jobEnvironment } from './environment';
import type { Executor, JobProcess, JobProcessResult } from './executor';
import { DiskQuotas } from './diskQuota';
import { createExecutor } from './sandbox';
import { LogWriter, lastLogSequence } from './logs';
import { projectDir, writeProjectFile } from './project';
import { ensureDeployedCommit } from './deployedRepository';
import { placeWorkspaceFiles } from './workspaceFiles';
import { claimNextJob, finishJob, recordProcessGroup, recoverLostJobs, renewLeases, stopRequestedAmong, type JobRow } from './queue';
import { queueSignals } from './signals';
import { isJobType, type JobType } from './jobKinds';
import { STORE_CHECK, runStoreCheck } from './storeChecks';
import { WORKSPACE_DEPLOY, WORKSPACE_INIT, runWorkspaceInit, startDeployment } from './workspaceJobs';
import { DEFAULT_STORE_LOADER, decideLoadTarget, loadTargetLine, withDefaultStoreLoader } from '../stores/storeKinds';
import { needsMeltano, prepareMeltanoJob, type MeltanoJob } from './meltano/job';
import { loadMeltanoSettings, type MeltanoSettings } from './meltano/settings';
import { inSteps } from './meltano/steps';
import { withWarehouseEnv } from './meltano/warehouse';
import { openWarehouse, routeStoreLoaders, type WarehouseJob } from './meltano/warehouseJob';
import { extractorKeys } from '../services/pipelineStreams';

/** What the runner says about itself; pino and Fastify's logger fit. */
export interface RunnerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  trace(obj: object, msg: string): void;
}

export interface RunnerOptions extends Omit<RunnerSettings, 'enabled' | 'sandbox' | 'diskQuotaMb'> {
  /** the job sandbox's settings; RUNNER_SANDBOX and the rest of the environment when left out */
  sandbox?: SandboxSettings;
  /** WORKSPACE_DISK_QUOTA_MB, from the environment when left out */
  diskQuotaMb?: number;
  /** how often a running workspace's project is measured against its quota (1 s) */
  diskQuotaCheckMs?: number;
  db: Db;
  /** the embedded database belongs to this process alone, so at start every RUNNING job is lost */
  exclusiveDatabase: boolean;
  dataDir: string;
  log: RunnerLog;
  /** private hosts a data-store check may reach (STORE_ALLOWED_HOSTS; none when not given) */
  storeAllowedHosts?: AllowList;
  /** where local repository paths may be deployed from (REPOSITORY_LOCAL_ROOTS; nowhere when not given) */
  repositoryLocalRoots?: readonly string[];
  /** Meltano for Python plugins (MELTANO_VERSION, RUNNER_CACHE_DIR, RUNNER_PACKAGE_INDEX_URL; the environment when left out) */
  meltano?: MeltanoSettings;
}

interface Running {
  job: JobRow;
  process: JobProcess | undefined;
  /** set when another runner took the job over: nothing more is written for it */
  lost: boolean;
  shutdown: boolean;
}

/** Runs one job here; `grant` receives a bridge token the runner revokes when the job ends. */
type JobRun = (entry: Running, writer: LogWriter, grant: (token: string) => void) => Promise<JobProcessResult>;

/**
 * Claims jobs from the jobs table and runs them, at most `concurrency` at a time. Its lease on
 * each running job is renewed by heartbeat; leases that expired elsewhere are recovered.
 */
export class Runner {
  readonly id = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly bridge: RunnerBridge;
  private executor: Executor | undefined;
  /** How each type of job runs here; keyed by every type of jobKinds.ts, so none is forgotten. */
  private readonly runs: Record<JobType, JobRun> = {
    PIPELINE_RUN: (entry, writer, grant) => this.runPipeline(entry, writer, grant),
    PIPELINE_VERIFY: (entry, writer, grant) => this.runPipeline(entry, writer, grant),
    [STORE_CHECK]: ({ job }, writer) => runStoreCheck(this.options.db, job, (line) => writer.write(line), { allowedHosts: this.options.storeAllowedHosts ?? NOTHING_ALLOWED, log: this.options.log }),
    [WORKSPACE_INIT]: ({ job }, writer) => runWorkspaceInit(this.options.db, this.options.dataDir, job, (line) => writer.write(line)),
    [WORKSPACE_DEPLOY]: (entry, writer) => this.runDeployment(entry, (line) => writer.write(line)),
  };
  private readonly running = new Map<string, Running>();
  private readonly timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private ticking = false;
  private tickAgain = false;
  private readonly onQueued = () => this.wake();
  private readonly onWithdrawn = (jobId: string) => this.running.get(jobId)?.process?.stop('WITHDRAWN');

  private readonly sandboxSettings: SandboxSettings;
  private readonly meltanoSettings: MeltanoSettings;
  /** every job that writes a workspace's project runs inside its quota, whichever executor runs it */
  private readonly quotas: DiskQuotas;

  constructor(private readonly options: RunnerOptions) {
    this.bridge = new RunnerBridge(options.db);
    this.sandboxSettings = options.sandbox ?? loadRunnerSettings().sandbox;
    this.meltanoSettings = options.meltano ?? loadMeltanoSettings(options.dataDir);
    this.quotas = new DiskQuotas({
      quotaMb: options.diskQuotaMb ?? loadRunnerSettings().diskQuotaMb,
      ...(options.diskQuotaCheckMs !== undefined ? { intervalMs: options.diskQuotaCheckMs } : {}),
      onError: (error) => options.log.error({ err: error }, 'runner: a disk quota check failed'),
    });
  }

  get activeJobs(): number {
    return this.running.size;
  }

  async start(): Promise<void> {
    await this.bridge.listen();
    // Tried for real before the first job: a runner that cannot isolate jobs says so now, and refuses them.
    const choice = await createExecutor(this.sandboxSettings, [this.options.dataDir]);
    this.executor = choice.executor;
    for (const warning of choice.warnings) this.options.log.warn({ runner: this.id }, `runner: ${warning}`);
    if (choice.executor.kind === 'unavailable') this.options.log.error({ runner: this.id }, `runner: no job sandbox can be built, so no workspace job will run: ${choice.executor.describe()} (RUNNER_SANDBOX=off waives the sandbox on a trusted single-team install)`);
    else this.options.log.info({ runner: this.id, sandbox: choice.executor.kind }, `runner: ${choice.executor.describe()}`);
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
    this.executor?.close();
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
      if (!isJobType(job.type)) throw new Error(`This runner does not know jobs of type ${job.type}.`);
      result = await this.runs[job.type](entry, writer, (granted) => (token = granted));
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
    // a job this worker stopped only because it is stopping goes back to the queue for another (queue.ts)
    const handBack = result.reason === 'RUNNER_LOST' && entry.shutdown;
    const finished = await finishJob(db, job.id, this.id, { reason: result.reason, exitCode: result.exitCode, lines, retryBaseMs: this.options.retryBaseMs, handBack });
    if (finished) {
      log.info({ jobId: job.id, status: finished.status, exitCode: result.exitCode, retry: finished.retry?.id, triggered: finished.triggered.map((t) => t.id) }, 'runner: job ended');
    }
  }

  private requireExecutor(): Executor {
    if (!this.executor) throw new Error('The runner has not started.');
    return this.executor;
  }

  /** Clones the workspace's repository in a process of its own (stoppable like a pipeline's), then reads it. */
  private async runDeployment(entry: Running, write: (line: string) => void): Promise<JobProcessResult> {
    let after: ((result: JobProcessResult) => Promise<JobProcessResult>) | undefined;
    // the clone lands in the project directory, so it counts against the workspace's quota
    const result = await this.quotas.run(entry.job.workspace_id, projectDir(this.options.dataDir, entry.job.workspace_id), write, async () => {
      const started = await startDeployment(this.options.db, this.options.dataDir, entry.job, write, { killGraceMs: this.options.killGraceMs, repositoryLocalRoots: this.options.repositoryLocalRoots ?? [], executor: this.requireExecutor() });
      if (started.done || !started.process) return ended(started.done ?? { reason: 'SPAWN_FAILED', exitCode: null, signal: null });
      after = started.after;
      return await this.track(entry, started.process);
    });
    return after ? await after(result) : result;
  }

  /** The job's process, recorded so that it can be stopped here and found again by a later runner. */
  private async track(entry: Running, started: JobProcess): Promise<JobProcess> {
    entry.process = started;
    if (started.pid !== undefined) await recordProcessGroup(this.options.db, entry.job.id, this.id, started.pid);
    if (this.stopping) started.stop('RUNNER_LOST');
    return started;
  }

  /**
   * This worker's disk is a cache (issue 42): before a pipeline job runs, its project gets what the
   * database records — the deployed commit (fetched when this disk lacks it) and the workspace's
   * files; the generated meltano.yml and Meltano's state follow in the steps below. A result ends
   * the job (the fetch failed or was stopped).
   */
  private async materialiseProject(entry: Running, write: (line: string) => void): Promise<JobProcessResult | undefined> {
    const { db, dataDir } = this.options;
    const job = entry.job;
    const fetched = await ensureDeployedCommit(db, job, {
      dataDir,
      executor: this.requireExecutor(),
      repositoryLocalRoots: this.options.repositoryLocalRoots ?? [],
      killGraceMs: this.options.killGraceMs,
      write,
      // the clone lands in the project directory, so it counts against the workspace's quota
      run: (start) => this.quotas.run(job.workspace_id, projectDir(dataDir, job.workspace_id), write, () => this.track(entry, start())),
    });
    if (fetched) return fetched;
    const placed = await placeWorkspaceFiles(db, job.workspace_id, projectDir(dataDir, job.workspace_id));
    if (placed.written > 0) write(`Placed ${placed.written} of the workspace's files in the project (${placed.kept} already there).`);
    for (const line of placed.refused) write(`Not placed in the project: ${line}.`);
    return undefined;
  }

  /** Runs a pipeline job's script; `grant` receives the job's bridge token, revoked by the caller. */
  private async runPipeline(entry: Running, writer: LogWriter, grant: (token: string) => void): Promise<JobProcessResult> {
    const { db } = this.options;
    const job = entry.job;
    const pipeline = job.pipeline_id ? await getPipeline(db, job.pipeline_id) : undefined;
    if (!pipeline) throw new Error('The pipeline of this job no longer exists.');
    const materialised = await this.materialiseProject(entry, (line) => writer.write(line));
    if (materialised) return materialised;
    // A target-store component loads into the default store, whichever store that is (storeKinds.ts).
    const store = await ensureDefaultStore(db, job.workspace_id);
    const own = await listDataComponents(db, job.workspace_id);
    const storeLoaders = new Set(own.filter((c) => c.plugin_name === DEFAULT_STORE_LOADER).map((c) => c.name));
    const all = withDefaultStoreLoader(own, store);
    let components = pipeline.data_components.map((name) => all.find((c) => c.name === name)).filter((c) => c !== undefined);
    const missing = pipeline.data_components.filter((name) => !all.some((c) => c.name === name));
    if (missing.length > 0) writer.write(`Components not found in the workspace: ${missing.join(', ')}.`);
    const loadsIntoStore = components.some((c) => c.plugin_name === 'target-postgres' && storeLoaders.has(c.name));
    if (loadsIntoStore) {
      // The server's network policy on the store the run loads into, and the address it checked (pinned).
      const decision = await decideLoadTarget(store, this.options.storeAllowedHosts ?? NOTHING_ALLOWED);
      if (!decision.ok) {
        writer.write(decision.line);
        this.options.log.warn({ jobId: job.id, reason: decision.reason }, 'runner: the default store is refused by the network policy');
        return { reason: 'EXITED', exitCode: 1, signal: null };
      }
      writer.write(loadTargetLine(store) ?? '');
      if (decision.host) components = components.map((c) => (storeLoaders.has(c.name) ? { ...c, properties: { ...c.properties, host: decision.host } } : c));
    }
    const dir = projectDir(this.options.dataDir, job.workspace_id);
    const executor = this.requireExecutor();
    const paths = executor.paths(dir, this.bridge.socketPath);
    // A Python plugin runs through the real Meltano (meltano/); built-in plugins alone never provision it.
    let meltano: MeltanoJob | undefined;
    let workspaceComponents = all;
    if (needsMeltano(components)) {
      // on PGlite a loader bound for the store becomes target-store before anything is installed (warehouseJob.ts)
      ({ workspaceComponents, pipelineComponents: components } = await routeStoreLoaders({ db, workspaceId: job.workspace_id, projectDir: dir, workspaceComponents: all, pipelineComponents: components, pipelineProperties: pipeline.properties, write: (line) => writer.write(line) }));
    }
    if (needsMeltano(components)) {
      meltano = await prepareMeltanoJob({
        db,
        settings: this.meltanoSettings,
        jobId: job.id,
        workspaceId: job.workspace_id,
        pipelineId: pipeline.id,
        projectDir: dir,
        projectPath: paths.project,
        workspaceComponents,
        pipelineComponents: components,
        write: (line) => writer.write(line),
      });
      if (!meltano) return { reason: 'EXITED', exitCode: 1, signal: null };
    }
    // Meltano's loaders bound for the store reach it through a proxy of this job's own, closed when the job ends
    const warehouse = meltano
      ? await openWarehouse({ db, workspaceId: job.workspace_id, jobId: job.id, pipelineId: pipeline.id, projectDir: dir, unsandboxed: paths.project === dir, pipelineComponents: components, definitions: meltano.definitions, pipelineProperties: pipeline.properties, write: (line) => writer.write(line), log: (line) => this.options.log.warn({ jobId: job.id }, `runner: ${line}`) })
      : undefined;
    try {
      return await this.runPipelineSteps(entry, writer, grant, { pipeline, components, workspaceComponents, meltano, warehouse, dir, executor, paths });
    } finally {
      await warehouse?.close();
    }
  }

  private async runPipelineSteps(
    entry: Running,
    writer: LogWriter,
    grant: (token: string) => void,
    { pipeline, components, workspaceComponents, meltano, warehouse, dir, executor, paths }: { pipeline: NonNullable<Awaited<ReturnType<typeof getPipeline>>>; components: DataComponentRow[]; workspaceComponents: DataComponentRow[]; meltano: MeltanoJob | undefined; warehouse: WarehouseJob | undefined; dir: string; executor: Executor; paths: ReturnType<Executor['paths']> },
  ): Promise<JobProcessResult> {
    const { db } = this.options;
    const job = entry.job;
    writeProjectFile(dir, workspaceComponents, meltano?.definitions);
    const scriptComponents = components.map((c) => ({ name: c.name, pluginType: c.plugin_type, pluginName: c.plugin_name }));
    const script = job.type === 'PIPELINE_VERIFY' ? verifyScript(scriptComponents) : pipelineScript({ id: pipeline.id, script: pipeline.script, actions: pipeline.actions, components: scriptComponents });
    // a verify job's discoveries are kept, each under its extractor's configuration (pipelineStreams.ts)
    const catalogKeys = job.type === 'PIPELINE_VERIFY' ? Object.fromEntries(extractorKeys(components, pipeline.properties).map(({ component, key }) => [component.name, key])) : undefined;
    const token = this.bridge.grant({ jobId: job.id, workspaceId: job.workspace_id, pipelineId: pipeline.id, ...(catalogKeys ? { catalogKeys } : {}) });
    grant(token);
    const { env: settingsEnv, skipped } = jobEnvironment({
      jobId: job.id,
      workspaceId: job.workspace_id,
      pipelineId: pipeline.id,
      projectDir: paths.project,
      tmpDir: paths.tmp,
      components,
      pipelineProperties: pipeline.properties,
      bridgeSocket: paths.bridgeSocket,
      bridgeToken: token,
      allowedHosts: this.sandboxSettings.network.allowedHosts,
    });
    const env = withWarehouseEnv(meltano ? meltano.env(settingsEnv) : settingsEnv, warehouse?.env);
    if (skipped.length > 0) writer.write(`Settings not passed to the job (no such component, an unusable name, or a variable in the system's namespace): ${skipped.join(', ')}.`);
    writer.write(executor.describe());
    const deadline = Date.now() + job.timeout_seconds * 1000;
    const step = (stepScript: string, egress: MeltanoJob['runEgress'] | undefined) =>
      executor.start({
        workspaceId: job.workspace_id,
        script: stepScript,
        projectDir: dir,
        env,
        bridgeSocket: this.bridge.socketPath,
        ...(meltano ? { readOnlyPaths: meltano.readOnlyPaths } : {}),
        ...(warehouse ? { sockets: warehouse.sockets } : {}),
        egress,
        timeoutMs: Math.max(1000, deadline - Date.now()),
        killGraceMs: this.options.killGraceMs,
        onLine: (line) => {
          writer.write(line);
          warehouse?.observe(line);
        },
      });
    const result = await this.quotas.run(job.workspace_id, dir, (line) => writer.write(line), () => {
      if (!meltano) return this.track(entry, step(script, undefined));
      const m = meltano;
      writer.write(`Installing the pipeline's Python plugins whose requirements changed (meltano install): ${m.installScript.trim().split('\n').pop() ?? ''}`);
      const install = step(m.installScript, m.installEgress);
      // install, then run: stop, timeout and the disk quota reach whichever step is running
      const both = inSteps(
        install,
        (installed) => {
          if (installed.reason !== 'EXITED' || installed.exitCode !== 0) {
            writer.write(`The pipeline's plugins could not be installed (the install step ${installed.reason === 'EXITED' ? `exited with ${installed.exitCode ?? 'a signal'}` : installed.reason.toLowerCase()}); the pipeline did not run.`);
            return undefined;
          }
          writer.write('Plugins installed. Running the pipeline.');
          return step(`${m.seed}${script}`, m.runEgress);
        },
        (second) => void (second.pid !== undefined ? recordProcessGroup(db, job.id, this.id, second.pid).catch(() => undefined) : undefined),
      );
      return this.track(entry, both);
    });
    // the state Meltano wrote goes back to the database whatever the job's status, unless another runner owns it now
    if (meltano && !entry.lost) {
      try {
        for (const line of await meltano.harvest()) writer.write(line);
      } catch (error) {
        writer.write(`Meltano's state could not be saved: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    // a store that went past its limit ends the job in error, whatever the script made of its loaders' failure
    if (warehouse?.storeFull && result.reason === 'EXITED' && result.exitCode === 0) return { ...result, exitCode: 1 };
    // a run that ended well: what Meltano's loaders put in the store, counted as the bridge counts target-store's
    if (warehouse && !entry.lost && result.reason === 'EXITED' && result.exitCode === 0) {
      try {
        for (const line of await warehouse.record()) writer.write(line);
      } catch (error) {
        writer.write(`The rows loaded into the store could not be recorded: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return result;
  }
}

/** A job that ended before any process started, as the process it never had. */
function ended(result: JobProcessResult): JobProcess {
  return { pid: undefined, done: Promise.resolve(result), stop: () => undefined };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
