import { withImpact } from '../../src/domain/lineageImpact';
import type { Db } from '../db/database';
import { subscribersOf } from '../repositories/subscriptions';
import { failureImpact } from './failureImpact';
import { notify } from './notify';

// What a pipeline's watchers hear (spec 001 §4 Watch): ALL subscribers every event, ALERTS
// subscribers only the ends that need a person — ERROR and STOPPED; a run's ERROR names the
// datasets and dashboards its tables feed. Each is written in the transaction of the event it
// announces (the caller passes it), so it exists exactly when the event does. Queries run one after another: a transaction is one connection.

const ALERT_STATUSES: ReadonlySet<string> = new Set(['ERROR', 'STOPPED']);

interface JobFacts {
  id: string;
  workspace_id: string;
  pipeline_id: string | null;
  type: string;
  attempt: number;
  max_attempts: number;
}

async function pipelineName(db: Db, pipelineId: string): Promise<string | undefined> {
  const row = await db.selectFrom('pipelines').select('name').where('id', '=', pipelineId).executeTakeFirst();
  return row?.name;
}

const attemptText = (job: JobFacts) => (job.max_attempts > 1 ? ` (attempt ${job.attempt} of ${job.max_attempts})` : '');
const what = (job: JobFacts) => (job.type === 'PIPELINE_VERIFY' ? 'Verification' : 'Job');

export async function notifyJobStarted(db: Db, job: JobFacts): Promise<number> {
  if (!job.pipeline_id) return 0;
  const name = await pipelineName(db, job.pipeline_id);
  const profileIds = await subscribersOf(db, job.pipeline_id, false);
  if (name === undefined) return 0;
  return notify(db, { profileIds, workspaceId: job.workspace_id, type: 'JOB_STARTED', message: `${what(job)} of ${name} started${attemptText(job)}.`, actorName: null, jobId: job.id, pipelineId: job.pipeline_id });
}

export async function notifyJobEnded(db: Db, job: JobFacts, status: string): Promise<number> {
  if (!job.pipeline_id) return 0;
  const name = await pipelineName(db, job.pipeline_id);
  const profileIds = await subscribersOf(db, job.pipeline_id, ALERT_STATUSES.has(status));
  if (name === undefined) return 0;
  let message = `${what(job)} of ${name} ended ${status}${attemptText(job)}.`;
  // A failed run names what it reaches downstream (issue 41), by the lineage rule the Impact tab shows.
  if (status === 'ERROR' && job.type === 'PIPELINE_RUN') message = withImpact(message, await failureImpact(db, job.workspace_id, job.pipeline_id));
  return notify(db, { profileIds, workspaceId: job.workspace_id, type: 'JOB_ENDED', message, actorName: null, jobId: job.id, pipelineId: job.pipeline_id, isError: ALERT_STATUSES.has(status) });
}

/** A person changed the pipeline or started or stopped it: news for ALL subscribers other than that person. */
export async function notifyPipelineActivity(db: Db, pipeline: { id: string; workspace_id: string }, message: string, actor: { profileId: string; name: string | null }): Promise<number> {
  const profileIds = (await subscribersOf(db, pipeline.id, false)).filter((id) => id !== actor.profileId);
  return notify(db, { profileIds, workspaceId: pipeline.workspace_id, type: 'PIPELINE_ACTIVITY', message, actorName: actor.name, pipelineId: pipeline.id });
}
