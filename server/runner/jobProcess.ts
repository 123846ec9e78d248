import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { EndReason } from '../../src/domain/jobStatus';

export interface JobProcessOptions {
  script: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** after SIGTERM, how long the group has before SIGKILL */
  killGraceMs: number;
  onLine(line: string, stream: 'stdout' | 'stderr'): void;
}

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
  stop(reason: 'WITHDRAWN' | 'TIMEOUT' | 'RUNNER_LOST'): void;
}

/** A held line longer than this is emitted as it stands, so output without newlines cannot grow without bound. */
const MAX_PENDING_CHARS = 256 * 1024;

export function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

/**
 * Runs a script with bash in its own process group (detached), so stopping it reaches every
 * process it started. Output arrives line by line; the group is killed when the script exits,
 * so background leftovers never outlive their job.
 */
export function startJobProcess(options: JobProcessOptions): JobProcess {
  let stopReason: 'WITHDRAWN' | 'TIMEOUT' | 'RUNNER_LOST' | undefined;
  const child = spawn('bash', ['-c', options.script], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  let killTimer: NodeJS.Timeout | undefined;

  const stop = (reason: 'WITHDRAWN' | 'TIMEOUT' | 'RUNNER_LOST') => {
    if (stopReason || pid === undefined) return;
    stopReason = reason;
    killGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), options.killGraceMs);
    killTimer.unref();
  };

  const timeout = setTimeout(() => stop('TIMEOUT'), options.timeoutMs);
  timeout.unref();

  const streamClosed = (stream: NodeJS.ReadableStream, name: 'stdout' | 'stderr') =>
    new Promise<void>((resolve) => {
      const decoder = new StringDecoder('utf8');
      let pending = '';
      const emit = (text: string) => {
        pending += text;
        let index = pending.indexOf('\n');
        while (index >= 0) {
          options.onLine(pending.slice(0, index), name);
          pending = pending.slice(index + 1);
          index = pending.indexOf('\n');
        }
        if (pending.length > MAX_PENDING_CHARS) {
          options.onLine(pending, name);
          pending = '';
        }
      };
      stream.on('data', (chunk: Buffer) => emit(decoder.write(chunk)));
      const end = () => {
        emit(decoder.end());
        if (pending.length > 0) options.onLine(pending, name);
        pending = '';
        resolve();
      };
      stream.once('end', end);
      stream.once('error', end);
    });

  const outputs = Promise.all([streamClosed(child.stdout, 'stdout'), streamClosed(child.stderr, 'stderr')]);

  const done = new Promise<JobProcessResult>((resolve) => {
    child.once('error', (error) => {
      clearTimeout(timeout);
      options.onLine(`Could not start the job: ${error.message}`, 'stderr');
      resolve({ reason: 'SPAWN_FAILED', exitCode: null, signal: null });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timeout);
      // Anything the script left running in the background goes with it.
      if (pid !== undefined) killGroup(pid, 'SIGKILL');
      if (killTimer) clearTimeout(killTimer);
      // Give the pipes a moment to drain; a grandchild that escaped the group could hold them open forever.
      const drained = Promise.race([outputs, new Promise<void>((r) => setTimeout(r, 2000).unref())]);
      void drained.then(() => resolve({ reason: stopReason ?? 'EXITED', exitCode: code, signal }));
    });
  });

  return { pid, done, stop };
}
