import type { FastifyInstance } from 'fastify';
import { mayRun } from '../../policy/caller';
import { z } from 'zod';
import { DATA_STORE_TEXTS } from '../../../src/domain/dataStores';
import { dataStoreSchema } from '../../../src/domain/resources';
import { REL } from '../../../src/domain/relations';
import { conflict } from '../../http/errors';
import { deleteDataStore, makeDefaultStore } from '../../repositories/dataStores';
import type { RouteContext } from '../context';
import { defineRoute } from '../define';
import { dataStoreBody } from '../../representations/dataStore';
import { createDataStoreAs, OBJECT_NAME, updateDataStoreAs } from '../../services/saveDataStore';
import { propertiesRecord } from '../../services/savePipeline';

// Data stores (spec 001 §2, §3, §7 'Data stores'): create, update, make-default and delete. Saving
// a store that is not a draft queues its connection check (a DATASTORE_VERIFY job): the store is
// PROVISIONING until the check ends READY or FAILED (../../services/saveDataStore.ts). Reads are in components.ts.

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
      const created = await createDataStoreAs(ctx.db, access.workspace.id, body, request.caller.profileId);
      return reply.status(201).send(dataStoreBody(ctx, created, access.role, mayRun(request.caller)));
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
      const updated = await updateDataStoreAs(ctx.db, access.store, body, request.caller.profileId);
      return dataStoreBody(ctx, updated, access.role, mayRun(request.caller));
    },
  });

  /** 'make-default': pipelines whose loader is target-store load into this store from their next run. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/datastores/:id/default',
    guard: { resource: 'dataStore', rel: REL.makeDefault },
    response: dataStoreSchema,
    handler: async ({ request, access }) => dataStoreBody(ctx, await makeDefaultStore(ctx.db, access.store), access.role, mayRun(request.caller)),
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
