import { formatDuration, jobSeconds } from './jobs';
import type { HalLike } from './hal';
import { labHomePath } from './landing';
import { isWorkspaceAdmin } from './permissions';
import { pathTo } from './routes';

// Onboarding's first run (issue 20): the pipeline saved in step 2 starts its first job at once, and
// the step shows it through to its end. These are the words and numbers the step shows.

export const FIRST_RUN_TEXTS = {
  title: 'Your first run',
  starting: 'Starting your first run…',
  queued: 'Queued: waiting for a worker',
  running: 'Running: moving your data',
  complete: 'Complete: your data is in your workspace.',
  /**
   * Deliberate, and said (issue 38): a row loaded again under a key the table already holds
   * replaces the stored one, so the tables may hold fewer rows than the run loaded.
   */
  rowsMerged: 'A row whose key is already stored replaces it, so the tables may hold fewer.',
  /** spec 001 §4: the words for a pipeline without a create-job link */
  notOffered: 'Import configuration incomplete',
  notOfferedDetail: 'This pipeline needs more settings before it can run. You can finish it in the Lab.',
  refused: 'Your first run could not start.',
  failed: 'Your first run did not finish.',
  background: 'The run carries on if you continue; the Lab shows how it ends.',
  openPipeline: 'Open the pipeline and its log',
} as const;

type TimedJob = { readonly status: string; readonly created?: string | null | undefined; readonly startTime?: string | null | undefined; readonly endTime?: string | null | undefined };

/** How long the run has been going: queued since it was created, running since it started; once ended, how long it ran. */
export function firstRunElapsed(job: TimedJob, now: number): string {
  const since = job.status === 'QUEUED' ? job.created : job.startTime;
  return formatDuration(jobSeconds({ startTime: since ?? null, endTime: job.status === 'QUEUED' ? null : (job.endTime ?? null) }, now));
}

type EndedJob = { readonly status: string; readonly exitCode?: number | null | undefined; readonly rowsLoaded?: number | null | undefined };

/** Why a run ended as it did, in one line: the job's status, exit code and, on success, its rows. */
export function firstRunEnding(job: EndedJob): string {
  const rows = typeof job.rowsLoaded === 'number' && Number.isSafeInteger(job.rowsLoaded) && job.rowsLoaded > 0 ? ` ${job.rowsLoaded.toLocaleString('en')} rows loaded. ${FIRST_RUN_TEXTS.rowsMerged}` : '';
  const exit = typeof job.exitCode === 'number' && Number.isSafeInteger(job.exitCode) ? ` (exit code ${String(job.exitCode)})` : '';
  switch (job.status) {
    case 'COMPLETE':
      return `${FIRST_RUN_TEXTS.complete}${rows}`;
    case 'ERROR':
      return `The run ended with an error${exit}. Its log says why.`;
    case 'STOPPED':
      return 'The run was stopped: it ran out of time or someone stopped it.';
    case 'SKIPPED':
      return 'The run was skipped.';
    default:
      return `The run ended ${String(job.status)}${exit}.`;
  }
}

/**
 * Where a first run that went wrong is followed up: the Lab's pipelines list with the run's log
 * open, or (no run to show) the pipeline's own form, saved once to show what it still needs.
 */
export function firstRunFollowUpPath(workspaceId: string, pipelineId: string, jobId: string | null): string {
  return jobId === null ? pathTo('pipeline', { workspaceId, pipelineId }, { validate: 'true' }) : pathTo('pipelines', { workspaceId }, { pipeline: pipelineId, job: jobId });
}

/** Where an empty home leads (issue 20): an admin to the Lab and its plugin catalogue, a member to the dataset catalogue. */
type FirstDatasetStep = { readonly kind: 'import' | 'plugins' | 'explore'; readonly path: string };

export function firstDatasetSteps(workspace: HalLike & { readonly id: string }): FirstDatasetStep[] {
  if (!isWorkspaceAdmin(workspace)) return [{ kind: 'explore', path: pathTo('explore', { workspaceId: workspace.id }) }];
  return [
    { kind: 'import', path: labHomePath(workspace.id) },
    { kind: 'plugins', path: pathTo('dataplugins', { workspaceId: workspace.id }) },
  ];
}
