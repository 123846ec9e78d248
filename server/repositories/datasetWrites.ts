import { sql } from 'kysely';
import type { Db } from '../db/database';

// What changes a dataset: publishing (create or replace), editing, deleting, stars and views.

/** The stored form of a publish or an edit, already validated; undefined leaves a field as it is. */
export interface DatasetFields {
  alias?: string | null | undefined;
  title?: string | undefined;
  description?: string | null | undefined;
  questions?: string | null | undefined;
  query?: string | null | undefined;
  raw_data?: string | null | undefined;
  visualisation?: string | null | undefined;
  metadata?: string | null | undefined;
  channel_id?: string | null | undefined;
  continuous_poll?: boolean | undefined;
}

/** Runs in the caller's transaction when there is one (a deployment publishes many datasets in one), else in its own. */
async function inTransaction(db: Db, work: (trx: Db) => Promise<void>): Promise<void> {
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}

export async function createDataset(db: Db, id: string, workspaceId: string, fields: DatasetFields & { title: string }, tags: readonly string[] | undefined): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('datasets')
      .values({ id, workspace_id: workspaceId, description_content_type: 'text/markdown', ...fields, channel_id: fields.channel_id ?? null, alias: fields.alias ?? null })
      .execute();
    if (tags) await replaceTags(trx, id, tags);
  });
}

export async function updateDataset(db: Db, id: string, fields: DatasetFields, tags: readonly string[] | undefined): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('datasets')
      .set({ ...fields, last_modified: new Date() })
      .where('id', '=', id)
      .execute();
    if (tags) await replaceTags(trx, id, tags);
  });
}

async function replaceTags(db: Db, datasetId: string, tags: readonly string[]): Promise<void> {
  await db.deleteFrom('dataset_tags').where('dataset_id', '=', datasetId).execute();
  const names = [...new Set(tags.map((t) => t.trim().replace(/^#/, '').toLowerCase()).filter((t) => t !== ''))];
  if (names.length > 0) await db.insertInto('dataset_tags').values(names.map((tag) => ({ dataset_id: datasetId, tag }))).execute();
}

export async function deleteDataset(db: Db, id: string): Promise<void> {
  await db.deleteFrom('datasets').where('id', '=', id).execute();
}

/** The dataset with this alias in the workspace, if any. */
export async function datasetIdByAlias(db: Db, workspaceId: string, alias: string): Promise<string | undefined> {
  const row = await db.selectFrom('datasets').select('id').where('workspace_id', '=', workspaceId).where('alias', '=', alias).executeTakeFirst();
  return row?.id;
}

export async function datasetWorkspaceOf(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('datasets').select('workspace_id').where('id', '=', id).executeTakeFirst();
  return row?.workspace_id;
}

export async function channelInWorkspace(db: Db, workspaceId: string, channelId: string): Promise<boolean> {
  const row = await db.selectFrom('channels').select('id').where('id', '=', channelId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Stars or unstars for a profile; twice is the same as once. The dataset's like count and its body's
 * likers are rewritten by the row's trigger (migration 026), from the same query, so the two never
 * drift apart. True when this call made a new star (not again for a repeated PUT).
 */
export async function setLiked(trx: Db, datasetId: string, profileId: string, liked: boolean): Promise<boolean> {
  let starred = false;
  if (liked) {
    const added = await trx.insertInto('dataset_likes').values({ dataset_id: datasetId, profile_id: profileId }).onConflict((oc) => oc.doNothing()).returning('dataset_id').executeTakeFirst();
    starred = added !== undefined;
  } else {
    await trx.deleteFrom('dataset_likes').where('dataset_id', '=', datasetId).where('profile_id', '=', profileId).execute();
  }
  return starred;
}

export async function countView(db: Db, datasetId: string): Promise<void> {
  await db.updateTable('datasets').set({ view_count: sql<number>`view_count + 1` }).where('id', '=', datasetId).execute();
}
