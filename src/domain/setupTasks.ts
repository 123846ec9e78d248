import { pathTo } from './routes';

// The setup-task cards (spec 001 §2–§4): what each PROFILE_* job asks of the workspace's admin and
// where its card leads. RUNNING and QUEUED count as in progress; every other status as completed.

export const SETUP_TASK_TYPES = [
  'PROFILE_IMPORT',
  'PROFILE_COLLABORATE',
  'PROFILE_PUBLISH',
  'PROFILE_CONFIGURE_PIPELINE',
  'PROFILE_CONFIGURE_DATASTORE',
] as const;
export type SetupTaskType = (typeof SETUP_TASK_TYPES)[number];

/** The external page the Publish task leads to: how datasets are written and published as code. */
export const PUBLISH_DOCS_URL = 'https://docs.meltano.com/reference/cloud/dataml/datasetml/';

const SETUP_TASK_TITLES: Readonly<Record<SetupTaskType | 'OTHER', string>> = {
  PROFILE_IMPORT: 'Import your data',
  PROFILE_COLLABORATE: 'Invite your team',
  PROFILE_PUBLISH: 'Publish a dataset',
  PROFILE_CONFIGURE_PIPELINE: 'Finish configuring a pipeline',
  PROFILE_CONFIGURE_DATASTORE: 'Finish configuring a data store',
  OTHER: 'Other job',
};

export function isSetupTaskType(type: string): type is SetupTaskType {
  return (SETUP_TASK_TYPES as readonly string[]).includes(type);
}

/** Any PROFILE_* job is a setup task (the landing rule reads the prefix too, spec 000 §4). */
export function isSetupTaskJob(job: { type: string }): boolean {
  return job.type.startsWith('PROFILE_');
}

/** In setup tasks RUNNING and QUEUED are in progress; all others count as completed. */
export function isTaskInProgress(status: string): boolean {
  return status === 'RUNNING' || status === 'QUEUED';
}

/**
 * A task's state in a newcomer's words (issue 38): a task is a to-do, not a queued job. QUEUED is
 * 'To do', RUNNING 'In progress', COMPLETE 'Done'; any other status is shown as the job says it.
 */
export function taskStatusLabel(status: string): string {
  switch (status) {
    case 'QUEUED':
      return 'To do';
    case 'RUNNING':
      return 'In progress';
    case 'COMPLETE':
      return 'Done';
    default:
      return status;
  }
}

/** A commit id as shown: its first 7 characters; nothing when there is none. */
export function shortCommitId(commitId: string | null | undefined): string | undefined {
  const trimmed = commitId?.trim();
  return trimmed ? trimmed.slice(0, 7) : undefined;
}

/** Where a card leads, and (the Publish task) the documentation beside it. */
type TaskTarget = { kind: 'internal'; path: string; docs?: string } | { kind: 'external'; href: string } | { kind: 'none' };

interface TaskJob {
  readonly type: string;
  readonly _embedded?: {
    readonly pipeline?: { readonly id: string } | null | undefined;
    readonly datastore?: { readonly id: string } | null | undefined;
  } | null | undefined;
}

/** Where a task's card leads (spec 001 §2). */
export function taskTarget(job: TaskJob, workspaceId: string): TaskTarget {
  switch (job.type) {
    case 'PROFILE_IMPORT':
      return { kind: 'internal', path: pathTo('pipelines', { workspaceId }) };
    case 'PROFILE_COLLABORATE':
      return { kind: 'internal', path: pathTo('invitations', { workspaceId }) };
    // issue 38: the dataset editor itself (the spec's documentation page stays beside it)
    case 'PROFILE_PUBLISH':
      return { kind: 'internal', path: pathTo('labDatasets', { workspaceId }, { edit: 'new' }), docs: PUBLISH_DOCS_URL };
    case 'PROFILE_CONFIGURE_PIPELINE': {
      const id = job._embedded?.pipeline?.id;
      return id ? { kind: 'internal', path: pathTo('pipeline', { workspaceId, pipelineId: id }, { validate: 'true' }) } : { kind: 'none' };
    }
    case 'PROFILE_CONFIGURE_DATASTORE': {
      const id = job._embedded?.datastore?.id;
      return id ? { kind: 'internal', path: pathTo('datastore', { workspaceId, datastoreId: id }, { validate: 'true' }) } : { kind: 'none' };
    }
    default:
      return { kind: 'none' };
  }
}

export function taskTitle(type: string): string {
  return isSetupTaskType(type) ? SETUP_TASK_TITLES[type] : SETUP_TASK_TITLES.OTHER;
}

/** Open tasks first (what is left to do), then completed ones; newest first within each. */
export function orderTasks<T extends { status: string; created: string }>(tasks: readonly T[]): T[] {
  return [...tasks].sort((a, b) => Number(isTaskInProgress(b.status)) - Number(isTaskInProgress(a.status)) || (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
}
