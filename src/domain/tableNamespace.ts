// Where a pipeline's loader writes (issue 20): every pipeline has a table prefix of its own, named
// from the pipeline when it is created, so two pipelines of the same extractor never write the same
// tables unless someone says they should. The prefix is a setting of the loader on the pipeline
// (`target-store.table_prefix`), editable like any other; an empty prefix writes the bare stream
// names (pipelines older than prefixes keep writing where they did). Pure: the server's save rule
// and the SPA's form share it.

/** The loader setting that holds the prefix (target-store and target-postgres). */
export const TABLE_PREFIX_SETTING = 'table_prefix';

export const MAX_TABLE_PREFIX = 30;

export const TABLE_PREFIX_MESSAGES = {
  invalid: `must be lower-case letters, digits and '_', starting with a letter or '_', at most ${MAX_TABLE_PREFIX} characters`,
  shared: (pipeline: string, prefix: string) =>
    `Pipeline '${pipeline}' already loads the same data into ${prefix === '' ? 'unprefixed tables' : `tables starting with '${prefix}'`}: a run of either would overwrite the other's rows. ${SHARE_QUESTION}`,
  /** another extractor whose streams land in the same tables (the tables named, a few at most) */
  sharedTables: (pipeline: string, tables: readonly string[]) =>
    `Pipeline '${pipeline}' already loads into ${tableList(tables)}, from another extractor: a run of either would overwrite the other's rows. ${SHARE_QUESTION}`,
} as const;

const SHOWN_TABLES = 5;

function tableList(tables: readonly string[]): string {
  const shown = tables.slice(0, SHOWN_TABLES).map((t) => `'${t}'`);
  const more = tables.length - shown.length;
  if (more > 0) return `the tables ${shown.join(', ')} and ${more} more`;
  if (shown.length === 1) return `the table ${shown[0]}`;
  return `the tables ${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

const SHARE_QUESTION = 'Choose another prefix, or confirm that they share these tables.';

/** The field whose error asks the person to confirm sharing tables (what the form turns into a question), if any. */
export function sharedTablesField(fieldErrors: Readonly<Record<string, string>>): string | undefined {
  return Object.keys(fieldErrors).find((field) => field.endsWith(`.${TABLE_PREFIX_SETTING}`) && fieldErrors[field]!.endsWith(SHARE_QUESTION));
}

const PREFIX = new RegExp(`^(?:[a-z_][a-z0-9_]{0,${MAX_TABLE_PREFIX - 1}})?$`);

/** Why a prefix cannot be used, or undefined when it can (the empty prefix included). */
export function tablePrefixError(value: unknown): string | undefined {
  return typeof value === 'string' && PREFIX.test(value) ? undefined : TABLE_PREFIX_MESSAGES.invalid;
}

/**
 * The prefix a new pipeline gets: its name folded to an identifier and '_', numbered when another
 * pipeline of the same loader has it already. Never empty and never one of `taken`.
 */
export function defaultTablePrefix(pipelineName: string, taken: readonly string[]): string {
  let base = pipelineName
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (base === '') base = 'pipeline';
  if (/^[0-9]/.test(base)) base = `p${base}`;
  base = base.slice(0, MAX_TABLE_PREFIX - 5).replace(/_+$/, '');
  const used = new Set(taken);
  let prefix = `${base}_`;
  for (let n = 2; used.has(prefix); n++) prefix = `${base}_${n}_`;
  return prefix;
}

/** What the save rule knows of a pipeline's destination. */
export interface PipelineDestination {
  name: string;
  /** the loader component it loads with ('target-store') */
  loader: string;
  prefix: string;
  /** its extractor components: the same one gives the same streams, so the same table names */
  extractors: readonly string[];
}

/**
 * The other pipelines whose runs would write the same tables as `pipeline`: the same loader, the
 * same prefix and an extractor in common.
 */
export function pipelinesSharingTables(pipeline: PipelineDestination, others: readonly PipelineDestination[]): PipelineDestination[] {
  return others.filter((o) => o.loader === pipeline.loader && o.prefix === pipeline.prefix && o.extractors.some((e) => pipeline.extractors.includes(e)));
}
