import type { Db } from '../../db/database';
import { createDataStore, updateDataStore, type DataStoreRow } from '../../repositories/dataStores';
import * as setupTasks from '../../setupTasks';
import { DEFAULT_STORE_PLUGIN } from '../../stores/defaultStore';
import type { FieldProblem } from '../deployDefinitions';
import { WORKSPACE_FILE } from '../workspaceConfig';
import { sameJson, type ApplyRequest } from './shared';

/** The name of Matatika's managed store: a repository naming it (default_data_store, data_components) means the workspace's own managed store. */
const MATATIKA_WAREHOUSE = 'Warehouse';

/** DataStoreML: each store created or, when its settings changed, updated (and checked again once committed). The workspace's stores after it. */
export async function applyDataStores(trx: Db, request: ApplyRequest, problems: FieldProblem[], lines: string[], saved: DataStoreRow[]): Promise<DataStoreRow[]> {
  const all = () => trx.selectFrom('data_stores').selectAll().where('workspace_id', '=', request.workspaceId).orderBy('name').execute();
  const existing = await all();
  for (const definition of request.dataStores ?? []) {
    const same = existing.find((s) => s.name === definition.name);
    if (same?.managed) {
      problems.push({ file: definition.file, field: 'name (the file name)', message: "is the workspace's managed store: its settings are not a repository's to set" });
      continue;
    }
    if (same && same.data_plugin === definition.dataPlugin && sameJson(same.properties, definition.properties) && !same.draft) continue;
    const written = same
      ? await updateDataStore(trx, same.id, { name: definition.name, properties: definition.properties, draft: false })
      : await createDataStore(trx, request.workspaceId, { name: definition.name, dataPlugin: definition.dataPlugin, properties: definition.properties, draft: false });
    if (!written?.ok) {
      problems.push({ file: definition.file, field: 'name (the file name)', message: 'A data store with this name already exists in the workspace' });
      continue;
    }
    await setupTasks.dataStoreSaved(trx, written.store, request.profileId);
    saved.push(written.store);
    lines.push(`${same ? 'Updated' : 'Created'} data store ${definition.name} from ${definition.file}; its connection is checked next.`);
  }
  return all();
}

/** The store a repository's name means: its own store of that name, else Matatika's 'Warehouse' is the workspace's managed store. */
export function storeNamed(stores: readonly DataStoreRow[], name: string): DataStoreRow | undefined {
  return stores.find((s) => s.name === name) ?? (name === MATATIKA_WAREHOUSE ? stores.find((s) => s.managed && s.data_plugin === DEFAULT_STORE_PLUGIN) : undefined);
}

/** workspace.yml's default_data_store made the workspace's default store; the default store after it. */
export async function applyDefaultStore(trx: Db, request: ApplyRequest, stores: DataStoreRow[], problems: FieldProblem[], lines: string[]): Promise<DataStoreRow | undefined> {
  const current = stores.find((s) => s.is_default);
  const wanted = request.workspace?.defaultDataStore;
  if (wanted === undefined) return current;
  const file = request.workspace?.overlay ?? WORKSPACE_FILE;
  const store = storeNamed(stores, wanted);
  if (!store) {
    problems.push({ file, field: 'default_data_store', message: `names no data store of this workspace or the repository ('${wanted.slice(0, 80)}')` });
    return current;
  }
  if (store.is_default) return store;
  await trx.updateTable('data_stores').set({ is_default: false }).where('workspace_id', '=', request.workspaceId).where('is_default', '=', true).execute();
  const made = await trx.updateTable('data_stores').set({ is_default: true }).where('id', '=', store.id).returningAll().executeTakeFirstOrThrow();
  for (const s of stores) s.is_default = s.id === made.id;
  lines.push(`The default data store is now ${made.name} (default_data_store): pipelines loading through target-store load into it from their next run.`);
  return made;
}
