import type { Db } from '../db/database';
import { activeJobOfPipeline } from './jobs';

// A pipeline's incremental states (pipeline_states): one row per state id, written by the runner
// after each run (bridge.ts for the built-in taps, meltano/state.ts for Meltano's).

interface PipelineStateRow {
  state_id: string;
  value: unknown;
  updated: Date;
}

export function statesOf(db: Db, pipelineId: string): Promise<PipelineStateRow[]> {
  return db.selectFrom('pipeline_states').select(['state_id', 'value', 'updated']).where('pipeline_id', '=', pipelineId).orderBy('state_id').execute();
}

/**
 * Forgets every state of the pipeline, unless a job of it is queued or running: that job reads (or
 * read) the state when it starts and writes its own back when it ends, which would undo this. A
 * job queued after this reads no state.
 */
export async function clearStates(db: Db, pipelineId: string): Promise<'CLEARED' | 'NOT_FOUND' | 'ACTIVE'> {
  return db.transaction().execute(async (trx) => {
    const pipeline = await trx.selectFrom('pipelines').select('id').where('id', '=', pipelineId).forUpdate().executeTakeFirst();
    if (!pipeline) return 'NOT_FOUND';
    if (await activeJobOfPipeline(trx, pipelineId)) return 'ACTIVE';
    await trx.deleteFrom('pipeline_states').where('pipeline_id', '=', pipelineId).execute();
    return 'CLEARED';
  });
}
