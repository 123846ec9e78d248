import type { Db } from '../db/database';
import { conflict, notFound } from '../http/errors';
import { notify } from '../notifications/notify';
import { deletePipeline } from '../repositories/pipelines';
import { subscribersOf } from '../repositories/subscriptions';

// Deleting a pipeline for a person: its job history and subscriptions go with it, so its other
// watchers are read first and told once it is gone.

/** Deletes the pipeline; 409 while a job is queued or running (withdraw it first), 404 when it is gone already. */
export async function deletePipelineAs(db: Db, pipeline: { id: string; name: string }, workspaceId: string, actor: { profileId: string; name: string }): Promise<void> {
  const watchers = (await subscribersOf(db, pipeline.id, false)).filter((id) => id !== actor.profileId);
  const result = await deletePipeline(db, pipeline.id);
  if (result === 'ACTIVE') throw conflict('This pipeline has a job queued or running: withdraw it before deleting the pipeline');
  if (result === 'NOT_FOUND') throw notFound(`Pipeline ${pipeline.id} not found`);
  await notify(db, { profileIds: watchers, workspaceId, type: 'PIPELINE_ACTIVITY', message: `${actor.name} deleted pipeline ${pipeline.name}.`, actorName: actor.name });
}
