import { maskStoreProperties, storeState } from '../../../src/domain/dataStores';
import { componentKeySensitivity, maskProperties, pipelineKeySensitivity } from '../../../src/domain/pipelineRules';
import type { dataComponentSchema, dataPluginSchema, dataStoreSchema, pipelineSchema, Wire } from '../../../src/domain/resources';
import type { MemberRole } from '../../db/schema';
import type { Links } from '../../http/hal';
import { builtinPlugin, type BuiltinPlugin } from '../../plugins/catalogue';
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

const PLURAL: Record<string, string> = { EXTRACTOR: 'extractors', LOADER: 'loaders', MAPPER: 'mappers', TRANSFORMER: 'transformers', UTILITY: 'utilities', FILE: 'files' };

/** `{plural type}/{name}--{variant}`, the form a pipeline's dataComponents entry and a store's dataPlugin take. */
export function pluginReference(pluginType: string, name: string, variant: string | null): string {
  return `${PLURAL[pluginType] ?? pluginType.toLowerCase()}/${name}${variant ? `--${variant}` : ''}`;
}

export function dataPluginBody(plugin: BuiltinPlugin): Wire<typeof dataPluginSchema> {
  return {
    id: pluginReference(plugin.pluginType, plugin.name, plugin.variant),
    name: plugin.name,
    label: plugin.label,
    variant: plugin.variant,
    pluginType: plugin.pluginType,
    namespace: plugin.namespace,
    description: plugin.description,
    fullDescription: plugin.description,
    docs: null,
    logoUrl: null,
    dataPluginLogoUrl: null,
    capabilities: plugin.capabilities,
    commands: {},
    settings: plugin.settings.map((s) => ({
      name: s.name,
      label: s.label,
      kind: s.kind,
      description: s.description,
      value: s.value ?? null,
      placeholder: s.placeholder ?? null,
      required: s.required ?? false,
      sensitive: s.sensitive ?? s.kind === 'PASSWORD',
      hidden: false,
      env: s.env ?? null,
    })),
    hidden: false,
    // Built-in plugins ship with the server: nobody removes them from a workspace.
    canDelete: false,
  };
}

export function dataComponentBody(ctx: RouteContext, component: DataComponentRow, role: MemberRole): Wire<typeof dataComponentSchema> {
  const plugin = builtinPlugin(component.plugin_name);
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
