// A pipeline's impact in words (issue 41, "Impact before change"): the datasets and dashboards
// that read the tables its runs feed, as a failed run's alert names them and as a warning before
// a change that would cut them off asks about them. The list itself comes from the lineage
// service (server/services/lineage.ts); this only decides when it matters and how it reads.

import { SELECT_ALL, selectionOf, selectRulesOf } from './streamSelection';

/** What reads a pipeline's tables downstream, by name. */
export interface Impact {
  readonly datasets: readonly string[];
  readonly dashboards: readonly string[];
}

/**
 * Whether a change to the pipeline needs a second look: something reads its tables. Tables alone
 * (loaded but read by no dataset) are not worth the friction: nothing a person sees breaks.
 */
export function hasDownstream(impact: Impact): boolean {
  return impact.datasets.length > 0 || impact.dashboards.length > 0;
}

const named = (one: string, many: string, names: readonly string[]): string => `${names.length === 1 ? one : many} ${names.join(', ')}`;

/**
 * The sentence an alert ends with: 'Affected: datasets Orders by day, Customers; dashboard Shop.'
 * Empty when nothing is downstream, so a caller can append it as it is.
 */
export function impactSentence(impact: Impact): string {
  const parts = [
    ...(impact.datasets.length > 0 ? [named('dataset', 'datasets', impact.datasets)] : []),
    ...(impact.dashboards.length > 0 ? [named('dashboard', 'dashboards', impact.dashboards)] : []),
  ];
  return parts.length === 0 ? '' : `Affected: ${parts.join('; ')}.`;
}

/** `message` followed by the impact sentence, one space apart; `message` alone when nothing is downstream. */
export function withImpact(message: string, impact: Impact): string {
  const sentence = impactSentence(impact);
  return sentence === '' ? message : `${message} ${sentence}`;
}

/** The names a pipeline's lineage resource lists downstream (GET /api/pipelines/{id}/lineage). */
export function impactOf(lineage: { readonly datasets: readonly { readonly title: string }[]; readonly dashboards: readonly { readonly title: string }[] }): Impact {
  return { datasets: lineage.datasets.map((d) => d.title), dashboards: lineage.dashboards.map((d) => d.title) };
}

/** What the delete dialog says and its button reads, with and without something downstream. */
export const IMPACT_TEXTS = {
  deleteWarning: 'Its runs feed these. Deleting it stops their refreshes:',
  deleteAnyway: 'Delete anyway',
  delete: 'Delete',
  saveAnyway: 'Save anyway',
  reading: 'Reading what this pipeline feeds',
} as const;

/** A pipeline's values a save compares: its name and its properties (`{loader}.table_prefix`, `{extractor}._select`). */
interface PipelineValues {
  readonly name?: string | null | undefined;
  readonly properties?: Readonly<Record<string, unknown>> | null | undefined;
}

const PREFIX_SUFFIX = '.table_prefix';
const SELECT_SUFFIX = '._select';

const changedKeys = (before: PipelineValues, after: PipelineValues, suffix: string): string[] => {
  const keys = new Set([...Object.keys(before.properties ?? {}), ...Object.keys(after.properties ?? {})].filter((k) => k.endsWith(suffix)));
  return [...keys].filter((k) => JSON.stringify(before.properties?.[k] ?? null) !== JSON.stringify(after.properties?.[k] ?? null)).sort();
};

/**
 * Whether a save may cut something off downstream, before the impact is read: the name, a table
 * prefix or a stream selection changed. Anything else (a schedule, a setting) saves without asking.
 */
export function mayCutOff(before: PipelineValues, after: PipelineValues): boolean {
  return (before.name ?? '').trim() !== (after.name ?? '').trim() || changedKeys(before, after, PREFIX_SUFFIX).length > 0 || changedKeys(before, after, SELECT_SUFFIX).length > 0;
}

/**
 * What a save changes that reaches the tables its runs feed, in words ('renames the pipeline',
 * 'changes its table prefix', 'deselects the streams orders, customers'), given the streams those
 * tables hold. A stream counts only if the `select` rules chose it before and do not now (read as
 * a run reads them, streamSelection.ts; no rules select everything).
 */
export function cutOffChanges(before: PipelineValues, after: PipelineValues, fedStreams: readonly string[]): string[] {
  const changes: string[] = [];
  if ((before.name ?? '').trim() !== (after.name ?? '').trim()) changes.push('renames the pipeline');
  if (changedKeys(before, after, PREFIX_SUFFIX).length > 0) changes.push('changes its table prefix');
  const dropped = new Set<string>();
  for (const key of changedKeys(before, after, SELECT_SUFFIX)) {
    const was = selectionOf(selectRulesOf(before.properties?.[key]) ?? SELECT_ALL);
    const now = selectionOf(selectRulesOf(after.properties?.[key]) ?? SELECT_ALL);
    for (const stream of fedStreams) if (was.stream(stream) && !now.stream(stream)) dropped.add(stream);
  }
  if (dropped.size > 0) changes.push(`deselects ${dropped.size === 1 ? 'the stream' : 'the streams'} ${[...dropped].sort().join(', ')}`);
  return changes;
}

/** The question's title: 'This save renames the pipeline and changes its table prefix. Its runs feed these:'. */
export function saveWarningTitle(changes: readonly string[]): string {
  const said = changes.length <= 1 ? (changes[0] ?? '') : `${changes.slice(0, -1).join(', ')} and ${changes.at(-1)!}`;
  return `This save ${said}. Its runs feed these:`;
}
