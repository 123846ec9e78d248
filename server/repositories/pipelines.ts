import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { PipelinesTable } from '../db/schema';
import { isUniqueViolation, newId } from './ids';
import { activeJobOfPipeline } from './jobs';

export type PipelineRow = Selectable<PipelinesTable>;

/** The writable fields of a pipeline (spec 001 §7: the body of create, update and draft). */
export interface PipelineInput {
  name: string;
  draft?: boolean;
  properties?: Record<string, unknown>;
  schedule?: string | null;
  /** component names, resolved beforehand (resolveDataComponents) */
  dataComponents?: string[];
  actions?: string[];
  script?: string | null;
  timeout?: number;
  maxRetries?: number;
  triggeredBy?: string[];
}

type PipelineWrite = { ok: true; pipeline: PipelineRow } | { ok: false; conflict: 'name' };

function columns(input: Partial<PipelineInput>) {
  return {
    ...(input.name === undefined ? {} : { name: input.name.trim() }),
    ...(input.draft === undefined ? {} : { draft: input.draft }),
    ...(input.properties === undefined ? {} : { properties: JSON.stringify(input.properties) }),
    ...(input.schedule === undefined ? {} : { schedule: input.schedule === null || input.schedule.trim() === '' ? null : input.schedule.trim() }),
    ...(input.dataComponents === undefined ? {} : { data_components: JSON.stringify(input.dataComponents) }),
    ...(input.actions === undefined ? {} : { actions: JSON.stringify(input.actions) }),
    ...(input.script === undefined ? {} : { script: input.script }),
    ...(input.timeout === undefined ? {} : { timeout: input.timeout }),
    ...(input.maxRetries === undefined ? {} : { max_retries: input.maxRetries }),
    ...(input.triggeredBy === undefined ? {} : { triggered_by: JSON.stringify(input.triggeredBy) }),
  };
}

async function uniqueName<T>(write: () => Promise<T>): Promise<T | { ok: false; conflict: 'name' }> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, conflict: 'name' };
    throw error;
  }
}

export async function createPipeline(db: Db, workspaceId: string, input: PipelineInput, createdBy: string | null = null, id: string = newId()): Promise<PipelineWrite> {
  return uniqueName(async () => {
    const pipeline = await db
      .insertInto('pipelines')
      .values({ id, workspace_id: workspaceId, created_by: createdBy, properties: '{}', data_components: '[]', actions: '[]', triggered_by: '[]', schedule: null, script: null, ...columns(input), name: input.name.trim() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ok: true as const, pipeline };
  });
}

/** Undefined when there is no such pipeline. */
export async function updatePipeline(db: Db, pipelineId: string, input: Partial<PipelineInput>): Promise<PipelineWrite | undefined> {
  return uniqueName(async () => {
    const pipeline = await db.updateTable('pipelines').set({ ...columns(input), last_modified: new Date() }).where('id', '=', pipelineId).returningAll().executeTakeFirst();
    return pipeline ? { ok: true as const, pipeline } : undefined;
  });
}

export async function getPipeline(db: Db, pipelineId: string): Promise<PipelineRow | undefined> {
  return db.selectFrom('pipelines').selectAll().where('id', '=', pipelineId).executeTakeFirst();
}

export async function findPipelineByName(db: Db, workspaceId: string, name: string): Promise<PipelineRow | undefined> {
  return db.selectFrom('pipelines').selectAll().where('workspace_id', '=', workspaceId).where(sql<boolean>`lower(name) = lower(${name.trim()})`).executeTakeFirst();
}

/** A workspace's pipelines by name, optionally those whose name contains `search` (case-insensitive). */
export async function listPipelines(db: Db, workspaceId: string, options: { page: number; size: number; search?: string | undefined }): Promise<{ items: PipelineRow[]; total: number }> {
  const pattern = options.search ? `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const base = db
    .selectFrom('pipelines')
    .where('workspace_id', '=', workspaceId)
    .$if(pattern !== undefined, (qb) => qb.where('name', 'ilike', pattern!));
  const [items, count] = await Promise.all([
    base.selectAll().orderBy(sql`lower(name)`).orderBy('id').limit(options.size).offset(options.page * options.size).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

/** Deletes a pipeline and its job history; refused ('ACTIVE') while a job is queued or running. */
export async function deletePipeline(db: Db, pipelineId: string): Promise<'DELETED' | 'NOT_FOUND' | 'ACTIVE'> {
  return db.transaction().execute(async (trx) => {
    const pipeline = await trx.selectFrom('pipelines').select('id').where('id', '=', pipelineId).forUpdate().executeTakeFirst();
    if (!pipeline) return 'NOT_FOUND';
    if (await activeJobOfPipeline(trx, pipelineId)) return 'ACTIVE';
    await trx.deleteFrom('jobs').where('pipeline_id', '=', pipelineId).execute();
    await trx.deleteFrom('pipelines').where('id', '=', pipelineId).execute();
    return 'DELETED';
  });
}
