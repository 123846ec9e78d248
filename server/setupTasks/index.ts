import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { SetupTaskType } from '../../src/domain/setupTasks';
import type { Db } from '../db/database';
import { newId } from '../repositories/ids';

// Setup tasks (spec 001 §2–§4) are PROFILE_* jobs of a workspace: QUEUED while there is something
// to do, COMPLETE once a real event of the workspace has done it. The places where those events
// happen (workspace created, pipeline saved, data store saved, someone invited, dataset published)
// call the functions below inside their own transaction, so a task never disagrees with its event.
// The runner never claims these types (its queue takes only the runnable ones).

/** The to-do list a new workspace starts with; each is done by its event. */
export const OPENING_TASKS: readonly SetupTaskType[] = ['PROFILE_IMPORT', 'PROFILE_COLLABORATE', 'PROFILE_PUBLISH'];

const NO_SUBJECT = { task_pipeline_id: null, task_datastore_id: null } as const;
type Subject = { task_pipeline_id: string | null; task_datastore_id: string | null };

/**
 * A git-style id of what the event saved (SHA-1 of `blob <length>\0<content>`): a task records the
 * version of the configuration that finished it, shown as its first 7 characters.
 */
function commitIdOf(content: unknown): string {
  const text = JSON.stringify(content) ?? '';
  const body = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

/** Opens one QUEUED task of this type and subject unless one is open already (a unique index guards racing processes). */
async function open(trx: Db, workspaceId: string, type: SetupTaskType, profileId: string | null, subject: Subject, triggeredBy: string): Promise<void> {
  await sql`
    INSERT INTO jobs (id, workspace_id, profile_id, type, status, triggered_by, attempt, max_attempts, task_pipeline_id, task_datastore_id)
    VALUES (${newId()}, ${workspaceId}, ${profileId}, ${type}, 'QUEUED', ${triggeredBy}, 1, 1, ${subject.task_pipeline_id}, ${subject.task_datastore_id})
    ON CONFLICT (workspace_id, type, coalesce(task_pipeline_id, task_datastore_id, '00000000-0000-0000-0000-000000000000'::uuid))
      WHERE starts_with(type, 'PROFILE_') AND status IN ('QUEUED', 'RUNNING')
    DO NOTHING
  `.execute(trx);
}

/**
 * Completes the open task of this type and subject. When the workspace never had one (it predates
 * setup tasks, or the task was dismissed) the event is recorded as a completed task once, so the
 * list still shows what has been done; a dismissed task is not re-opened.
 */
async function complete(trx: Db, workspaceId: string, type: SetupTaskType, profileId: string | null, subject: Subject, commitId: string, triggeredBy: string): Promise<void> {
  if ((await completeOpen(trx, workspaceId, type, profileId, subject, commitId, triggeredBy)) > 0) return;
  const any = await trx.selectFrom('jobs').select('id').where('workspace_id', '=', workspaceId).where('type', '=', type).limit(1).executeTakeFirst();
  if (any) return;
  const now = new Date();
  await trx
    .insertInto('jobs')
    .values({
      id: newId(),
      workspace_id: workspaceId,
      profile_id: profileId,
      pipeline_id: null,
      type,
      status: 'COMPLETE',
      triggered_by: triggeredBy,
      attempt: 1,
      max_attempts: 1,
      commit_id: commitId,
      start_time: now,
      end_time: now,
      exit_code: 0,
      ...subject,
    })
    .execute();
}

/** A new workspace: import data, invite someone, publish a dataset. */
export async function workspaceCreated(trx: Db, workspaceId: string, profileId: string | null): Promise<void> {
  for (const type of OPENING_TASKS) await open(trx, workspaceId, type, profileId, NO_SUBJECT, 'Workspace created');
}

interface SavedPipeline {
  id: string;
  workspace_id: string;
  name: string;
  draft: boolean;
  properties: unknown;
  data_components: unknown;
}

/**
 * A pipeline saved: the workspace has imported something. A draft or an incomplete one (a
 * required setting without a value) is left to configure; a complete one finishes that task.
 */
export async function pipelineSaved(trx: Db, pipeline: SavedPipeline, configured: boolean, profileId: string | null): Promise<void> {
  const commitId = commitIdOf({ name: pipeline.name, dataComponents: pipeline.data_components, properties: pipeline.properties, draft: pipeline.draft });
  const by = `pipeline ${pipeline.name}`;
  await complete(trx, pipeline.workspace_id, 'PROFILE_IMPORT', profileId, NO_SUBJECT, commitId, by);
  const subject = { task_pipeline_id: pipeline.id, task_datastore_id: null };
  if (pipeline.draft || !configured) await open(trx, pipeline.workspace_id, 'PROFILE_CONFIGURE_PIPELINE', profileId, subject, by);
  else await completeOpen(trx, pipeline.workspace_id, 'PROFILE_CONFIGURE_PIPELINE', profileId, subject, commitId, by);
}

interface SavedStore {
  id: string;
  workspace_id: string;
  name: string;
  draft: boolean;
  data_plugin: string;
  properties: unknown;
}

/** A data store saved: a draft is left to configure; saving it for use finishes that task. */
export async function dataStoreSaved(trx: Db, store: SavedStore, profileId: string | null): Promise<void> {
  const subject = { task_pipeline_id: null, task_datastore_id: store.id };
  const by = `data store ${store.name}`;
  if (store.draft) await open(trx, store.workspace_id, 'PROFILE_CONFIGURE_DATASTORE', profileId, subject, by);
  else await completeOpen(trx, store.workspace_id, 'PROFILE_CONFIGURE_DATASTORE', profileId, subject, commitIdOf({ name: store.name, dataPlugin: store.data_plugin, properties: Object.keys(store.properties ?? {}).sort() }), by);
}

/** Someone was invited: the workspace is collaborating. */
export async function invitationCreated(trx: Db, workspaceId: string, invitationId: string, profileId: string | null): Promise<void> {
  await complete(trx, workspaceId, 'PROFILE_COLLABORATE', profileId, NO_SUBJECT, commitIdOf({ invitation: invitationId }), 'Invitation sent');
}

/** A dataset was published to the workspace. */
export async function datasetPublished(trx: Db, workspaceId: string, datasetId: string, profileId: string | null): Promise<void> {
  await complete(trx, workspaceId, 'PROFILE_PUBLISH', profileId, NO_SUBJECT, commitIdOf({ dataset: datasetId }), 'Dataset published');
}

/** Completes the open task, if any; how many it completed. A complete pipeline or store that never needed configuring leaves no task behind. */
async function completeOpen(trx: Db, workspaceId: string, type: SetupTaskType, profileId: string | null, subject: Subject, commitId: string, triggeredBy: string): Promise<number> {
  const now = new Date();
  const updated = await trx
    .updateTable('jobs')
    .set({ status: 'COMPLETE', commit_id: commitId, end_time: now, start_time: now, profile_id: profileId, triggered_by: triggeredBy, exit_code: 0 })
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', type)
    .where('status', 'in', ['QUEUED', 'RUNNING'])
    .where('task_pipeline_id', subject.task_pipeline_id === null ? 'is' : '=', subject.task_pipeline_id)
    .where('task_datastore_id', subject.task_datastore_id === null ? 'is' : '=', subject.task_datastore_id)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows);
}
