// A pipeline's impact in words (issue 41, "Impact before change"): the datasets and dashboards
// that read the tables its runs feed, as a failed run's alert names them and as a warning before
// a change that would cut them off asks about them. The list itself comes from the lineage
// service (server/services/lineage.ts); this only decides when it matters and how it reads.

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
  saveWarning: (changes: string) => `${changes}: what reads its tables by their present names will stop being refreshed:`,
  saveAnyway: 'Save anyway',
  reading: 'Reading what this pipeline feeds',
} as const;
