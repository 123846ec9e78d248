import { pluginReference } from '../../src/domain/discovery';
import { componentKeySensitivity, maskProperties } from '../../src/domain/pipelineRules';
import type { dataComponentSchema, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import { credentialsSummary } from '../oauth/credentials';
import { findCataloguePlugin } from '../plugins/catalogue';
import { dataComponentLinks } from '../policy/links';
import type { DataComponentRow } from '../repositories/dataComponents';
import { componentRule } from '../repositories/pipelineFacts';
import { iso, type BodyContext } from './context';
import { dataPluginBody } from './dataPlugin';

// Sensitive settings leave the server as '***' in every body (pipelines, components); see keepMaskedValues for the way back.

export function dataComponentBody(ctx: BodyContext, component: DataComponentRow, role: MemberRole): Wire<typeof dataComponentSchema> {
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
