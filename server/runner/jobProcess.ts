import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { JobProcess, JobProcessResult, StopReason } from './executor';

export type { JobProcess, JobProcessResult } from './executor';

/** A command run as a job's process group: the sandbox's launcher, or bash itself without one. */
interface ProcessCommand {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** run as this outer uid/gid (a root server drops to a workspace's own uid) */
  uid?: number | undefined;
  gid?: number | undefined;
  /** descriptors 3, 4, … of the child: pipes the caller talks over, or open files it passes */
  extraStdio?: ReadonlyArray<'pipe' | 'ignore' | number>;
}

interface ProcessOptions {
  timeoutMs: number;
  /** after SIGTERM, how long the group has before SIGKILL */
  killGraceMs: number;
  /** output beyond this many bytes ends the job (the log volume limit) */
  maxLogBytes?: number;
  onLine(line: string, stream: 'stdout' | 'stderr'): void;
}

export interface GroupProcess extends JobProcess {
  child: ChildProcess;
  /** ends the job at once because it broke a limit: the line goes to the log, the group is killed, the job ends ERROR */
  fail(line: string): void;
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
 * Runs a command in its own process group (detached), so stopping it reaches every process it
 * started. Output arrives line by line; the group is killed when the command exits, so
 * background leftovers never outlive their job.
 */
export function startProcessGroup(command: ProcessCommand, options: ProcessOptions): GroupProcess {
  let stopReason: Exclude<StopReason, 'LIMIT'> | undefined;
  let failed = false;
  const child = spawn(command.file, command.args, {
    cwd: command.cwd,
    env: command.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', ...(command.extraStdio ?? [])],
    ...(command.uid !== undefined ? { uid: command.uid } : {}),
    ...(command.gid !== undefined ? { gid: command.gid } : {}),
  });
  const pid = child.pid;
  let killTimer: NodeJS.Timeout | undefined;

  const stop = (reason: StopReason) => {
    if (stopReason || failed || pid === undefined) return;
    if (reason === 'LIMIT') {
      // a broken limit ends the job as `fail` does; the one who stopped it logged the line
      failed = true;
      killGroup(pid, 'SIGKILL');
      return;
    }
    stopReason = reason;
    killGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), options.killGraceMs);
    killTimer.unref();
  };
  const fail = (line: string) => {
    if (stopReason || failed) return;
    failed = true;
    options.onLine(line, 'stderr');
    if (pid !== undefined) killGroup(pid, 'SIGKILL');
  };

  const timeout = setTimeout(() => stop('TIMEOUT'), options.timeoutMs);
  timeout.unref();

  let logBytes = 0;
  const onLine = (line: string, stream: 'stdout' | 'stderr') => {
    if (failed) return;
    logBytes += Buffer.byteLength(line) + 1;
    if (options.maxLogBytes !== undefined && logBytes > options.maxLogBytes) {
      fail(`Log volume limit exceeded: the job wrote more than ${Math.round(options.maxLogBytes / 1024 / 1024)} MB of output and was stopped.`);
      return;
    }
    options.onLine(line, stream);
  };

  const streamClosed = (stream: NodeJS.ReadableStream, name: 'stdout' | 'stderr') =>
    new Promise<void>((resolve) => {
      const decoder = new StringDecoder('utf8');
      let pending = '';
      const emit = (text: string) => {
        pending += text;
        let index = pending.indexOf('\n');
        while (index >= 0) {
          onLine(pending.slice(0, index), name);
          pending = pending.slice(index + 1);
          index = pending.indexOf('\n');
        }
        if (pending.length > MAX_PENDING_CHARS) {
          onLine(pending, name);
          pending = '';
        }
      };
      stream.on('data', (chunk: Buffer) => emit(decoder.write(chunk)));
      const end = () => {
        emit(decoder.end());
        if (pending.length > 0) onLine(pending, name);
        pending = '';
        resolve();
      };
      stream.once('end', end);
      stream.once('error', end);
    });

  const { stdout, stderr } = child;
  if (!stdout || !stderr) throw new Error('the job process has no output pipes');
  const outputs = Promise.all([streamClosed(stdout, 'stdout'), streamClosed(stderr, 'stderr')]);

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
      void drained.then(() => resolve(failed ? { reason: 'EXITED', exitCode: null, signal } : { reason: stopReason ?? 'EXITED', exitCode: code, signal }));
    });
  });

  return { pid, done, stop, fail, child };
}

/** A script run with bash as the server's own user: what `RUNNER_SANDBOX=off` means. */
export function startJobProcess(options: ProcessOptions & { script: string; cwd: string; env: Record<string, string> }): GroupProcess {
  return startProcessGroup({ file: 'bash', args: ['-c', options.script], cwd: options.cwd, env: options.env }, options);
}
