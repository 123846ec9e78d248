// The script a pipeline job runs (spec 001 §5): the pipeline's own script when it has one;
// otherwise its actions; otherwise the default actions of its components. One action is invoked
// alone, several run in order with the pipeline's id as state-id suffix (so each pipeline keeps
// its own incremental state); nothing at all falls back to an echo of hello world.

export interface ScriptComponent {
  name: string;
  /** a PluginType (resources.ts); left open so unknown types from a discovery file pass through */
  pluginType: string;
  /** the plugin's own name (dbt may be installed as a component named otherwise) */
  pluginName?: string | undefined;
}

export const FALLBACK_SCRIPT = 'echo "hello world"';

const SAFE_WORD = /^[A-Za-z0-9_.:@%+=,/-]+$/;

/** Quotes a word for bash; safe words stay readable. */
export function shellQuote(word: string): string {
  if (word.length > 0 && SAFE_WORD.test(word)) return word;
  return `'${word.replace(/\u0000/g, '').replace(/'/g, `'\\''`)}'`;
}

function isDbt(component: ScriptComponent): boolean {
  const plugin = (component.pluginName ?? component.name).toLowerCase();
  return component.pluginType === 'TRANSFORMER' && (plugin === 'dbt' || plugin.startsWith('dbt-'));
}

/** Extractors, then loaders, then dbt:deps and dbt:run when dbt is among the components. */
export function defaultActions(components: readonly ScriptComponent[]): string[] {
  const extractors = components.filter((c) => c.pluginType === 'EXTRACTOR').map((c) => c.name);
  const loaders = components.filter((c) => c.pluginType === 'LOADER').map((c) => c.name);
  const dbt = components.find(isDbt);
  return [...extractors, ...loaders, ...(dbt ? [`${dbt.name}:deps`, `${dbt.name}:run`] : [])];
}

export function scriptForActions(actions: readonly string[], pipelineId: string): string {
  const words = actions.map((a) => a.trim()).filter((a) => a.length > 0);
  if (words.length === 0) return FALLBACK_SCRIPT;
  if (words.length === 1) return `meltano invoke ${shellQuote(words[0]!)}`;
  return `meltano run --state-id-suffix ${shellQuote(pipelineId)} ${words.map(shellQuote).join(' ')}`;
}

interface ScriptSource {
  id: string;
  script?: string | null | undefined;
  actions?: readonly string[] | null | undefined;
  components: readonly ScriptComponent[];
}

export function pipelineScript(pipeline: ScriptSource): string {
  if (pipeline.script && pipeline.script.trim().length > 0) return pipeline.script;
  const actions = pipeline.actions && pipeline.actions.length > 0 ? pipeline.actions : defaultActions(pipeline.components);
  return scriptForActions(actions, pipeline.id);
}

/** Meltano's state id of an extractor→loader run, suffixed per pipeline. */
export function stateIdOf(extractor: string, loader: string, suffix?: string): string {
  const base = `${extractor}-to-${loader}`;
  return suffix ? `${base}:${suffix}` : base;
}

/**
 * The 'verify pipeline' job: each extractor runs its discovery (which proves its settings and
 * connection), and the catalog it prints goes to `record-catalog`, which keeps its streams for the
 * pipeline editor; with no extractor there is nothing to verify.
 */
export function verifyScript(components: readonly ScriptComponent[]): string {
  const extractors = components.filter((c) => c.pluginType === 'EXTRACTOR');
  if (extractors.length === 0) return 'echo "Nothing to verify: the pipeline has no extractor."';
  return [
    'set -eo pipefail',
    // one command per line: set -e ignores a failure on the left of `&&`, which would let a later extractor's success hide it
    ...extractors.flatMap((c) => [`meltano invoke ${shellQuote(c.name)} --discover | record-catalog ${shellQuote(c.name)}`, `echo ${shellQuote(`${c.name}: settings and connection verified`)}`]),
  ].join('\n');
}
