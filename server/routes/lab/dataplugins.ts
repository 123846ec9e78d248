import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../../src/domain/relations';
import { dataPluginSchema, dataPluginsCollectionSchema, PLUGIN_TYPES } from '../../../src/domain/resources';
import { badRequest } from '../../http/errors';
import { pagedCollection, type Paging } from '../../http/hal';
import { cataloguePlugins } from '../../plugins/catalogue';
import { DISCOVERY_TEXT_LIMITS, discoveryFieldErrors, discoveryYaml, parseDiscoveryYaml } from '../../plugins/discovery';
import { dataPluginLinks } from '../../policy/links';
import { installPlugin, publishPlugins, removePlugin, workspacePlugins, type WorkspacePlugin } from '../../repositories/dataPlugins';
import { requestUrl, type RouteContext } from '../context';
import { defineRoute } from '../define';
import { dataPluginBody } from '../../representations/dataPlugin';

// The plugin catalogue of a workspace (spec 001 §2 'Plugin catalogue', §7 'Plugins and
// components'): its installed plugins ('dataplugins': the built-ins and what it installed or
// published), the catalogue's others ('availabledataplugins'), installing ('add dataplugin'),
// removing ('delete dataplugin', while canDelete) and publishing a discovery.yml.

const OBJECT_NAME = 'dataplugins';
const YAML_TYPES = ['text/x-yaml', 'application/x-yaml', 'application/yaml', 'text/yaml'];
/** Bodies up to this size reach the handler, which refuses any over the discovery limit with a field error. */
const YAML_BODY_LIMIT = 8 * DISCOVERY_TEXT_LIMITS.size;

const filterQuery = z.looseObject({
  name: z.string().max(200, 'must be at most 200 characters').optional(),
  type: z.enum(PLUGIN_TYPES, { message: `must be one of ${PLUGIN_TYPES.join(', ')}` }).optional(),
});

function matches(plugin: WorkspacePlugin, name: string | undefined, type: string | undefined): boolean {
  if (type !== undefined && plugin.pluginType !== type) return false;
  if (name === undefined) return true;
  return [plugin.name, plugin.label ?? '', plugin.description ?? ''].some((text) => text.toLowerCase().includes(name));
}

/** Sorted by label (the spec's `sort=label`) unless the query asks for name; a stable order either way. */
function sorted(plugins: WorkspacePlugin[], paging: Paging): WorkspacePlugin[] {
  const field = paging.sort?.field === 'name' ? 'name' : 'label';
  const key = (p: WorkspacePlugin) => (field === 'name' ? p.name : (p.label ?? p.name)).toLowerCase();
  const direction = paging.sort?.direction === 'desc' ? -1 : 1;
  return [...plugins].sort((a, b) => direction * (key(a).localeCompare(key(b)) || a.id.localeCompare(b.id)));
}

export function dataPluginRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.addContentTypeParser(YAML_TYPES, { parseAs: 'string', bodyLimit: YAML_BODY_LIMIT }, (_request, body, done) => done(null, body));

  const listRoute = (url: string, rel: string, which: 'installed' | 'available') =>
    defineRoute(app, ctx, {
      method: 'GET',
      url,
      guard: { resource: 'workspace', rel },
      response: dataPluginsCollectionSchema,
      query: filterQuery,
      paging: { sortable: ['label', 'name'] },
      objectName: OBJECT_NAME,
      handler: async ({ request, access, query, paging }) => {
        const name = query.name?.trim().toLowerCase() || undefined;
        const plugins = (await workspacePlugins(ctx.db, access.workspace.id))[which];
        const all = sorted(
          plugins.filter((p) => matches(p, name, query.type)),
          paging,
        );
        const page = all.slice(paging.page * paging.size, (paging.page + 1) * paging.size);
        const bodies = page.map((p) => dataPluginBody(p, dataPluginLinks(ctx.h, access.workspace.id, p, access.role)));
        return pagedCollection('dataplugins', bodies, paging, all.length, requestUrl(ctx, request));
      },
    });

  /** Installed: the built-ins, the installed catalogue plugins and the custom ones; the pipeline form's loader choice reads it. */
  listRoute('/workspaces/:id/dataplugins', REL.dataplugins, 'installed');
  /** The catalogue's plugins this workspace has not installed. */
  listRoute('/workspaces/:id/availabledataplugins', REL.availableDataplugins, 'available');

  const pluginUrl = '/workspaces/:id/dataplugins/:plural/:plugin';

  defineRoute(app, ctx, {
    method: 'GET',
    url: pluginUrl,
    guard: { resource: 'dataPlugin', rel: REL.self },
    response: dataPluginSchema,
    handler: ({ access }) => dataPluginBody(access.plugin, access.links),
  });

  /** Installs an available plugin; the answer is the plugin as installed. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: pluginUrl,
    guard: { resource: 'dataPlugin', rel: REL.addDataplugin },
    response: dataPluginSchema,
    handler: async ({ access }) => {
      await installPlugin(ctx.db, access.workspace.id, access.plugin);
      const installed: WorkspacePlugin = { ...access.plugin, installed: true, canDelete: true };
      return dataPluginBody(installed, dataPluginLinks(ctx.h, access.workspace.id, installed, access.role));
    },
  });

  /** Removes an installed plugin no component uses (the link is offered only then). */
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: pluginUrl,
    guard: { resource: 'dataPlugin', rel: REL.deleteDataplugin },
    handler: async ({ reply, access }) => {
      await removePlugin(ctx.db, access.workspace.id, access.plugin);
      return reply.status(204).send();
    },
  });

  // A discovery.yml (the Matatika reference's 'View the Matatika discovery.yml' and 'View a
  // workspace discovery.yml'), written by one function from the definitions the catalogue pages show.
  const YAML_ANSWER = 'text/x-yaml; charset=utf-8';

  /** The global catalogue: every plugin a workspace may install. Every caller reads it. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/discovery.yml',
    guard: { resource: 'root', rel: REL.discovery },
    handler: ({ reply }) => reply.type(YAML_ANSWER).send(discoveryYaml(cataloguePlugins())),
  });

  /** The plugins available to a workspace: the catalogue's (installed or not) and its own custom ones. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/discovery.yml',
    guard: { resource: 'workspace', rel: REL.discovery },
    handler: async ({ reply, access }) => {
      const { installed, available } = await workspacePlugins(ctx.db, access.workspace.id);
      return reply.type(YAML_ANSWER).send(discoveryYaml([...installed, ...available]));
    },
  });

  /**
   * Publishes a discovery.yml (text/x-yaml) as the workspace's custom plugins: 201 with them, 204
   * when it defines none, 400 with one error per problem. A built-in plugin cannot be replaced.
   */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/discovery.yml',
    guard: { resource: 'workspace', rel: REL.publishDiscovery },
    response: dataPluginsCollectionSchema,
    objectName: 'discovery',
    handler: async ({ reply, access, request }) => {
      if (typeof request.body !== 'string') {
        throw badRequest('A discovery.yml is sent as text/x-yaml', [{ field: 'document', objectName: 'discovery', defaultMessage: 'must be YAML text (Content-Type: text/x-yaml)' }]);
      }
      const result = parseDiscoveryYaml(request.body);
      const { installed } = await workspacePlugins(ctx.db, access.workspace.id);
      const errors = discoveryFieldErrors(result.errors);
      result.plugins.forEach((plugin) => {
        if (installed.some((p) => p.builtin && p.pluginType === plugin.pluginType && p.name === plugin.name && (p.variant ?? '') === (plugin.variant ?? ''))) {
          errors.push({ field: 'name', objectName: 'discovery', defaultMessage: `${plugin.name} is a built-in plugin and cannot be replaced` });
        }
      });
      if (errors.length > 0) throw badRequest('Validation failed for the discovery.yml', errors);
      if (result.plugins.length === 0) return reply.status(204).send();
      await publishPlugins(ctx.db, access.workspace.id, result.plugins);
      const { installed: now } = await workspacePlugins(ctx.db, access.workspace.id);
      const published = result.plugins.flatMap((plugin) => now.filter((p) => p.custom && p.pluginType === plugin.pluginType && p.name === plugin.name && (p.variant ?? '') === (plugin.variant ?? '')));
      const bodies = published.map((p) => dataPluginBody(p, dataPluginLinks(ctx.h, access.workspace.id, p, access.role)));
      return reply.status(201).send({ _embedded: { dataplugins: bodies }, _links: { self: { href: requestUrl(ctx, request) } } });
    },
  });
}
