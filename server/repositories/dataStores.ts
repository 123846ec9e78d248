import type { Db } from '../db/database';
import type { DataStoreRow } from '../stores/defaultStore';
import { isUniqueViolation, newId } from './ids';

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

type DataStoreWrite = { ok: true; store: DataStoreRow } | { ok: false; conflict: 'name' };

interface NewDataStore {
  /** the id a client chose (PUT at a workspace's datastores/{id}); a new one otherwise */
  id?: string;
  name: string;
  dataPlugin: string;
  properties: Record<string, unknown>;
  draft: boolean;
}

/** A new store: DRAFT when saved as a draft, else PROVISIONING until its connection check ends. */
export async function createDataStore(db: Db, workspaceId: string, store: NewDataStore): Promise<DataStoreWrite> {
  try {
    const row = await db
      .insertInto('data_stores')
      .values({ id: store.id ?? newId(), workspace_id: workspaceId, name: store.name, data_plugin: store.dataPlugin, properties: JSON.stringify(store.properties), draft: store.draft, status: store.draft ? 'DRAFT' : 'PROVISIONING' })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ok: true, store: row };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, conflict: 'name' };
    throw error;
  }
}

/** Saves a store's name and settings; its last check no longer speaks for them, so it is PROVISIONING (or DRAFT) again. */
export async function updateDataStore(db: Db, id: string, change: { name: string; properties: Record<string, unknown>; draft: boolean }): Promise<DataStoreWrite | undefined> {
  try {
    const row = await db
      .updateTable('data_stores')
      .set({ name: change.name, properties: JSON.stringify(change.properties), draft: change.draft, status: change.draft ? 'DRAFT' : 'PROVISIONING', status_message: null, last_modified: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? { ok: true, store: row } : undefined;
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, conflict: 'name' };
    throw error;
  }
}

/** Makes the store its workspace's default, in one transaction (one default per workspace is a unique index). */
export async function makeDefaultStore(db: Db, store: DataStoreRow): Promise<DataStoreRow> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('data_stores').set({ is_default: false }).where('workspace_id', '=', store.workspace_id).where('is_default', '=', true).where('id', '!=', store.id).execute();
    return trx.updateTable('data_stores').set({ is_default: true }).where('id', '=', store.id).returningAll().executeTakeFirstOrThrow();
  });
}

/** Deletes a store that is not its workspace's default; false when it is (or is gone). */
export async function deleteDataStore(db: Db, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('data_stores').where('id', '=', id).where('is_default', '=', false).where('managed', '=', false).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
