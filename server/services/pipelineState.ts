import { bookmarksOf, type Bookmark } from '../../src/domain/pipelineState';
import type { Db } from '../db/database';
import { conflict, notFound } from '../http/errors';
import { notifyPipelineActivity } from '../notifications/pipelineEvents';
import { clearStates, statesOf } from '../repositories/pipelineStates';

// A pipeline's incremental state for people: where its next run resumes, and the Full refresh
// that makes the next run load everything again (Airbyte's "reset", Meltano's `state clear`).

interface PipelineStateView {
  stateId: string;
  updated: Date;
  bookmarks: Bookmark[];
}

export async function pipelineStateOf(db: Db, pipelineId: string): Promise<PipelineStateView[]> {
  return (await statesOf(db, pipelineId)).map((row) => ({ stateId: row.state_id, updated: row.updated, bookmarks: bookmarksOf(row.value) }));
}

/** Clears the pipeline's state for a person; 409 while a job is queued or running, 404 when the pipeline is gone. */
export async function fullRefreshAs(db: Db, pipeline: { id: string; name: string; workspace_id: string }, actor: { profileId: string; name: string }): Promise<void> {
  const result = await clearStates(db, pipeline.id);
  if (result === 'ACTIVE') throw conflict('This pipeline has a job queued or running: stop it or let it end before a full refresh');
  if (result === 'NOT_FOUND') throw notFound(`Pipeline ${pipeline.id} not found`);
  await notifyPipelineActivity(db, pipeline, `${actor.name} cleared the incremental state of ${pipeline.name}: its next run loads everything.`, actor);
}
