import fs from 'node:fs';
import path from 'node:path';
import type { JobProcess, JobProcessResult } from './executor';

// A workspace's disk quota (WORKSPACE_DISK_QUOTA_MB; docs/decisions.md, "Disk quota (issue 36)").
// The runner measures the workspace's project directory before each job, and every second while
// any of its jobs runs (whatever the executor: the sandbox or RUNNER_SANDBOX=off), and once more
// as each job ends. A workspace over its quota has its running jobs killed, each with a line
// naming the setting; once the last of them ended, the project goes back to its size before:
// what the jobs created is removed and what they grew is cut back, and the workspace's earlier
// files stay. A workspace already over its quota (the quota was lowered) runs nothing.

/**
 * What each entry costs at least. An inode and its directory entry are not free, so a million
 * empty files break the quota too, and a walk never reads more than quota / 4 KiB entries.
 */
const MIN_ENTRY_BYTES = 4096;
/** entries read between yields to the event loop: the server answers requests while a big project is measured */
const CHUNK = 2000;
/** a walk may take at most this share of the time between checks: a huge project is checked less often, not more expensively */
const CHECK_COST_SHARE = 4;

const diskQuotaLines = {
  exceeded: (quotaMb: number) => `Disk quota exceeded: the workspace's files may take at most ${quotaMb} MB (WORKSPACE_DISK_QUOTA_MB); the job was stopped.`,
  alreadyOver: (quotaMb: number) =>
    `Disk quota exceeded: the workspace's files already take more than ${quotaMb} MB (WORKSPACE_DISK_QUOTA_MB), so the job was not started. Its files must shrink, or an operator raise the quota, before a job runs.`,
  rolledBack: (removed: number, cut: number) => `What the workspace's jobs wrote during this run was taken back: ${removed} new files and directories removed, ${cut} grown files cut back to their earlier size; the files from before it are kept.`,
};

/** A file's key: its inode, so a file renamed or linked is still the same file. */
const keyOf = (stat: fs.Stats) => `${stat.dev}:${stat.ino}`;

/** For each inode found: a regular file's size, else -1 (directories, links and the rest). */
type Snapshot = Map<string, number>;

interface Measured {
  /** allocated bytes (st_blocks × 512; each entry at least 4 KiB), counted until past `limitBytes` */
  bytes: number;
  over: boolean;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A directory's names. The job owns its project's files and may have made a directory unreadable
 * to hide what is in it; the runner is its owner (or root) and gives itself access back.
 */
function namesIn(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EACCES') return [];
    try {
      fs.chmodSync(dir, (fs.lstatSync(dir).mode & 0o7777) | 0o700);
      return fs.readdirSync(dir);
    } catch {
      return [];
    }
  }
}

/**
 * Every entry below `root` and `root` itself, depth first, parents before their children, never
 * through a link; each inode visited once. `visit` returns false to stop the walk.
 */
async function walk(root: string, visit: (entry: string, stat: fs.Stats) => boolean): Promise<void> {
  const seen = new Set<string>();
  const stack = [root];
  let sinceYield = 0;
  while (stack.length > 0) {
    const entry = stack.pop()!;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      continue; // gone meanwhile
    }
    const key = keyOf(stat);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!visit(entry, stat)) return;
    if (stat.isDirectory()) for (const name of namesIn(entry)) stack.push(path.join(entry, name));
    if (++sinceYield >= CHUNK) {
      sinceYield = 0;
      await yieldToEventLoop();
    }
  }
}

/** The project's allocated size, read until it passes `limitBytes`; with `snapshot`, each inode it holds now. */
async function measure(dir: string, limitBytes: number, snapshot?: Snapshot): Promise<Measured> {
  let bytes = 0;
  await walk(dir, (_entry, stat) => {
    bytes += Math.max(stat.blocks * 512, MIN_ENTRY_BYTES);
    snapshot?.set(keyOf(stat), stat.isFile() ? stat.size : -1);
    return bytes <= limitBytes;
  });
  return { bytes, over: bytes > limitBytes };
}

/**
 * Takes the project back to `before` (run only once no job of the workspace runs): an inode that
 * was not there is removed (a directory only once empty, so an earlier file moved into a new
 * directory stays), and an earlier file that grew is cut back to its earlier size.
 */
async function rollBack(dir: string, before: Snapshot): Promise<{ removed: number; cut: number }> {
  const found: Array<{ entry: string; stat: fs.Stats }> = [];
  await walk(dir, (entry, stat) => {
    // to remove what is in a directory the runner must be able to write it, whatever the job made of it
    if (stat.isDirectory() && (stat.mode & 0o700) !== 0o700) {
      try {
        fs.chmodSync(entry, (stat.mode & 0o7777) | 0o700);
      } catch {
        // left as it is: what is in it stays, and counts at the next check
      }
    }
    found.push({ entry, stat });
    return true;
  });
  let removed = 0;
  let cut = 0;
  // children before their parents
  for (let i = found.length - 1; i >= 0; i -= 1) {
    const { entry, stat } = found[i]!;
    const earlierSize = before.get(keyOf(stat));
    try {
      if (earlierSize === undefined) {
        if (stat.isDirectory()) fs.rmdirSync(entry);
        else fs.unlinkSync(entry);
        removed += 1;
      } else if (stat.isFile() && earlierSize >= 0 && stat.size > earlierSize) {
        fs.truncateSync(entry, earlierSize);
        cut += 1;
      }
    } catch {
      // a new directory that still holds an earlier file stays, with that file
    }
    if (i % CHUNK === 0) await yieldToEventLoop();
  }
  return { removed, cut };
}

interface Watched {
  process: JobProcess | undefined;
  write(line: string): void;
  /** the quota ended this job */
  stopped: boolean;
}

/** A workspace with jobs running on this runner: their shared quota, and what the project held before. */
interface Workspace {
  dir: string;
  /** the project as it was when it was last known within the quota with no job's run unfinished */
  before: Snapshot;
  jobs: Set<Watched>;
  exceeded: boolean;
  timer: NodeJS.Timeout | undefined;
}

interface DiskQuotaOptions {
  quotaMb: number;
  /** how often a running workspace's project is measured (at least; a big project less often) */
  intervalMs?: number;
  onError(error: unknown): void;
}

/**
 * The disk quota of every workspace with a job on this runner. `run` admits a job, watches it
 * while it runs and settles its end; the runner calls it around the executor for each job that
 * writes the project.
 */
export class DiskQuotas {
  private readonly workspaces = new Map<string, Workspace>();
  /** per workspace, the admission or end being settled: they take turns */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(private readonly options: DiskQuotaOptions) {}

  private get limitBytes(): number {
    return this.options.quotaMb * 1024 * 1024;
  }

  /**
   * Runs a job of the workspace whose project is `dir`: `start` starts its process (or returns
   * one already ended). Refused with a line when the project is over its quota already; stopped
   * with a line when it goes over; when it ended over, its result is an error.
   */
  async run(workspaceId: string, dir: string, write: (line: string) => void, start: () => Promise<JobProcess>): Promise<JobProcessResult> {
    const watched: Watched = { process: undefined, write, stopped: false };
    const admitted = await this.inTurn(workspaceId, () => this.admit(workspaceId, dir, watched));
    if (!admitted) {
      write(diskQuotaLines.alreadyOver(this.options.quotaMb));
      return { reason: 'EXITED', exitCode: 1, signal: null };
    }
    let result: JobProcessResult | undefined;
    try {
      watched.process = await start();
      // the watch may have found the workspace over its quota while the job was being started
      if (watched.stopped) watched.process.stop('LIMIT');
      result = await watched.process.done;
    } finally {
      await this.inTurn(workspaceId, () => this.leave(workspaceId, watched));
    }
    // A job the quota ended is an error, whatever its process said when it was killed; one stopped
    // for another reason (a timeout, a request) keeps it.
    return watched.stopped && result.reason === 'EXITED' ? { reason: 'EXITED', exitCode: null, signal: result.signal } : result;
  }

  private inTurn<T>(workspaceId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.turns.get(workspaceId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    this.turns.set(workspaceId, settled);
    void settled.then(() => {
      if (this.turns.get(workspaceId) === settled) this.turns.delete(workspaceId);
    });
    return next;
  }

  private async admit(workspaceId: string, dir: string, watched: Watched): Promise<boolean> {
    const running = this.workspaces.get(workspaceId);
    if (running) {
      if (running.exceeded || (await measure(dir, this.limitBytes)).over) return false;
      running.jobs.add(watched);
      return true;
    }
    const before: Snapshot = new Map();
    if ((await measure(dir, this.limitBytes, before)).over) return false;
    const workspace: Workspace = { dir, before, jobs: new Set([watched]), exceeded: false, timer: undefined };
    this.workspaces.set(workspaceId, workspace);
    this.schedule(workspace, 0);
    return true;
  }

  /** The next check after `lastWalkMs` of walking: every interval, or less often when a walk is long. */
  private schedule(workspace: Workspace, lastWalkMs: number): void {
    if (workspace.exceeded || workspace.jobs.size === 0) return;
    const delay = Math.max(this.options.intervalMs ?? 1000, lastWalkMs * CHECK_COST_SHARE);
    workspace.timer = setTimeout(() => void this.check(workspace), delay);
    workspace.timer.unref();
  }

  private async check(workspace: Workspace): Promise<void> {
    const started = Date.now();
    try {
      if (!workspace.exceeded && workspace.jobs.size > 0 && (await measure(workspace.dir, this.limitBytes)).over) this.exceed(workspace);
    } catch (error) {
      this.options.onError(error);
    }
    this.schedule(workspace, Date.now() - started);
  }

  /** Over the quota: every job of the workspace shares it, so every one of them ends. */
  private exceed(workspace: Workspace): void {
    if (workspace.exceeded) return;
    workspace.exceeded = true;
    clearTimeout(workspace.timer);
    for (const job of workspace.jobs) {
      job.stopped = true;
      job.write(diskQuotaLines.exceeded(this.options.quotaMb));
      job.process?.stop('LIMIT');
    }
  }

  private async leave(workspaceId: string, watched: Watched): Promise<void> {
    const workspace = this.workspaces.get(workspaceId);
    if (!workspace) return;
    // The last look: a job that wrote past the quota and ended between two checks is caught here.
    const after: Snapshot = new Map();
    const measured = workspace.exceeded ? undefined : await measure(workspace.dir, this.limitBytes, after);
    if (measured?.over) this.exceed(workspace);
    workspace.jobs.delete(watched);
    if (workspace.jobs.size > 0) {
      // This job's work is done within the quota: it is part of what a later roll-back keeps.
      if (!workspace.exceeded) workspace.before = after;
      return;
    }
    clearTimeout(workspace.timer);
    this.workspaces.delete(workspaceId);
    if (!workspace.exceeded) return;
    const { removed, cut } = await rollBack(workspace.dir, workspace.before);
    watched.write(diskQuotaLines.rolledBack(removed, cut));
  }
}
