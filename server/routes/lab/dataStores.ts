import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DATA_STORE_TEXTS, mergeStoreProperties, postgresSettingErrors, storeNameError, storeSettings } from '../../../src/domain/dataStores';
import { dataStoreSchema } from '../../../src/domain/resources';
import { REL } from '../../../src/domain/relations';
import { badRequest, conflict, type FieldError } from '../../http/errors';
import { builtinPlugin } from '../../plugins/catalogue';
import { parsePluginReference } from '../../repositories/dataComponents';
import { createDataStore, deleteDataStore, makeDefaultStore, updateDataStore } from '../../repositories/dataStores';
import { enqueueStoreCheck } from '../../runner';
import { STORE_PLUGINS } from '../../stores/storeKinds';
import type { RouteContext } from '../context';
import * as setupTasks from '../../setupTasks';
import { defineRoute } from '../define';
import { dataStoreBody } from '../../representations/dataStore';
import { propertiesRecord } from '../../services/savePipeline';

// Data stores (spec 001 §2, §3, §7 'Data stores'): create, update, make-default and delete. Saving
// a store that is not a draft queues its connection check (a DATASTORE_VERIFY job): the store is
// PROVISIONING until the check ends READY or FAILED. Reads are in components.ts.

const OBJECT_NAME = 'dataStore';

// Longer names get storeNameError's message; this bound only keeps huge bodies out.
const storeName = z.string().max(10_000, DATA_STORE_TEXTS.nameTooLong);

const createBody = z.object({
  name: storeName.nullish(),
  /** `loaders/{name}--{variant}` */
  dataPlugin: z.string({ message: 'is required' }).max(500, 'is too long'),
  properties: propertiesRecord.nullish(),
  /** a draft is kept without its connection check, and may leave required settings empty */
  draft: z.boolean().nullish(),
});

// An empty body (or none: a null body reads as one) says nothing to save and is refused as such;
// `draft` is how a save is kept, not a change of its own.
const updateBody = z
  .object({
    name: storeName.nullish(),
    properties: propertiesRecord.nullish(),
    draft: z.boolean().nullish(),
  })
  .refine((body) => [body.name, body.properties].some((value) => value !== undefined && value !== null), { message: 'must change name or properties', path: ['properties'] });

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

export function dataStoreRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** 'new datastore': 201 with the store, PROVISIONING (its check queued) or DRAFT. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/datastores',
    guard: { resource: 'workspace', rel: REL.newDatastore },
    response: dataStoreSchema,
    body: createBody,
    objectName: OBJECT_NAME,
    handler: async ({ request, reply, access, body }) => {
      const dataPlugin = storePluginOf(body.dataPlugin);
      if (!dataPlugin) throw refuse([fieldError('dataPlugin', DATA_STORE_TEXTS.plugin)]);
      const name = body.name?.trim() ?? '';
      const properties = body.properties ?? {};
      const draft = body.draft ?? false;
      const errors = storeErrors(name, properties, dataPlugin, draft);
      if (errors.length > 0) throw refuse(errors);
      const created = await createDataStore(ctx.db, access.workspace.id, { name, dataPlugin, properties, draft });
      if (!created.ok) throw refuse([fieldError('name', DATA_STORE_TEXTS.nameTaken)]);
      if (!draft) await enqueueStoreCheck(ctx.db, created.store, request.caller.profileId);
      await setupTasks.dataStoreSaved(ctx.db, created.store, request.caller.profileId);
      return reply.status(201).send(dataStoreBody(ctx, created.store, access.role));
    },
  });

  /**
   * 'update datastore': name and settings (a left-out name is kept; a password sent back masked,
   * or left out, is kept). Saved to be used it is checked again; `draft: true` keeps it a draft.
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/datastores/:id',
    guard: { resource: 'dataStore', rel: REL.updateDatastore },
    response: dataStoreSchema,
    body: updateBody,
    objectName: OBJECT_NAME,
    handler: async ({ request, access, body }) => {
      const store = access.store;
      const name = body.name === undefined || body.name === null ? store.name : body.name.trim();
      const properties = body.properties ? mergeStoreProperties(body.properties, store.properties, settingsOf(store.data_plugin)) : store.properties;
      const draft = body.draft ?? false;
      const errors = storeErrors(name, properties, store.data_plugin, draft);
      if (errors.length > 0) throw refuse(errors);
      const updated = await updateDataStore(ctx.db, store.id, { name, properties, draft });
      if (!updated) throw refuse([fieldError('id', 'names no data store')]);
      if (!updated.ok) throw refuse([fieldError('name', DATA_STORE_TEXTS.nameTaken)]);
      if (!draft) await enqueueStoreCheck(ctx.db, updated.store, request.caller.profileId);
      await setupTasks.dataStoreSaved(ctx.db, updated.store, request.caller.profileId);
      return dataStoreBody(ctx, updated.store, access.role);
    },
  });

  /** 'make-default': pipelines whose loader is target-store load into this store from their next run. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/datastores/:id/default',
    guard: { resource: 'dataStore', rel: REL.makeDefault },
    response: dataStoreSchema,
    handler: async ({ access }) => dataStoreBody(ctx, await makeDefaultStore(ctx.db, access.store), access.role),
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/datastores/:id',
    guard: { resource: 'dataStore', rel: REL.deleteDatastore },
    handler: async ({ reply, access }) => {
      // The link is not offered on the default store; this covers a store made default meanwhile.
      if (!(await deleteDataStore(ctx.db, access.store.id))) throw conflict('The default data store cannot be deleted');
      return reply.status(204).send();
    },
  });
}
