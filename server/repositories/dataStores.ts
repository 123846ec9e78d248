import type { Db } from '../db/database';
import type { DataStoreRow } from '../stores/defaultStore';

export type { DataStoreRow } from '../stores/defaultStore';

export async function getDataStore(db: Db, id: string): Promise<DataStoreRow | undefined> {
  return db.selectFrom('data_stores').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A workspace's stores, the default first, then by name. */
export async function listDataStores(db: Db, workspaceId: string, paging: { page: number; size: number }): Promise<{ items: DataStoreRow[]; total: number }> {
  const [items, count] = await Promise.all([
    db.selectFrom('data_stores').selectAll().where('workspace_id', '=', workspaceId).orderBy('is_default', 'desc').orderBy('name').orderBy('id').limit(paging.size).offset(paging.page * paging.size).execute(),
    db.selectFrom('data_stores').select((eb) => eb.fn.countAll<number>().as('total')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}
