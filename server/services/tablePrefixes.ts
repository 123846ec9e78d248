import { defaultTablePrefix, pipelinesSharingTables, TABLE_PREFIX_MESSAGES, TABLE_PREFIX_SETTING, tablePrefixError } from '../../src/domain/tableNamespace';
import type { DataComponentRow } from '../repositories/dataComponents';
import { componentRule } from '../repositories/pipelineFacts';
import type { PipelineRow } from '../repositories/pipelines';
import { knownStreams, tablesInCommon } from './extractorStreams';
import { ownValue } from '../../src/domain/ownValue';

// The save rule of a pipeline's table prefixes (src/domain/tableNamespace.ts, docs/decisions.md
// "Table prefixes"): which loaders take one, the one a pipeline gets, and the errors of a save.

type OtherPipeline = Pick<PipelineRow, 'name' | 'properties' | 'data_components'>;

/** The loaders of these components that take a table prefix, with the property key that holds it. */
function prefixedLoaders(components: readonly DataComponentRow[]): Array<{ loader: string; key: string }> {
  return components
    .filter((c) => c.plugin_type === 'LOADER' && componentRule(c).settings.some((s) => s.name === TABLE_PREFIX_SETTING))
    .map((c) => ({ loader: c.name, key: `${c.name}.${TABLE_PREFIX_SETTING}` }));
}

/**
 * Every prefix-taking loader gets a table prefix: the one the body names, else the stored one (a
 * client that never heard of prefixes keeps the pipeline where it loads), else, once the pipeline
 * is saved to run (its name is chosen by then, not the plugin's a draft starts with), a new one
 * from its name that no other pipeline of that loader has.
 */
export function withTablePrefixes(
  properties: Record<string, unknown>,
  context: { name: string; draft: boolean; unprefixed: boolean; components: readonly DataComponentRow[]; existing: PipelineRow | undefined; others: readonly OtherPipeline[] },
): Record<string, unknown> {
  const result = { ...properties };
  for (const { key } of prefixedLoaders(context.components)) {
    if (result[key] !== undefined && result[key] !== null) continue;
    const stored = context.existing?.properties[key];
    const taken = context.others.map((o) => o.properties[key]).filter((p): p is string => typeof p === 'string');
    if (typeof stored === 'string') result[key] = stored;
    else if (!context.draft) result[key] = context.unprefixed ? '' : defaultTablePrefix(context.name, taken);
  }
  return result;
}

/**
 * The streams a pipeline's extractors are known to emit (extractorStreams.ts), each read with the
 * settings a run would get: the pipeline's property, else the component's own.
 */
function pipelineStreams(extractors: readonly DataComponentRow[], properties: Record<string, unknown>): string[] {
  return extractors.flatMap((c) =>
    knownStreams({ name: c.plugin_name, variant: c.variant }, (setting) => {
      const key = `${c.name}.${setting}`;
      return Object.hasOwn(properties, key) ? properties[key] : ownValue(c.properties, setting);
    }),
  );
}

/**
 * A field error on each table prefix that is no identifier, or (unless the person confirmed it, or
 * the pipeline stays a draft) that this pipeline would share with another pipeline: one of the same
 * extractor and prefix, or one whose extractor's known streams land in the same tables as ours.
 * `workspaceComponents` are the workspace's components, to read the other pipelines' extractors.
 */
export function tablePrefixErrors(
  name: string,
  draft: boolean,
  properties: Record<string, unknown>,
  components: readonly DataComponentRow[],
  others: readonly OtherPipeline[],
  shareTables: boolean,
  workspaceComponents: readonly DataComponentRow[] = components,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const extractors = components.filter((c) => c.plugin_type === 'EXTRACTOR').map((c) => c.name);
  for (const { loader, key } of prefixedLoaders(components)) {
    const prefix = properties[key];
    if ((prefix === undefined || prefix === null) && draft) continue;
    const invalid = tablePrefixError(prefix);
    if (invalid || typeof prefix !== 'string') {
      errors[`properties.${key}`] = invalid ?? TABLE_PREFIX_MESSAGES.invalid;
      continue;
    }
    // a draft never runs: the question waits for the save that makes it runnable
    if (shareTables || draft) continue;
    // another pipeline's component names stand in for its extractors: only an extractor can match one of ours
    const destinations = others.filter((o) => o.data_components.includes(loader)).map((o) => ({ name: o.name, loader, prefix: typeof o.properties[key] === 'string' ? o.properties[key] : '', extractors: o.data_components }));
    const [shared] = pipelinesSharingTables({ name, loader, prefix, extractors }, destinations);
    if (shared) {
      errors[`properties.${key}`] = TABLE_PREFIX_MESSAGES.shared(shared.name, prefix);
      continue;
    }
    // different extractors: the same table only where both streams are known (a Python plugin's are not)
    const ours = { prefix, streams: pipelineStreams(components.filter((c) => c.plugin_type === 'EXTRACTOR'), properties) };
    if (ours.streams.length === 0) continue;
    for (const other of others) {
      const theirPrefix = other.properties[key];
      // a pipeline whose prefix is not decided yet (a draft) gets one of its own when it is saved to run
      if (!other.data_components.includes(loader) || typeof theirPrefix !== 'string') continue;
      const theirExtractors = other.data_components.flatMap((n) => workspaceComponents.filter((c) => c.name === n && c.plugin_type === 'EXTRACTOR').slice(0, 1));
      const tables = tablesInCommon(ours, { prefix: theirPrefix, streams: pipelineStreams(theirExtractors, other.properties) });
      if (tables.length > 0) {
        errors[`properties.${key}`] = TABLE_PREFIX_MESSAGES.sharedTables(other.name, tables);
        break;
      }
    }
  }
  return errors;
}
