import { pluginReference } from '../../../src/domain/discovery';
import { maskStoreProperties, storeState } from '../../../src/domain/dataStores';
import { componentKeySensitivity, maskProperties, pipelineKeySensitivity } from '../../../src/domain/pipelineRules';
import { credentialsSummary } from '../../oauth/credentials';
import type { dataComponentSchema, dataPluginSchema, dataStoreSchema, pipelineSchema, Wire } from '../../../src/domain/resources';
import type { MemberRole } from '../../db/schema';
import type { Links } from '../../http/hal';
import { builtinPlugin, findCataloguePlugin, type CataloguePlugin } from '../../plugins/catalogue';
import type { WorkspacePlugin } from '../../repositories/dataPlugins';
import { dataComponentLinks, dataStoreLinks, pipelineLinks } from '../../policy/links';
import type { DataComponentRow } from '../../repositories/dataComponents';
import type { DataStoreRow } from '../../repositories/dataStores';
import { jdbcUrlOf } from '../../stores/storeKinds';
import { componentRule, type PipelineFacts } from '../../repositories/pipelineFacts';
import type { PipelineRow } from '../../repositories/pipelines';
import { iso, isoRequired, type RouteContext } from '../context';
import { jobBody } from '../jobs';

// The Lab's bodies, each typed by the schema the SPA parses them with. Sensitive settings leave
// the server as '***' in every body (pipelines, components); see keepMaskedValues for the way back.


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
    })),
    hidden: plugin.hidden,
    runnable: plugin.runnable,
    custom: state?.custom ?? false,
    installed: state?.installed ?? plugin.builtin,
    // Built-in plugins ship with the server: nobody removes them from a workspace.
    canDelete: state?.canDelete ?? false,
    ...(Object.keys(links).length > 0 ? { _links: links } : {}),
  };
}

export function dataComponentBody(ctx: RouteContext, component: DataComponentRow, role: MemberRole): Wire<typeof dataComponentSchema> {
  const plugin = findCataloguePlugin(component.plugin_type, component.plugin_name, component.variant);
  const rule = componentRule(component);
  return {
    id: component.id,
    name: component.name,
    dataPlugin: pluginReference(component.plugin_type, component.plugin_name, component.variant),
    pluginType: component.plugin_type,
    properties: maskProperties(component.properties, componentKeySensitivity(rule.settings)),
    commands: {},
    created: iso(component.created),
    lastModified: iso(component.last_modified),
    credentials: credentialsSummary(component.properties),
    _embedded: { dataplugin: plugin ? dataPluginBody(plugin) : null },
    _links: dataComponentLinks(ctx.h, component, role),
  };
}

export function dataStoreBody(ctx: RouteContext, store: DataStoreRow, role: MemberRole): Wire<typeof dataStoreSchema> {
  const plugin = builtinPlugin(pluginNameOf(store.data_plugin));
  return {
    id: store.id,
    name: store.name,
    // A PostgreSQL store's connection without its password; the embedded store is reached through the runner's bridge.
    jdbcUrl: jdbcUrlOf(store),
    logoUrl: null,
    managed: store.managed,
    draft: store.draft,
    default: store.is_default,
    status: storeState(store),
    statusMessage: store.status_message,
    dataPlugin: store.data_plugin,
    properties: maskStoreProperties(store.properties, plugin?.settings ?? []),
    created: iso(store.created),
    lastModified: iso(store.last_modified),
    _links: dataStoreLinks(ctx.h, store, role),
  };
}

/** `loaders/target-postgres--builtin` → `target-postgres`. */
export function pluginNameOf(reference: string): string {
  const name = reference.slice(reference.indexOf('/') + 1);
  const variant = name.indexOf('--');
  return variant < 0 ? name : name.slice(0, variant);
}

export interface PipelineBodyParts {
  pipeline: PipelineRow;
  facts: PipelineFacts | undefined;
  role: MemberRole;
  store: DataStoreRow | undefined;
}

export function pipelineBody(ctx: RouteContext, { pipeline, facts, role, store }: PipelineBodyParts): Wire<typeof pipelineSchema> {
  const rules = facts?.rules ?? [];
  const state = { draft: pipeline.draft, complete: facts?.complete ?? false, activeJobId: facts?.activeJobId, subscribed: facts?.subscription !== undefined };
  const links: Links = pipelineLinks(ctx.h, pipeline, role, state);
  return {
    id: pipeline.id,
    name: pipeline.name,
    status: pipeline.draft ? 'DRAFT' : pipeline.status,
    draft: pipeline.draft,
    properties: maskProperties(pipeline.properties, pipelineKeySensitivity(rules)),
    schedule: pipeline.schedule,
    dataComponents: pipeline.data_components,
    actions: pipeline.actions,
    script: pipeline.script,
    timeout: pipeline.timeout,
    maxRetries: pipeline.max_retries,
    triggeredBy: pipeline.triggered_by,
    created: isoRequired(pipeline.created),
    lastModified: isoRequired(pipeline.last_modified),
    _embedded: {
      'latest job': facts?.latestJob ? jobBody(ctx, facts.latestJob, role) : null,
      dataComponents: (facts?.components ?? []).map((c) => dataComponentBody(ctx, c, role)),
      datastore: store ? dataStoreBody(ctx, store, role) : null,
    },
    _links: links,
  };
}
