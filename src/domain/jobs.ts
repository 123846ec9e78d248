import type { JobStatus } from './resources';

// The sidebar's Tasks count (spec 000 section 2.6): jobs that are running or waiting to run. The
// server counts them (the jobs link's status filter, page.totalElements), so a workspace with more
// jobs than one page still shows the right number.

export const ACTIVE_JOB_STATUSES = ['QUEUED', 'RUNNING'] as const satisfies readonly JobStatus[];

/** The jobs link's `status` query value: the statuses, comma-separated. */
export function jobStatusFilter(statuses: readonly JobStatus[]): string {
  return [...new Set(statuses)].join(',');
}

/** A job that is running or waiting to run: it cannot be deleted, and it keeps its workspace from being deleted. */
export function isActiveJob(job: { status: string }): boolean {
  return (ACTIVE_JOB_STATUSES as readonly string[]).includes(job.status);
}
