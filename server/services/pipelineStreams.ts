import { createHash } from 'node:crypto';
import { splitPropertyKey } from '../../src/domain/settingEnv';
import { selectRulesOf, type CatalogStream } from '../../src/domain/streamSelection';
import type { Db } from '../db/database';
import { listDataComponents, type DataComponentRow } from '../repositories/dataComponents';
import { componentsNamed } from '../repositories/pipelineFacts';
import { catalogsOf } from '../repositories/streamCatalogs';

// The streams of a pipeline's extractors, from their own discovery (issue 37, item 6). A verify
// job runs each extractor's discovery and the runner keeps what it listed under the extractor's
// configuration (catalogKey); the editor reads it back here, with the `select` rules in force.

/** Selection and metadata travel with the settings but do not change what discovery lists. */
const NOT_CONFIGURATION = new Set(['_select', '_metadata']);

/** Keys sorted at every level, so that one configuration always hashes the same. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * What discovery depends on: the plugin (name and variant) and every setting that reaches it, the
 * component's own under the pipeline's. A change to any of them is another configuration, whose
 * streams are discovered again. Hashed: the key is stored beside the catalog, the settings are not.
 */
function catalogKey(component: DataComponentRow, pipelineProperties: Readonly<Record<string, unknown>>, componentNames: readonly string[]): string {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(component.properties ?? {})) if (!NOT_CONFIGURATION.has(key)) settings[key] = value;
  for (const [key, value] of Object.entries(pipelineProperties)) {
    const split = splitPropertyKey(key, componentNames);
    if (split?.component === component.name && !NOT_CONFIGURATION.has(split.setting)) settings[split.setting] = value;
  }
  const identity = { plugin: component.plugin_name, variant: component.variant, settings };
  return createHash('sha256').update(JSON.stringify(canonical(identity)), 'utf8').digest('hex');
}

/** The extractors among a pipeline's components, each with the key of its configuration. */
export function extractorKeys(components: readonly DataComponentRow[], pipelineProperties: Readonly<Record<string, unknown>>): Array<{ component: DataComponentRow; key: string }> {
  const names = components.map((c) => c.name);
  return components.filter((c) => c.plugin_type === 'EXTRACTOR').map((component) => ({ component, key: catalogKey(component, pipelineProperties, names) }));
}

interface ExtractorStreams {
  component: DataComponentRow;
  /** when its discovery last listed these streams for the present settings; null: not yet */
  discovered: Date | null;
  streams: CatalogStream[] | null;
  /** the rules in force: the pipeline's, else the component's (a repository's meltano.yml `select:`); null: Meltano's default, everything */
  select: string[] | null;
}

export async function pipelineStreamsOf(db: Db, pipeline: { workspace_id: string; data_components: readonly string[]; properties: Readonly<Record<string, unknown>> }): Promise<ExtractorStreams[]> {
  const components = componentsNamed(await listDataComponents(db, pipeline.workspace_id), pipeline.data_components);
  const extractors = extractorKeys(components, pipeline.properties);
  const catalogs = new Map((await catalogsOf(db, pipeline.workspace_id, extractors.map((e) => e.key))).map((row) => [row.catalog_key, row]));
  return extractors.map(({ component, key }) => {
    const catalog = catalogs.get(key);
    const select = selectRulesOf(pipeline.properties[`${component.name}._select`]) ?? selectRulesOf(component.properties?._select) ?? null;
    return { component, discovered: catalog?.discovered ?? null, streams: catalog?.streams ?? null, select };
  });
}
