import type { Db } from '../db/database';
import { conflict } from '../http/errors';
import { findJob, type JobRow } from '../repositories/jobs';
import { insertWorkspaceJob } from '../repositories/workspaces';
import { queueSignals } from '../runner/signals';

// Deploying a workspace: one WORKSPACE_DEPLOY job at a time, queued for whichever runner takes it
// first. The Deploy button (POST …/deployments) and GitHub's push webhook both come here.

/** Queues a deployment of the workspace; 409 when one is already queued or running. */
export async function requestDeployment(db: Db, workspaceId: string, profileId: string | null, triggeredBy: string): Promise<JobRow> {
  const job = await insertWorkspaceJob(db, workspaceId, 'WORKSPACE_DEPLOY', profileId, triggeredBy);
  if (!job) throw conflict('A deployment of this workspace is already queued or running');
  queueSignals.emit('queued', job.id);
  const row = await findJob(db, job.id);
  if (!row) throw conflict('The deployment ended before it could be shown');
  return row;
}
