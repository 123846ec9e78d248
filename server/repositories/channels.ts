import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { ChannelsTable } from '../db/schema';
import type { Paging } from '../http/hal';
import { isUuid } from './ids';

export type ChannelRow = Selectable<ChannelsTable>;

/** A channel as a list shows it: how many datasets it holds, who made it, and whether it holds one asked about. */
type ChannelListRow = ChannelRow & { dataset_count: number; creator_name: string | null; contains_dataset: boolean };

interface ChannelFilter {
  type: string | undefined;
  /** only channels that hold at least one dataset */
  containsDataset: boolean;
  /** the viewer: private (PROFILE) channels of anyone else are left out */
  viewerId: string;
  /** report whether each channel holds this dataset (the 'Add to list' dialog) */
  datasetId: string | undefined;
}

const SORTABLE = { name: 'name', lastModified: 'last_modified', created: 'created' } as const;
export const CHANNEL_SORT_FIELDS = Object.keys(SORTABLE);

/** A SOURCE channel holds the datasets that name it; a LIST holds what was added to it. */
const heldBy = (channel: string) => sql`(
  SELECT d.id FROM datasets d WHERE d.channel_id = ${sql.ref(channel)} AND ${sql.ref(`${channel.split('.')[0]}.type`)} <> 'LIST'
  UNION SELECT cd.dataset_id FROM channel_datasets cd WHERE cd.channel_id = ${sql.ref(channel)})`;

/** The workspace's channels the viewer may see, most recently changed first unless the paging sorts otherwise. */
export async function channelsOf(db: Db, workspaceId: string, filter: ChannelFilter, paging: Paging): Promise<{ items: ChannelListRow[]; total: number }> {
  let base = db
    .selectFrom('channels as c')
    .where('c.workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('c.scope', '<>', 'PROFILE'), eb('c.creator_id', '=', filter.viewerId)]));
  if (filter.type !== undefined) base = base.where(sql<boolean>`upper(c.type) = ${filter.type.toUpperCase()}`);
  if (filter.containsDataset) base = base.where(sql<boolean>`EXISTS ${heldBy('c.id')}`);
  const field = SORTABLE[(paging.sort?.field ?? 'lastModified') as keyof typeof SORTABLE];
  const contains = filter.datasetId !== undefined && isUuid(filter.datasetId) ? filter.datasetId : null;
  const [items, count] = await Promise.all([
    base
      .leftJoin('profiles as p', 'p.id', 'c.creator_id')
      .selectAll('c')
      .select([
        'p.name as creator_name',
        sql<number>`(SELECT count(*) FROM ${heldBy('c.id')} AS held)`.as('dataset_count'),
        sql<boolean>`${contains}::uuid IN ${heldBy('c.id')}`.as('contains_dataset'),
      ])
      .orderBy(`c.${field}`, paging.sort?.direction ?? 'desc')
      .orderBy('c.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: items.map((i) => ({ ...i, dataset_count: Number(i.dataset_count), contains_dataset: i.contains_dataset === true })), total: Number(count.total) };
}

export function findChannel(db: Db, id: string): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The dataset ids of a channel's page, newest first (a list: most recently added first). */
export async function channelDatasetIds(db: Db, channel: ChannelRow, paging: Paging): Promise<{ ids: string[]; total: number }> {
  const { rows } = await sql<{ id: string; total: number }>`
    SELECT id, count(*) OVER () AS total FROM (
      SELECT d.id, d.published AS at FROM datasets d WHERE d.channel_id = ${channel.id} AND ${channel.type} <> 'LIST'
      UNION ALL SELECT cd.dataset_id, cd.added FROM channel_datasets cd WHERE cd.channel_id = ${channel.id}
    ) held ORDER BY at DESC, id LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`.execute(db);
  return { ids: rows.map((r) => r.id), total: rows[0] ? Number(rows[0].total) : 0 };
}

export async function createList(db: Db, input: { id: string; workspaceId: string; creatorId: string; name: string; description: string | null; scope: string }): Promise<ChannelRow> {
  return db
    .insertInto('channels')
    .values({ id: input.id, workspace_id: input.workspaceId, name: input.name, description: input.description, type: 'LIST', scope: input.scope, creator_id: input.creatorId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateChannel(db: Db, id: string, changes: { name: string; description: string | null; scope: string | undefined }): Promise<ChannelRow> {
  return db
    .updateTable('channels')
    .set({ name: changes.name, description: changes.description, ...(changes.scope ? { scope: changes.scope } : {}), last_modified: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Adds a dataset to a list (again is harmless). */
export async function addToList(db: Db, channelId: string, datasetId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('channel_datasets').values({ channel_id: channelId, dataset_id: datasetId }).onConflict((oc) => oc.doNothing()).execute();
    await trx.updateTable('channels').set({ last_modified: new Date() }).where('id', '=', channelId).execute();
  });
}

export async function removeFromList(db: Db, channelId: string, datasetId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('channel_datasets').where('channel_id', '=', channelId).where('dataset_id', '=', datasetId).execute();
    await trx.updateTable('channels').set({ last_modified: new Date() }).where('id', '=', channelId).execute();
  });
}

/** Removes a list; its memberships go with it (ON DELETE CASCADE), the datasets stay. */
export async function deleteList(db: Db, id: string): Promise<void> {
  await db.deleteFrom('channels').where('id', '=', id).where('type', '=', 'LIST').execute();
}

export async function setScope(db: Db, id: string, scope: 'WORKSPACE' | 'PROFILE'): Promise<ChannelRow> {
  return db.updateTable('channels').set({ scope, last_modified: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
