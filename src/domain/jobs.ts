import type { JobStatus } from './resources';

// The sidebar's Tasks count (spec 000 section 2.6): jobs that are running or waiting to run. The
// server counts them (the jobs link's status filter, page.totalElements), so a workspace with more
// jobs than one page still shows the right number.

export const ACTIVE_JOB_STATUSES = ['QUEUED', 'RUNNING'] as const satisfies readonly JobStatus[];

/** The jobs link's `status` query value: the statuses, comma-separated. */
export function jobStatusFilter(statuses: readonly JobStatus[]): string {
  return [...new Set(statuses)].join(',');
}
