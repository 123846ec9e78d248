import type { dataPluginSchema, Wire } from '../../src/domain/resources';
import type { Links } from '../http/hal';
import type { CataloguePlugin } from '../plugins/catalogue';
import type { WorkspacePlugin } from '../repositories/dataPlugins';

/** A plugin as the API shows it; a workspace's view adds whether it is installed, custom and removable, and its links. */
export function dataPluginBody(plugin: CataloguePlugin | WorkspacePlugin, links: Links = {}): Wire<typeof dataPluginSchema> {
  const state = 'installed' in plugin ? plugin : undefined;
  return {
    id: plugin.id,
    name: plugin.name,
    label: plugin.label ?? plugin.name,
    variant: plugin.variant,
    pluginType: plugin.pluginType,
    namespace: plugin.namespace,
    description: plugin.description,
    fullDescription: plugin.fullDescription,
    docs: plugin.docs,
    repositoryUrl: plugin.repo,
    logoUrl: plugin.logoUrl,
    dataPluginLogoUrl: plugin.logoUrl,
    capabilities: plugin.capabilities,
    commands: plugin.commands,
    settings: plugin.settings.map((s) => ({
      name: s.name,
      label: s.label ?? s.name,
      kind: s.kind,
      description: s.description,
      value: s.value ?? null,
      placeholder: s.placeholder,
      required: s.required ?? false,
      sensitive: s.sensitive,
      hidden: s.hidden,
      env: s.env,
      options: s.options,
      documentation: s.documentation,
      value_processor: s.valueProcessor,
      encoding: s.encoding,
    })),
    hidden: plugin.hidden,
    runnable: plugin.runnable,
    pipUrl: plugin.builtin ? null : plugin.pipUrl,
    custom: state?.custom ?? false,
    installed: state?.installed ?? plugin.builtin,
    // Built-in plugins ship with the server: nobody removes them from a workspace.
    canDelete: state?.canDelete ?? false,
    ...(Object.keys(links).length > 0 ? { _links: links } : {}),
  };
}

/**
 * A plugin as the global catalogue shows it (GET /api/dataplugins): a catalogue plugin by its own id,
 * a workspace's own plugin by its global id (its row's UUID), since two workspaces may each have
 * a plugin of the same type, name and variant.
 */
export function globalDataPluginBody(plugin: CataloguePlugin | WorkspacePlugin, globalId: string, links: Links): Wire<typeof dataPluginSchema> {
  return dataPluginBody({ ...plugin, id: globalId }, links);
}
