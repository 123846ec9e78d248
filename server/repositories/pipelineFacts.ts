import { isComplete, type ComponentRule } from '../../src/domain/pipelineRules';
import type { Db } from '../db/database';
import { findCataloguePlugin } from '../plugins/catalogue';
import { listDataComponents, type DataComponentRow } from './dataComponents';
import { activeJobsOf, latestJobsOf, type JobRow } from './jobs';
import type { PipelineRow } from './pipelines';
import { subscriptionsAmong, type SubscriptionRow } from './subscriptions';

// What a pipeline's body and links need besides its own row, loaded for a whole page at once.

export interface PipelineFacts {
  components: DataComponentRow[];
  rules: ComponentRule[];
  /** every named component exists and every required setting has a value */
  complete: boolean;
  latestJob: JobRow | undefined;
  activeJobId: string | undefined;
  subscription: SubscriptionRow | undefined;
}

/** A component as the pipeline rules see it: its catalogue plugin's settings and its own properties. */
export function componentRule(component: DataComponentRow): ComponentRule {
  const plugin = findCataloguePlugin(component.plugin_type, component.plugin_name, component.variant);
  return { name: component.name, settings: plugin?.settings ?? [], properties: component.properties };
}

/** The components a pipeline names, in its order; a name no component has any more is left out. */
export function componentsNamed(all: readonly DataComponentRow[], names: readonly string[]): DataComponentRow[] {
  return names.flatMap((name) => all.filter((c) => c.name === name).slice(0, 1));
}

export async function pipelineFacts(db: Db, pipelines: readonly PipelineRow[], profileId: string): Promise<Map<string, PipelineFacts>> {
  const ids = pipelines.map((p) => p.id);
  const workspaceIds = [...new Set(pipelines.map((p) => p.workspace_id))];
  const componentLists = new Map(await Promise.all(workspaceIds.map(async (w) => [w, await listDataComponents(db, w)] as const)));
  const [latest, active, subscriptions] = await Promise.all([latestJobsOf(db, ids), activeJobsOf(db, ids), subscriptionsAmong(db, ids, profileId)]);
  const facts = new Map<string, PipelineFacts>();
  for (const pipeline of pipelines) {
    const components = componentsNamed(componentLists.get(pipeline.workspace_id) ?? [], pipeline.data_components);
    const rules = components.map(componentRule);
    facts.set(pipeline.id, {
      components,
      rules,
      // A component removed since the pipeline was saved leaves it incomplete, not silently smaller.
      complete: components.length === pipeline.data_components.length && isComplete(rules, pipeline.properties),
      latestJob: latest.get(pipeline.id),
      activeJobId: active.get(pipeline.id),
      subscription: subscriptions.get(pipeline.id),
    });
  }
  return facts;
}
