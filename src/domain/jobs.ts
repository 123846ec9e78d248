import type { JobStatus } from './resources';

// The sidebar's Tasks count (spec 000 section 2.6): jobs that are running or waiting to run.
// Pure and defensive: it reads only `status`, so any list the server sends can be counted.

const ACTIVE: ReadonlySet<string> = new Set<JobStatus>(['QUEUED', 'RUNNING']);

export function isActiveJob(job: unknown): boolean {
  if (typeof job !== 'object' || job === null) return false;
  const status: unknown = (job as { status?: unknown }).status;
  return typeof status === 'string' && ACTIVE.has(status);
}

export function activeJobCount(jobs: readonly unknown[] | null | undefined): number {
  if (!Array.isArray(jobs)) return 0;
  return jobs.filter(isActiveJob).length;
}
