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

/**
 * How long a job ran, in seconds (fractions kept, so a sub-second run is not a '0 s' one): start to
 * end, or start to `now` while it runs; null before it started or when its times are not dates (a
 * clock skewed backwards counts as 0).
 */
export function jobSeconds(job: { readonly startTime?: string | null | undefined; readonly endTime?: string | null | undefined }, now: number): number | null {
  if (!job.startTime) return null;
  const start = Date.parse(job.startTime);
  const end = job.endTime ? Date.parse(job.endTime) : now;
  if (Number.isNaN(start) || Number.isNaN(end)) return null;
  return Math.max(0, (end - start) / 1000);
}

/** A duration as people read it: 'under 1 s', '45 s', '3 min 05 s', '2 h 07 min'; '' for none. */
export function formatDuration(seconds: number | null): string {
  // past a million hours a 'duration' is a broken clock, not a run
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0 || seconds >= 3.6e9) return '';
  // a run that ended within its first second took something, not nothing
  if (seconds < 1) return 'under 1 s';
  const s = Math.floor(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** The log modal's line about the run: how long it has run or took; 'Not started' while queued. */
export function runTimeText(job: { readonly status: string; readonly startTime?: string | null | undefined; readonly endTime?: string | null | undefined }, now: number): string {
  const duration = formatDuration(jobSeconds(job, now));
  if (duration === '') return 'Not started';
  return isActiveJob(job) ? `Running for ${duration}` : `Took ${duration}`;
}

interface StreamRows {
  stream: string;
  rows: number;
}

/**
 * A job's rows per stream for the History table: the streams with most rows first (then by name),
 * and the rows of its total that no listed stream accounts for (a run from before streams were
 * counted, or a stream name a client cannot keep as a key, such as `__proto__`). No streams: the
 * total is all there is to show.
 */
export function streamRowsOf(job: { readonly rowsLoaded?: number | null | undefined; readonly rowsByStream?: Readonly<Record<string, number>> | null | undefined }): { streams: StreamRows[]; unattributed: number } {
  const streams = Object.entries(job.rowsByStream ?? {})
    .filter(([, rows]) => typeof rows === 'number' && Number.isFinite(rows))
    .map(([stream, rows]) => ({ stream, rows }))
    .sort((a, b) => b.rows - a.rows || (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
  const counted = streams.reduce((sum, s) => sum + s.rows, 0);
  const total = typeof job.rowsLoaded === 'number' && Number.isFinite(job.rowsLoaded) ? job.rowsLoaded : counted;
  return { streams, unattributed: streams.length === 0 ? 0 : Math.max(0, total - counted) };
}
