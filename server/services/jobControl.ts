import type { Db } from '../db/database';
import { conflict, forbidden, notFound } from '../http/errors';
import { notifyPipelineActivity } from '../notifications/pipelineEvents';
import { findJob, type JobRow } from '../repositories/jobs';
import { enqueueJob, withdrawJob } from '../runner';

// A person starts a pipeline's job ('create job', 'verify pipeline') or stops one ('withdraw job').
// The queue's own steps (insert if idle, stop a QUEUED job or flag a RUNNING one) are the runner's
// (server/runner/jobs.ts), shared with the seed; this is the use case around them: each refusal as
// its status, the pipeline's watchers told, the job read back as the API shows it. The scheduler's
// slots, retries and triggered pipelines queue jobs inside the queue's own transactions and tell
// no one of a person's activity, so they do not come here.

type StartedType = 'PIPELINE_RUN' | 'PIPELINE_VERIFY';

interface JobActor {
  profileId: string;
  name: string;
}

/**
 * Queues a run (or a verification) of the pipeline for a person: 404 for no pipeline, 403 for a
 * draft, 409 while it has a job QUEUED or RUNNING. The pipeline's other ALL watchers hear of it.
 * Returns the QUEUED job.
 */
export async function startJob(db: Db, pipelineId: string, actor: JobActor, type: StartedType = 'PIPELINE_RUN'): Promise<JobRow> {
  const description = type === 'PIPELINE_VERIFY' ? `verification: ${actor.name}` : `manual: ${actor.name}`;
  const result = await enqueueJob(db, pipelineId, { kind: 'MANUAL', profileId: actor.profileId, description }, type);
  if (result.status === 'NOT_FOUND') throw notFound('Pipeline not found');
  if (result.status === 'DRAFT') throw forbidden('Draft imports disabled');
  if (result.status === 'CONFLICT') throw conflict(`This pipeline already has a job ${result.active?.status ?? 'queued or running'}${result.active ? ` (${result.active.id})` : ''}`);
  const job = await findJob(db, result.job.id);
  if (!job) throw notFound('Job not found');
  if (job.pipeline_id) {
    const pipeline = { id: job.pipeline_id, workspace_id: job.workspace_id };
    await notifyPipelineActivity(db, pipeline, `${actor.name} queued a ${job.type === 'PIPELINE_VERIFY' ? 'verification' : 'job'} of ${job.pipeline_name ?? 'a pipeline'}.`, actor);
  }
  return job;
}

/**
 * Withdraws a job for a person (named in its log): a QUEUED job is STOPPED at once (`stopped`), a
 * RUNNING one is asked to stop and its runner kills the process group within a second (the job is
 * still RUNNING). 404 for no job, 409 when it has already ended. Returns the job as it is now.
 */
export async function stopJob(db: Db, jobId: string, by: string): Promise<{ job: JobRow; stopped: boolean }> {
  const result = await withdrawJob(db, jobId, by);
  if (result.status === 'NOT_FOUND') throw notFound(`Job ${jobId} not found`);
  if (result.status === 'NOT_ACTIVE') throw conflict(`This job has already ended ${result.job.status}`);
  const job = await findJob(db, jobId);
  if (!job) throw notFound(`Job ${jobId} not found`);
  return { job, stopped: result.status === 'STOPPED' };
}
