import { DATA_STORE_TEXTS, mergeStoreProperties, postgresSettingErrors, storeNameError, storeSettings } from '../../src/domain/dataStores';
import type { Db } from '../db/database';
import { badRequest, conflict, type FieldError } from '../http/errors';
import { builtinPlugin } from '../plugins/catalogue';
import { parsePluginReference } from '../repositories/dataComponents';
import { createDataStore, getDataStore, updateDataStore, type DataStoreRow } from '../repositories/dataStores';
import { enqueueStoreCheck } from '../runner';
import * as setupTasks from '../setupTasks';
import { STORE_PLUGINS } from '../stores/storeKinds';

// Saving a data store for a person (spec 001 §2, §3, §7 'Data stores'): the settings checked, the
// store written, its connection check queued unless it is a draft (a DATASTORE_VERIFY job: the
// store is PROVISIONING until the check ends READY or FAILED), and its setup task.

export const OBJECT_NAME = 'dataStore';

const fieldError = (field: string, defaultMessage: string): FieldError => ({ field, objectName: OBJECT_NAME, defaultMessage });
const refuse = (errors: FieldError[]) => badRequest(`Validation failed for object='${OBJECT_NAME}'`, errors);

/** The catalogue reference of a loader that can be a store, or undefined. */
function storePluginOf(reference: string): string | undefined {
  const parsed = parsePluginReference(reference.trim());
  if (!parsed || parsed.pluginType !== 'LOADER') return undefined;
  const plugin = builtinPlugin(parsed.pluginName);
  if (!plugin || (parsed.variant !== null && parsed.variant !== plugin.variant)) return undefined;
  const canonical = `loaders/${plugin.name}--${plugin.variant}`;
  return STORE_PLUGINS.includes(canonical) ? canonical : undefined;
}

function settingsOf(dataPlugin: string) {
  return storeSettings(builtinPlugin(parsePluginReference(dataPlugin)?.pluginName ?? '')?.settings);
}

function storeErrors(name: string, properties: Record<string, unknown>, dataPlugin: string, draft: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const nameError = storeNameError(name);
  if (nameError) errors.push(fieldError('name', nameError));
  for (const [key, message] of Object.entries(postgresSettingErrors(properties, { draft, settings: settingsOf(dataPlugin) }))) errors.push(fieldError(`properties.${key}`, message));
  return errors;
}

/** After a write: the check queued for a store saved for use, and the setup task (a draft leaves it open). */
async function saved(db: Db, store: DataStoreRow, draft: boolean, profileId: string): Promise<DataStoreRow> {
  if (!draft) await enqueueStoreCheck(db, store, profileId);
  await setupTasks.dataStoreSaved(db, store, profileId);
  return store;
}

interface NewStore {
  /** `loaders/{name}--{variant}` */
  dataPlugin: string;
  name?: string | null | undefined;
  properties?: Record<string, unknown> | null | undefined;
  /** a draft is kept without its connection check, and may leave required settings empty */
  draft?: boolean | null | undefined;
}

/**
 * 'new datastore': the store, PROVISIONING (its check queued) or DRAFT; a 400 with every field
 * error otherwise. At a chosen `id` (the reference's PUT at a workspace's path; the caller checked
 * no store of this workspace has it), a 409 when anything else already has it.
 */
export async function createDataStoreAs(db: Db, workspaceId: string, body: NewStore, profileId: string, id?: string): Promise<DataStoreRow> {
  const dataPlugin = storePluginOf(body.dataPlugin);
  if (!dataPlugin) throw refuse([fieldError('dataPlugin', DATA_STORE_TEXTS.plugin)]);
  const name = body.name?.trim() ?? '';
  const properties = body.properties ?? {};
  const draft = body.draft ?? false;
  const errors = storeErrors(name, properties, dataPlugin, draft);
  if (errors.length > 0) throw refuse(errors);
  // another workspace's store, to this caller a free id: creating at it cannot be
  if (id !== undefined && (await getDataStore(db, id))) throw conflict(`Data store ${id} already exists`);
  const created = await createDataStore(db, workspaceId, { ...(id === undefined ? {} : { id }), name, dataPlugin, properties, draft });
  if (!created.ok) throw refuse([fieldError('name', DATA_STORE_TEXTS.nameTaken)]);
  return saved(db, created.store, draft, profileId);
}

/**
 * The reference's PUT at a workspace's path, for the workspace's own store: an update, whose
 * plugin (if the body names one) must be the store's own.
 */
export async function putExistingDataStore(db: Db, store: DataStoreRow, body: Omit<NewStore, 'dataPlugin'> & { dataPlugin?: string | null | undefined }, profileId: string): Promise<DataStoreRow> {
  const named = body.dataPlugin?.trim();
  if (named && storePluginOf(named) !== store.data_plugin) throw refuse([fieldError('dataPlugin', 'cannot change: a store keeps the loader it was made with')]);
  if ([body.name, body.properties].every((value) => value === undefined || value === null)) throw refuse([fieldError('properties', 'must change name or properties')]);
  return updateDataStoreAs(db, store, body, profileId);
}

/** The reference's PUT at a workspace's path, for an id no store has: a create, which needs the loader. */
export async function putNewDataStore(db: Db, workspaceId: string, id: string, body: Omit<NewStore, 'dataPlugin'> & { dataPlugin?: string | null | undefined }, profileId: string): Promise<DataStoreRow> {
  const dataPlugin = body.dataPlugin?.trim();
  if (!dataPlugin) throw refuse([fieldError('dataPlugin', 'is required')]);
  return createDataStoreAs(db, workspaceId, { ...body, dataPlugin }, profileId, id);
}

/**
 * 'update datastore': name and settings (a left-out name is kept; a password sent back masked,
 * or left out, is kept). Saved to be used it is checked again; `draft: true` keeps it a draft.
 */
export async function updateDataStoreAs(db: Db, store: DataStoreRow, body: Omit<NewStore, 'dataPlugin'>, profileId: string): Promise<DataStoreRow> {
  const name = body.name === undefined || body.name === null ? store.name : body.name.trim();
  const properties = body.properties ? mergeStoreProperties(body.properties, store.properties, settingsOf(store.data_plugin)) : store.properties;
  const draft = body.draft ?? false;
  const errors = storeErrors(name, properties, store.data_plugin, draft);
  if (errors.length > 0) throw refuse(errors);
  const updated = await updateDataStore(db, store.id, { name, properties, draft });
  if (!updated) throw refuse([fieldError('id', 'names no data store')]);
  if (!updated.ok) throw refuse([fieldError('name', DATA_STORE_TEXTS.nameTaken)]);
  return saved(db, updated.store, draft, profileId);
}
