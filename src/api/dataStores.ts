import { embeddedList, type HalLike } from '../domain/hal';
import { REL } from '../domain/relations';
import { dataStoreSchema, dataStoresCollectionSchema, workspaceSchema, type DataStore, type Workspace } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';
import { encodeSegment } from '../domain/paths';

// Data stores (spec 001 §7 'Data stores'): the workspace's 'datastores' link, GET /datastores/{id},
// create through 'new datastore', update, make-default and delete through the store's links.

/** The list shows every store of a workspace on one page (a workspace has a handful). */
const DATA_STORES_PAGE_SIZE = 100;

export async function listDataStores(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<DataStore[]> {
  const page = await client.follow(workspace, REL.datastores, { ...options, schema: dataStoresCollectionSchema, query: { size: DATA_STORES_PAGE_SIZE, ...options.query } });
  return embeddedList(page, 'datastores');
}

export function getDataStore(client: ApiClient, id: string, options: RequestOptions = {}): Promise<DataStore> {
  return client.get(`/datastores/${encodeSegment(id)}`, dataStoreSchema, options);
}

/** Re-reads the workspace by its self link (after make-default its 'datastore' is another store). */
export function refreshWorkspace(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<Workspace> {
  return client.follow(workspace, REL.self, { ...options, schema: workspaceSchema });
}

type DataStoreWrite = { readonly name: string; readonly properties: Readonly<Record<string, unknown>>; readonly dataPlugin?: string };

/**
 * Creates through the workspace's 'new datastore' when there is no store yet, else updates
 * through 'update datastore'. The form shows a 400 itself, so the shared handler stays out.
 */
export async function saveDataStore(client: ApiClient, target: { readonly workspace: HalLike; readonly store: DataStore | null }, body: DataStoreWrite, options: RequestOptions = {}): Promise<DataStore> {
  const saved =
    target.store === null
      ? await client.follow(target.workspace, REL.newDatastore, { ...options, method: 'POST', body, schema: dataStoreSchema, skipErrorHandler: true, retry: false })
      : await client.follow(target.store, REL.updateDatastore, { ...options, method: 'PUT', body, schema: dataStoreSchema, skipErrorHandler: true });
  if (saved === undefined) throw new TypeError('The data store was not returned');
  return saved;
}

export async function makeDefaultDataStore(client: ApiClient, store: HalLike, options: RequestOptions = {}): Promise<void> {
  await client.follow(store, REL.makeDefault, { ...options, method: 'PUT' });
}

export async function deleteDataStore(client: ApiClient, store: HalLike, options: RequestOptions = {}): Promise<void> {
  await client.follow(store, REL.deleteDatastore, { ...options, method: 'DELETE' });
}
