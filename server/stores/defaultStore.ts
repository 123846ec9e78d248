import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import { storeDbOf, storesApart } from '../db/storeDatabase';
import type { DataStoresTable } from '../db/schema';
import { newId } from '../repositories/ids';
import { ensureStoreRole, storeSchemaName } from './storeRole';

export type DataStoreRow = Selectable<DataStoresTable>;

/** The loader that writes into the embedded default store (server/plugins/target-store). */
export const DEFAULT_STORE_PLUGIN = 'loaders/target-store--builtin';
const DEFAULT_STORE_NAME = 'Default store';

export { storeSchemaName };

/** The workspace's default store, created (row, schema and the role its queries run as) when it has none. */
export async function ensureDefaultStore(db: Db, workspaceId: string): Promise<DataStoreRow> {
  const schema = storeSchemaName(workspaceId);
  // Apart (PGlite), inside a caller's transaction of the app's database, the schema is left to the
  // store's first use (a load, a query, a check): made here it would hold the app database's one
  // session while waiting for the stores' thread, which may be busy with a tenant's query until its
  // deadline.
  if (!(db.isTransaction && storesApart(db))) await ensureStoreRole(db, workspaceId);
  const existing = await defaultStoreOf(db, workspaceId);
  if (existing) return existing;
  await db
    .insertInto('data_stores')
    .values({ id: newId(), workspace_id: workspaceId, name: DEFAULT_STORE_NAME, data_plugin: DEFAULT_STORE_PLUGIN, properties: JSON.stringify({ schema }), managed: true, is_default: true })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const store = await defaultStoreOf(db, workspaceId);
  if (!store) throw new Error('The default store could not be created');
  return store;
}

export async function defaultStoreOf(db: Db, workspaceId: string): Promise<DataStoreRow | undefined> {
  return db.selectFrom('data_stores').selectAll().where('workspace_id', '=', workspaceId).where('is_default', '=', true).executeTakeFirst();
}

/** Tables of the workspace's default store with their row estimates, for a store's page and the tests. */
export async function storeTables(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = ${storeSchemaName(workspaceId)} ORDER BY table_name`.execute(storeDbOf(db));
  return rows.rows.map((r) => r.table_name);
}
