import type { FastifyInstance } from 'fastify';
import { mayRun } from '../../policy/caller';
import { sql } from 'kysely';
import { z } from 'zod';
import { componentKeySensitivity, keepMaskedValues, settingValueError, type SettingRule } from '../../../src/domain/pipelineRules';
import { REL } from '../../../src/domain/relations';
import { dataComponentSchema, dataComponentsCollectionSchema, dataStoreSchema, dataStoresCollectionSchema, PLUGIN_TYPES } from '../../../src/domain/resources';
import { badRequest, type FieldError } from '../../http/errors';
import { pagedCollection } from '../../http/hal';
import { credentialEntries, withoutCredentials } from '../../oauth/credentials';
import { findCataloguePlugin } from '../../plugins/catalogue';
import { createDataComponent, listDataComponents, parsePluginReference, updateDataComponent, type DataComponentRow } from '../../repositories/dataComponents';
import { workspacePlugins, type WorkspacePlugin } from '../../repositories/dataPlugins';
import { listDataStores } from '../../repositories/dataStores';
import { ensureDefaultStore } from '../../stores/defaultStore';
import { requestUrl, type RouteContext } from '../context';
import { defineRoute } from '../define';
import { dataComponentBody } from '../../representations/dataComponent';
import { dataStoreBody } from '../../representations/dataStore';
import { installedReference, propertiesRecord } from '../../services/savePipeline';

// The parts pipelines are built from: the workspace's data components (list, create, update), made
// from the plugins the workspace installed (dataplugins.ts), and the workspace's data stores (read-only).

const OBJECT_NAME = 'dataComponent';
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const NAME_MESSAGE = 'must start with a letter or digit and hold only letters, digits, _ . and -';

const filterQuery = z.looseObject({
  name: z.string().max(200, 'must be at most 200 characters').optional(),
  type: z.enum(PLUGIN_TYPES, { message: `must be one of ${PLUGIN_TYPES.join(', ')}` }).optional(),
});

const createBody = z.object({
  name: z.string().max(200, 'must be at most 200 characters').regex(NAME, NAME_MESSAGE).nullish(),
  /** a plugin reference ('extractors/tap-demo--builtin') or a catalogue plugin's name */
  dataPlugin: z.string({ message: 'is required' }).max(500, 'is too long'),
  properties: propertiesRecord.nullish(),
});
// An empty body (or none: a null body reads as one) changes nothing and is refused as such.
const updateBody = z
  .object({
    name: z.string().max(200, 'must be at most 200 characters').regex(NAME, NAME_MESSAGE).nullish(),
    properties: propertiesRecord.nullish(),
  })
  .refine((body) => (body.name ?? undefined) !== undefined || (body.properties ?? undefined) !== undefined, { message: 'must change name or properties', path: ['properties'] });

const refuse = (errors: FieldError[]) => badRequest(`Validation failed for object='${OBJECT_NAME}'`, errors);
const fieldError = (field: string, defaultMessage: string): FieldError => ({ field, objectName: OBJECT_NAME, defaultMessage });

/** An installed plugin by reference ('extractors/tap-demo[--builtin]') or by name (built-ins first). */
function pluginOf(entry: string, installed: readonly WorkspacePlugin[]): WorkspacePlugin | undefined {
  if (!parsePluginReference(entry)) return installed.find((p) => !p.custom && p.name === entry);
  const reference = installedReference(entry, installed);
  return reference === undefined ? undefined : installed.find((p) => p.id === reference);
}

/** Type errors of a component's own properties; a setting the plugin does not define is refused (Meltano would ignore it silently). */
function propertyErrors(plugin: { name: string; settings: readonly SettingRule[] } | undefined, properties: Record<string, unknown>): FieldError[] {
  return Object.entries(properties).flatMap(([key, value]) => {
    const setting = plugin?.settings.find((s) => s.name === key);
    if (!setting) return [fieldError(`properties.${key}`, `is not a setting of ${plugin?.name ?? 'this plugin'}`)];
    const message = settingValueError(setting, value);
    return message === undefined ? [] : [fieldError(`properties.${key}`, message)];
  });
}

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
    body: createBody,
    objectName: OBJECT_NAME,
    handler: async ({ reply, access, body }) => {
      const { installed } = await workspacePlugins(ctx.db, access.workspace.id);
      const plugin = pluginOf(body.dataPlugin.trim(), installed);
      if (!plugin) throw refuse([fieldError('dataPlugin', 'names no plugin of the catalogue installed in this workspace')]);
      const properties = body.properties ?? {};
      const errors = propertyErrors(plugin, properties);
      if (errors.length > 0) throw refuse(errors);
      const existing = await listDataComponents(ctx.db, access.workspace.id);
      let name = body.name?.trim() || plugin.name;
      if (!body.name) for (let n = 2; existing.some((c) => c.name === name); n++) name = `${plugin.name}-${n}`;
      const created = await createDataComponent(ctx.db, access.workspace.id, { name, pluginType: plugin.pluginType, pluginName: plugin.name, variant: plugin.variant, properties });
      if (!created.ok) throw refuse([fieldError('name', created.problem)]);
      return reply.status(201).send(dataComponentBody(ctx, created.component, access.role));
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
    body: updateBody,
    objectName: OBJECT_NAME,
    handler: async ({ access, body }) => {
      const component = access.component;
      const plugin = findCataloguePlugin(component.plugin_type, component.plugin_name, component.variant);
      // OAuth credentials are the token exchange's to write (routes/tokens.ts): a form never sends or clears them
      const sent = body.properties ? withoutCredentials(body.properties) : undefined;
      const kept = sent ? keepMaskedValues(sent, component.properties, componentKeySensitivity(plugin?.settings ?? [])) : undefined;
      const errors = kept ? propertyErrors(plugin, kept) : [];
      const properties = kept ? { ...kept, ...credentialEntries(component.properties) } : undefined;
      const name = body.name?.trim();
      if (name !== undefined && name !== component.name) {
        const users = await ctx.db.selectFrom('pipelines').select('name').where('workspace_id', '=', component.workspace_id).where(sql<boolean>`data_components @> ${JSON.stringify([component.name])}::jsonb`).execute();
        if (users.length > 0) errors.push(fieldError('name', `is used by pipeline ${users.map((u) => u.name).join(', ')}: a used component keeps its name`));
      }
      if (errors.length > 0) throw refuse(errors);
      const updated = await updateDataComponent(ctx.db, component.id, { ...(name === undefined ? {} : { name }), ...(properties === undefined ? {} : { properties }) });
      if (!updated) throw refuse([fieldError('id', 'names no data component')]);
      if (!updated.ok) throw refuse([fieldError('name', updated.problem)]);
      return dataComponentBody(ctx, updated.component, access.role);
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
