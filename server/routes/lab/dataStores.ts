import type { FastifyInstance } from 'fastify';
import { mayRun } from '../../policy/caller';
import { z } from 'zod';
import { DATA_STORE_TEXTS } from '../../../src/domain/dataStores';
import { dataStoreSchema } from '../../../src/domain/resources';
import { REL } from '../../../src/domain/relations';
import { conflict, notFound } from '../../http/errors';
import { requireOffered } from '../../policy/guard';
import { dataStoreLinks } from '../../policy/links';
import { isUuid } from '../../repositories/ids';
import { deleteDataStore, getDataStore, makeDefaultStore } from '../../repositories/dataStores';
import type { RouteContext } from '../context';
import { defineRoute } from '../define';
import { dataStoreBody } from '../../representations/dataStore';
import { createDataStoreAs, OBJECT_NAME, putExistingDataStore, putNewDataStore, updateDataStoreAs } from '../../services/saveDataStore';
import { propertiesRecord } from '../../services/savePipeline';

// Data stores (spec 001 §2, §3, §7 'Data stores'): create (also at a chosen id, the reference's
// PUT at the workspace's path), update, make-default and delete. Saving
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

/** The reference's create-or-update: a store's body, its loader needed only to create. */
const putBody = z.object({
  name: storeName.nullish(),
  dataPlugin: z.string().max(500, 'is too long').nullish(),
  properties: propertiesRecord.nullish(),
  draft: z.boolean().nullish(),
});

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
   * The reference's create-or-update at a workspace's path: an id no store has is created there
   * (201, as 'new datastore'); the workspace's own store is updated (200, as its 'update
   * datastore', which the caller must be offered: never the embedded store). Another workspace's
   * store is, to this caller, a free id that cannot be created at (409).
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/workspaces/:id/datastores/:storeId',
    guard: { resource: 'workspace', rel: REL.newDatastore },
    response: dataStoreSchema,
    body: putBody,
    objectName: OBJECT_NAME,
    handler: async ({ request, reply, access, body, param }) => {
      const id = param('storeId');
      if (!isUuid(id)) throw notFound(`Data store ${param('storeId')} not found`);
      const runs = mayRun(request.caller);
      const existing = await getDataStore(ctx.db, id);
      if (existing?.workspace_id === access.workspace.id) {
        requireOffered({ links: dataStoreLinks(ctx.h, existing, access.role, runs) }, REL.updateDatastore);
        return dataStoreBody(ctx, await putExistingDataStore(ctx.db, existing, body, request.caller.profileId), access.role, runs);
      }
      return reply.status(201).send(dataStoreBody(ctx, await putNewDataStore(ctx.db, access.workspace.id, id, body, request.caller.profileId), access.role, runs));
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
