import type { EndReason } from '../../src/domain/jobStatus';

// What running a job's process takes, whatever runs it. The local sandbox (sandbox/) implements
// it today; a Kubernetes Job executor would implement the same contract: one pod per job, the
// same environment, output line by line into the job's log, stop and timeout, a group id the
// runner records so a later runner can end a lost job (docs/decisions.md, "Job sandbox").

/**
 * Why the runner stops a job. LIMIT: the job broke a limit the runner itself watches (the
 * workspace's disk quota, diskQuota.ts), whose line the runner has already logged: the group is
 * killed at once, without the grace a polite stop gets, and the job ends ERROR like any limit's.
 */
export type StopReason = 'WITHDRAWN' | 'TIMEOUT' | 'RUNNER_LOST' | 'LIMIT';

export interface JobProcessResult {
  reason: EndReason;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

export interface JobProcess {
  /** the process group id (the leader's pid), recorded so a later runner can kill a lost job's group */
  pid: number | undefined;
  done: Promise<JobProcessResult>;
  /** stops the whole group: SIGTERM, then SIGKILL after the grace period */
  stop(reason: StopReason): void;
}

/** Per-job bounds (README "Configuration": RUNNER_MEMORY_MB and the rest). */
export interface JobLimits {
  memoryMb: number;
  cpuSeconds: number;
  processes: number;
  openFiles: number;
  fileSizeMb: number;
  logMb: number;
}

export interface NetworkPolicy {
  mode: 'public' | 'none';
  /** private hosts and ranges (IPs, CIDRs or names) a deployment allows despite the default refusal */
  allowedHosts: readonly string[];
  /** only `allowedHosts` (and the sandbox's DNS forwarder) are reachable: the default route is refused too */
  exclusive?: boolean;
}

/**
 * What one job may reach beyond, or instead of, the executor's policy (a Python pipeline's package
 * index, meltano/). It never gives a network to an executor that has none (RUNNER_NETWORK=none).
 */
export interface JobEgress {
  /** host names, IPs or CIDRs, resolved when the job starts and routed through */
  allowHosts: readonly string[];
  /** true: these hosts and nothing else, not even the public internet */
  exclusive: boolean;
  /** how the job log names it, e.g. "the package index pypi.org" */
  label: string;
}

/** Where a job sees its things: the sandbox mounts them at fixed places, no sandbox leaves them where they are. */
export interface JobPaths {
  project: string;
  bridgeSocket: string;
  tmp: string;
}

export interface JobSpec {
  /** whose job: a sandbox runs each workspace under an outer uid of its own */
  workspaceId: string;
  /** bash script text */
  script: string;
  /** host path of the workspace's project directory, the one writable place */
  projectDir: string;
  /** exactly the job's environment, built with `paths()` */
  env: Record<string, string>;
  /** host path of the runner's bridge socket, mounted for jobs that load through it */
  bridgeSocket?: string | undefined;
  /** Unix sockets bound into the sandbox at `target` (the store proxy's); a job without a sandbox uses the host path */
  sockets?: ReadonlyArray<{ source: string; target: string }>;
  /** host paths the job may read, visible at the same path (a local repository to clone, Meltano's environment) */
  readOnlyPaths?: readonly string[];
  /** this job's network beside the executor's policy (none: the policy as it is) */
  egress?: JobEgress | undefined;
  timeoutMs: number;
  /** after SIGTERM, how long the group has before SIGKILL */
  killGraceMs: number;
  onLine(line: string, stream: 'stdout' | 'stderr'): void;
}

export interface Executor {
  /** 'bwrap', 'unshare', 'off' or 'unavailable' */
  readonly kind: string;
  /** one line for the job log: how this job is isolated and which network it has */
  describe(): string;
  paths(projectDir: string, bridgeSocket: string): JobPaths;
  /**
   * The host uid a workspace's job reads files as, when it is not the server's own (a sandbox on a
   * server that is host root runs each workspace under a uid of its own, a stranger to every file).
   */
  jobUid?(workspaceId: string): number | undefined;
  start(spec: JobSpec): JobProcess;
  close(): void;
}
