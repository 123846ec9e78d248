import type { JobStatus } from './resources';

// How a job ends and whether it is tried again. STOPPED covers a timeout and a stop by hand
// (notes/lab.md); only ERROR is retried, so a job someone stopped or that ran out of time is
// never started again behind their back (Airbyte #1623: "cannot cancel, retries forever").

export const DEFAULT_TIMEOUT_SECONDS = 300;
/** A guard against absurd values: a pipeline may run a day at most. */
export const MAX_TIMEOUT_SECONDS = 24 * 60 * 60;
export const MAX_RETRIES = 20;

/** 0, negative or nonsense means the default 300 s. */
export function effectiveTimeoutSeconds(timeout: unknown): number {
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) return DEFAULT_TIMEOUT_SECONDS;
  return Math.min(Math.ceil(timeout), MAX_TIMEOUT_SECONDS);
}

export function maxAttemptsOf(maxRetries: unknown): number {
  if (typeof maxRetries !== 'number' || !Number.isFinite(maxRetries) || maxRetries <= 0) return 1;
  return Math.min(Math.floor(maxRetries), MAX_RETRIES) + 1;
}

export type EndReason = 'EXITED' | 'TIMEOUT' | 'WITHDRAWN' | 'RUNNER_LOST' | 'SPAWN_FAILED';

interface ProcessOutcome {
  reason: EndReason;
  exitCode: number | null;
}

export function endStatusOf(outcome: ProcessOutcome): JobStatus {
  switch (outcome.reason) {
    case 'TIMEOUT':
    case 'WITHDRAWN':
      return 'STOPPED';
    case 'EXITED':
      return outcome.exitCode === 0 ? 'COMPLETE' : 'ERROR';
    case 'RUNNER_LOST':
    case 'SPAWN_FAILED':
      return 'ERROR';
  }
}

export function shouldRetry(status: JobStatus, attempt: number, maxAttempts: number): boolean {
  return status === 'ERROR' && Number.isInteger(attempt) && Number.isInteger(maxAttempts) && attempt >= 1 && attempt < maxAttempts;
}

/** Back-off before attempt n+1: base × 2^(n-1), at most ten minutes. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  if (!Number.isFinite(baseMs) || baseMs <= 0) return 0;
  const exponent = Math.max(0, Math.min(Number.isFinite(attempt) ? Math.floor(attempt) - 1 : 0, 20));
  return Math.min(baseMs * 2 ** exponent, 10 * 60 * 1000);
}
