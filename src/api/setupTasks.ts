import { embeddedList, type HalLike } from '../domain/hal';
import { REL } from '../domain/relations';
import { jobsCollectionSchema, type Job } from '../domain/resources';
import { SETUP_TASK_TYPES } from '../domain/setupTasks';
import type { ApiClient, RequestOptions } from './client';

// Setup tasks (spec 001 §2–§4): the workspace's 'jobs' link narrowed to the PROFILE_* types, and a
// task's 'delete job' link to dismiss it.

/** A workspace has at most a handful of tasks per pipeline and store; one page holds them. */
export const SETUP_TASKS_PAGE_SIZE = 100;

export async function listSetupTasks(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<Job[]> {
  const page = await client.follow(workspace, REL.jobs, {
    ...options,
    schema: jobsCollectionSchema,
    query: { type: SETUP_TASK_TYPES.join(','), size: SETUP_TASKS_PAGE_SIZE, ...options.query },
  });
  return embeddedList(page, 'jobs');
}

/** DELETE the task's 'delete job' link (spec 001 §7: DELETE /jobs/{id}). */
export async function dismissSetupTask(client: ApiClient, task: HalLike, options: RequestOptions = {}): Promise<void> {
  await client.follow(task, REL.deleteJob, { ...options, method: 'DELETE' });
}
