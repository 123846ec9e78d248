import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../../src/domain/relations';
import { dataComponentSchema, dataComponentsCollectionSchema, dataStoreSchema, dataStoresCollectionSchema, PLUGIN_TYPES } from '../../../src/domain/resources';
import { conflict, notFound } from '../../http/errors';
import { pagedCollection } from '../../http/hal';
import { mayRun } from '../../policy/caller';
import { requireOffered } from '../../policy/guard';
import { dataComponentLinks } from '../../policy/links';
import { deleteUnusedDataComponent, getDataComponent, listDataComponents, type DataComponentRow } from '../../repositories/dataComponents';
import { listDataStores } from '../../repositories/dataStores';
import { isUuid } from '../../repositories/ids';
import { ensureDefaultStore } from '../../stores/defaultStore';
import { requestUrl, type RouteContext } from '../context';
import { defineRoute } from '../define';
import { dataComponentBody } from '../../representations/dataComponent';
import { dataStoreBody } from '../../representations/dataStore';
import {
  createComponentBody,
  createDataComponentAs,
  OBJECT_NAME,
  putComponentBody,
  putExistingDataComponent,
  putNewDataComponent,
  updateComponentBody,
  updateDataComponentAs,
} from '../../services/saveDataComponent';

// The parts pipelines are built from: the workspace's data components (list, create, update; the
// rules are ../../services/saveDataComponent.ts), made from the plugins the workspace installed
// (dataplugins.ts), and the workspace's data stores (read-only).

const filterQuery = z.looseObject({
  name: z.string().max(200, 'must be at most 200 characters').optional(),
  type: z.enum(PLUGIN_TYPES, { message: `must be one of ${PLUGIN_TYPES.join(', ')}` }).optional(),
});

function matches(component: DataComponentRow, name: string | undefined, type: string | undefined): boolean {
  return (name === undefined || component.name.toLowerCase().includes(name.toLowerCase())) && (type === undefined || component.plugin_type === type);
}

export function componentRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/datacomponents',
    guard: { resource: 'workspace', rel: REL.datacomponents },
    response: dataComponentsCollectionSchema,
    query: filterQuery,
    paging: {},
    objectName: 'datacomponents',
    handler: async ({ request, access, query, paging }) => {
      const name = query.name?.trim() || undefined;
      const all = (await listDataComponents(ctx.db, access.workspace.id)).filter((c) => matches(c, name, query.type));
      const page = all.slice(paging.page * paging.size, (paging.page + 1) * paging.size);
      return pagedCollection('datacomponents', page.map((c) => dataComponentBody(ctx, c, access.role)), paging, all.length, requestUrl(ctx, request));
    },
  });

  /** A component of a catalogue plugin; its name defaults to the plugin's (suffixed -2, -3… when taken). */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/datacomponents',
    guard: { resource: 'workspace', rel: REL.createDatacomponent },
    response: dataComponentSchema,
    body: createComponentBody,
    objectName: OBJECT_NAME,
    handler: async ({ reply, access, body }) => reply.status(201).send(dataComponentBody(ctx, await createDataComponentAs(ctx.db, access.workspace.id, body), access.role)),
  });

  /**
   * The reference's create-or-update at a workspace's path: an id no component has is created
   * there (201, as 'create datacomponent'); the workspace's own component is updated (200, as its
   * 'update datacomponent', which the caller must be offered). Another workspace's component is,
   * to this caller, a free id that cannot be created at (409).
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/workspaces/:id/datacomponents/:componentId',
    guard: { resource: 'workspace', rel: REL.createDatacomponent },
    response: dataComponentSchema,
    body: putComponentBody,
    objectName: OBJECT_NAME,
    handler: async ({ reply, access, body, param }) => {
      const id = param('componentId');
      if (!isUuid(id)) throw notFound(`Data component ${param('componentId')} not found`);
      const existing = await getDataComponent(ctx.db, id);
      if (existing?.workspace_id === access.workspace.id) {
        requireOffered({ links: dataComponentLinks(ctx.h, existing, access.role) }, REL.updateDatacomponent);
        return dataComponentBody(ctx, await putExistingDataComponent(ctx.db, existing, body), access.role);
      }
      return reply.status(201).send(dataComponentBody(ctx, await putNewDataComponent(ctx.db, access.workspace.id, id, body), access.role));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datacomponents/:id',
    guard: { resource: 'dataComponent', rel: REL.self },
    response: dataComponentSchema,
    handler: ({ access }) => dataComponentBody(ctx, access.component, access.role),
  });

  /**
   * Changes a component's properties (a sensitive one sent back as '***' is kept). Pipelines name
   * their components, so a component a pipeline uses keeps its name.
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/datacomponents/:id',
    guard: { resource: 'dataComponent', rel: REL.updateDatacomponent },
    response: dataComponentSchema,
    body: updateComponentBody,
    objectName: OBJECT_NAME,
    handler: async ({ access, body }) => dataComponentBody(ctx, await updateDataComponentAs(ctx.db, access.component, body), access.role),
  });

  /**
   * 'delete datacomponent' (admins): the component goes with its settings and their secrets (204).
   * Pipelines name their components, so one a pipeline names is kept: a 409 naming the pipelines.
   */
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/datacomponents/:id',
    guard: { resource: 'dataComponent', rel: REL.deleteDatacomponent },
    handler: async ({ reply, access }) => {
      const result = await deleteUnusedDataComponent(ctx.db, access.component);
      if (!result.deleted) throw conflict(`${access.component.name} is used by pipeline ${result.usedBy.join(', ')}: remove it from ${result.usedBy.length > 1 ? 'them' : 'it'} first`);
      return reply.status(204).send();
    },
  });

  /** The workspace's stores, the default first; the embedded default store exists for every workspace that asks. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/datastores',
    guard: { resource: 'workspace', rel: REL.datastores },
    response: dataStoresCollectionSchema,
    paging: {},
    objectName: 'datastores',
    handler: async ({ request, access, paging }) => {
      await ensureDefaultStore(ctx.db, access.workspace.id);
      const { items, total } = await listDataStores(ctx.db, access.workspace.id, paging);
      return pagedCollection('datastores', items.map((s) => dataStoreBody(ctx, s, access.role, mayRun(request.caller))), paging, total, requestUrl(ctx, request));
    },
  });

  /** The workspace's default store. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/datastore',
    guard: { resource: 'workspace', rel: REL.datastore },
    response: dataStoreSchema,
    handler: async ({ request, access }) => dataStoreBody(ctx, await ensureDefaultStore(ctx.db, access.workspace.id), access.role, mayRun(request.caller)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datastores/:id',
    guard: { resource: 'dataStore', rel: REL.self },
    response: dataStoreSchema,
    handler: ({ request, access }) => dataStoreBody(ctx, access.store, access.role, mayRun(request.caller)),
  });
}
