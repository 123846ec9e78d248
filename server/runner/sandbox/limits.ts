import type { JobLimits } from '../executor';

// Limits per job, enforced twice: the kernel's per-process rlimits (prlimit, inside the sandbox)
// are the hard backstop, and the runner's watch (watch.ts) sums a job's processes, memory and
// CPU time and ends the job naming the limit. Each message says which setting raises it.

/** The sandbox's own helper processes (the launcher, its init) count against RLIMIT_NPROC too. */
const PROCESS_SLACK = 4;

/** prlimit's arguments for a job's processes. */
export function prlimitArgs(limits: JobLimits): string[] {
  const mb = (n: number) => String(n * 1024 * 1024);
  const both = (v: string) => `${v}:${v}`;
  return [
    `--nproc=${both(String(limits.processes + PROCESS_SLACK))}`,
    `--nofile=${both(String(limits.openFiles))}`,
    `--fsize=${both(mb(limits.fileSizeMb))}`,
    // SIGXCPU at the limit, SIGKILL a few seconds later
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 5}`,
    // private writable memory of one process (RLIMIT_AS would stop node, which reserves far more than it uses)
    `--data=${both(mb(limits.memoryMb))}`,
    '--core=0',
  ];
}

const limitMessages = {
  processes: (l: JobLimits) => `Process limit reached: the job may run at most ${l.processes} processes at once (RUNNER_MAX_PROCESSES); the job was stopped.`,
  memory: (l: JobLimits) => `Memory limit exceeded: the job may use at most ${l.memoryMb} MB (RUNNER_MEMORY_MB); the job was stopped.`,
  cpu: (l: JobLimits) => `CPU time limit exceeded: the job may use at most ${l.cpuSeconds} s of CPU time (RUNNER_CPU_SECONDS); the job was stopped.`,
  fileSize: (l: JobLimits) => `File size limit exceeded: a file the job writes may be at most ${l.fileSizeMb} MB (RUNNER_MAX_FILE_MB); the job was stopped.`,
  openFiles: (l: JobLimits) => `Open files limit reached: a process of the job may hold at most ${l.openFiles} open files (RUNNER_MAX_OPEN_FILES); the job was stopped.`,
};

/**
 * What the kernel's refusal looks like in a job's own output, when a per-process rlimit stopped
 * it before the watch saw it. A job that prints such a line only ends itself.
 */
export function limitOfLine(line: string, limits: JobLimits): string | undefined {
  if (/fork: (retry: )?Resource temporarily unavailable/.test(line)) return limitMessages.processes(limits);
  if (/File size limit exceeded/.test(line)) return limitMessages.fileSize(limits);
  if (/Too many open files/.test(line)) return limitMessages.openFiles(limits);
  if (/xmalloc: cannot allocate|xrealloc: cannot allocate|Cannot allocate memory|JavaScript heap out of memory|Array buffer allocation failed|MemoryError/.test(line)) return limitMessages.memory(limits);
  if (/CPU time limit exceeded/.test(line)) return limitMessages.cpu(limits);
  return undefined;
}

/** A job whose main process a limit's signal ended (bash reports 128 + the signal). */
export function limitOfExit(exitCode: number | null, signal: string | null, limits: JobLimits): string | undefined {
  if (signal === 'SIGXCPU' || exitCode === 128 + 24) return limitMessages.cpu(limits);
  if (signal === 'SIGXFSZ' || exitCode === 128 + 25) return limitMessages.fileSize(limits);
  return undefined;
}

export interface Usage {
  processes: number;
  rssBytes: number;
  cpuSeconds: number;
}

/** The first limit a job's current usage breaks, if any. */
export function limitOfUsage(usage: Usage, limits: JobLimits): string | undefined {
  if (usage.processes >= limits.processes) return limitMessages.processes(limits);
  if (usage.rssBytes > limits.memoryMb * 1024 * 1024) return limitMessages.memory(limits);
  if (usage.cpuSeconds > limits.cpuSeconds) return limitMessages.cpu(limits);
  return undefined;
}
