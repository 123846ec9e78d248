import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../../src/domain/relations';
import { dataPluginSchema, dataPluginsCollectionSchema, PLUGIN_TYPES, type Wire } from '../../../src/domain/resources';
import { conflict } from '../../http/errors';
import { pagedCollection, type Paging } from '../../http/hal';
import { cataloguePlugins, type CataloguePlugin } from '../../plugins/catalogue';
import { globalDataPluginDraftLinks, globalDataPluginLinks } from '../../policy/links';
import { ownPluginsAdministeredBy, removePlugin, type OwnPlugin } from '../../repositories/dataPlugins';
import { newId } from '../../repositories/ids';
import { administeredWorkspaceIds, memberRole } from '../../repositories/workspaces';
import { globalDataPluginBody } from '../../representations/dataPlugin';
import { createOwnPluginAs, OBJECT_NAME, ownPluginBody, updateOwnPluginAs } from '../../services/ownPlugins';
import { requestUrl, type RouteContext } from '../context';
import { defineRoute } from '../define';

// The global plugin catalogue, the Matatika reference's /api/dataplugins (issue 38;
// docs/decisions.md "The global plugin catalogue"): every plugin the server ships, which every
// caller reads, and the plugins of the workspaces the caller administers, which they create and
// change here as they do with a discovery.yml. A workspace's own plugin is never shown to anyone
// outside that workspace's admins.

const filterQuery = z.looseObject({
  name: z.string().max(200, 'must be at most 200 characters').optional(),
  type: z.enum(PLUGIN_TYPES, { message: `must be one of ${PLUGIN_TYPES.join(', ')}` }).optional(),
});

interface Listed {
  plugin: CataloguePlugin;
  body: () => Wire<typeof dataPluginSchema>;
}

function matches(plugin: CataloguePlugin, name: string | undefined, type: string | undefined): boolean {
  if (type !== undefined && plugin.pluginType !== type) return false;
  if (name === undefined) return true;
  return [plugin.name, plugin.label ?? '', plugin.description ?? ''].some((text) => text.toLowerCase().includes(name));
}

/** By label (or name), the catalogue's before a workspace's own of the same label; stable. */
function sorted(listed: Listed[], paging: Paging): Listed[] {
  const key = (p: CataloguePlugin) => (paging.sort?.field === 'name' ? p.name : (p.label ?? p.name)).toLowerCase();
  const direction = paging.sort?.direction === 'desc' ? -1 : 1;
  return listed.map((entry, index) => ({ entry, index })).sort((a, b) => direction * key(a.entry.plugin).localeCompare(key(b.entry.plugin)) || a.index - b.index).map(({ entry }) => entry);
}

export function globalDataPluginRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const ownBody = (own: OwnPlugin, role: Parameters<typeof globalDataPluginLinks>[2]) =>
    globalDataPluginBody(own.plugin, own.globalId, globalDataPluginLinks(ctx.h, { id: own.globalId, workspaceId: own.workspaceId, canDelete: own.plugin.canDelete }, role));

  /** The catalogue, and the own plugins of the workspaces the caller administers; filtered by `name` and `type` as a workspace's list is. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/dataplugins',
    guard: { resource: 'root', rel: REL.dataplugins },
    response: dataPluginsCollectionSchema,
    query: filterQuery,
    paging: { sortable: ['label', 'name'] },
    objectName: 'dataplugins',
    handler: async ({ request, query, paging }) => {
      const name = query.name?.trim().toLowerCase() || undefined;
      const caller = request.caller;
      const own = caller.profile ? await ownPluginsAdministeredBy(ctx.db, caller.profileId) : [];
      const listed: Listed[] = [
        ...cataloguePlugins().map((plugin) => ({ plugin, body: () => globalDataPluginBody(plugin, plugin.id, globalDataPluginLinks(ctx.h, { id: plugin.id, workspaceId: null, canDelete: false }, undefined)) })),
        ...own.map((o) => ({ plugin: o.plugin, body: () => ownBody(o, o.role) })),
      ];
      const all = sorted(
        listed.filter((l) => matches(l.plugin, name, query.type)),
        paging,
      );
      const page = all.slice(paging.page * paging.size, (paging.page + 1) * paging.size);
      return pagedCollection('dataplugins', page.map((l) => l.body()), paging, all.length, requestUrl(ctx, request));
    },
  });

  /**
   * 'new dataplugin': a draft with a fresh id and nothing stored (200). Its 'create dataplugin' is
   * offered only to a caller who administers a workspace to keep the plugin in.
   */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/dataplugins',
    guard: { resource: 'root', rel: REL.newDataplugin },
    response: dataPluginSchema,
    handler: async ({ request }): Promise<Wire<typeof dataPluginSchema>> => {
      const id = newId();
      const administers = (await administeredWorkspaceIds(ctx.db, request.caller.profileId)).length > 0;
      return { id, name: '', pluginType: '', settings: [], capabilities: [], custom: true, installed: false, canDelete: false, _links: globalDataPluginDraftLinks(ctx.h, id, administers) };
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/dataplugins/:id',
    guard: { resource: 'globalDataPlugin', rel: REL.self },
    response: dataPluginSchema,
    handler: ({ access }) => {
      const found = access.plugin;
      return found.kind === 'catalogue' ? globalDataPluginBody(found.plugin, found.plugin.id, access.links) : globalDataPluginBody(found.own.plugin, found.own.globalId, access.links);
    },
  });

  /**
   * 'create dataplugin' (201) at the draft's id, in the workspace the body names (default: the
   * caller's default workspace); 'update dataplugin' (200) of a workspace's own plugin. The
   * catalogue's plugins are offered neither.
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/dataplugins/:id',
    guard: { resource: 'globalDataPluginOrDraft', rel: [REL.createDataplugin, REL.updateDataplugin] },
    response: dataPluginSchema,
    body: ownPluginBody,
    objectName: OBJECT_NAME,
    handler: async ({ request, reply, access, body }) => {
      const found = access.plugin;
      if (found?.kind === 'own') return ownBody(await updateOwnPluginAs(ctx.db, found.own, body), found.role);
      const caller = request.caller;
      const created = await createOwnPluginAs(ctx.db, access.id, body, { profileId: caller.profileId, defaultWorkspaceId: caller.profile?.default_workspace_id ?? null });
      return reply.status(201).send(ownBody(created, await memberRole(ctx.db, created.workspaceId, caller.profileId)));
    },
  });

  /** 'delete dataplugin': a workspace's own plugin no data component is made from (the link is offered only then). */
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/dataplugins/:id',
    guard: { resource: 'globalDataPlugin', rel: REL.deleteDataplugin },
    handler: async ({ reply, access }) => {
      const found = access.plugin;
      // the link is offered on a workspace's own plugin only; a component made from it meanwhile keeps it
      if (found.kind !== 'own' || !found.own.plugin.canDelete) throw conflict('A plugin a data component is made from cannot be deleted');
      await removePlugin(ctx.db, found.own.workspaceId, found.own.plugin);
      return reply.status(204).send();
    },
  });
}
