import { hasLink, type HalLike } from './hal';
import { EMPTY_DATASET_FORM, type DatasetFormValues } from './datasetEditor';
import { REL } from './relations';
import type { StoreTable } from './resources';
import { pathTo } from './routes';
import { sqlName } from './sqlCompletion';

// Loaded data one click away (issue 38): from a store's card, a completed run or onboarding's first
// run to the store's tables (the store browser on the store's page, one table opened), and from a
// loaded table to a first chart (the dataset editor on that table). Pure: resources in, paths out.
// A way is offered only where the server offers the store's 'tables' link.

export const LOADED_DATA_TEXTS = {
  viewTables: 'View tables',
  firstChart: 'Build your first chart',
  /** the embedded store's page: why there is nothing to edit */
  embeddedStore:
    "This is the workspace's own embedded store. Pipelines that load with target-store write their tables here, and dataset SQL reads them. It has no settings to change and cannot be renamed or deleted.",
  /** a store the caller may not change */
  readOnlyStore: 'This store cannot be changed from your account: saving a store checks its connection in a job, and an account runs no job until its email address is verified.',
} as const;

type StoreLike = HalLike & { readonly id?: string | null | undefined };
type PipelineLike = HalLike & { readonly _embedded?: { readonly datastore?: StoreLike | null | undefined } | null | undefined };

/** The store's page with its tables (one opened when `table` is given), or null when the store offers no tables. */
export function storeTablesPath(workspaceId: string, store: StoreLike | null | undefined, table?: string | null): string | null {
  if (!store?.id || !hasLink(store, REL.tables)) return null;
  return pathTo('datastore', { workspaceId, datastoreId: store.id }, table ? { table } : {});
}

/** Where a pipeline's run loaded: the tables of the store it names (its embedded datastore). */
export function pipelineTablesPath(workspaceId: string, pipeline: PipelineLike, table?: string | null): string | null {
  return storeTablesPath(workspaceId, pipeline._embedded?.datastore, table);
}

/** Whether a job's status is a completed run, the one whose tables are worth opening. */
export const isCompletedRun = (job: { readonly status?: string | null } | null | undefined): boolean => job?.status === 'COMPLETE';

/**
 * The tables a run loaded, biggest first: those whose last load was that job, else (the job is not
 * recorded on the load) those the pipeline loaded last.
 */
export function tablesLoadedBy(tables: readonly StoreTable[], run: { readonly pipelineId: string; readonly jobId?: string | null }): StoreTable[] {
  const byJob = run.jobId ? tables.filter((t) => t.lastLoad?.jobId === run.jobId) : [];
  const loaded = byJob.length > 0 ? byJob : tables.filter((t) => t.lastLoad?.pipelineId === run.pipelineId);
  return [...loaded].sort((a, b) => (b.rows ?? -1) - (a.rows ?? -1) || a.name.localeCompare(b.name));
}

/** The dataset editor, new, started on a table. */
export function firstChartPath(workspaceId: string, table: string): string {
  return pathTo('labDatasets', { workspaceId }, { edit: 'new', table });
}

/** A table's name as a title: words, the first one capitalised ('web_sessions' → 'Web sessions'). */
export function tableTitle(table: string): string {
  const words = table.replace(/[_\-.]+/g, ' ').trim().replace(/\s+/g, ' ');
  if (words === '') return table;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The rows a table's first query reads: enough to chart, few enough to read. */
const FIRST_QUERY_ROWS = 100;

const TEXT_TYPES = new Set(['text', 'character varying', 'character', 'varchar', 'char', 'citext']);
/** Columns that name one row each (ids, keys, addresses, names): a chart of them has one bar per row. */
const ONE_PER_ROW = /(^|_)(id|uuid|guid|key|hash|email|name|url|token|code)$/i;

/** The column a first chart counts rows by: the first text column that groups rows rather than naming each. */
function groupingColumn(columns: readonly { readonly name: string; readonly type: string }[]): string | null {
  return columns.find((c) => TEXT_TYPES.has(c.type.toLowerCase()) && !ONE_PER_ROW.test(c.name))?.name ?? null;
}

/** The most bars a first chart draws. */
const FIRST_CHART_BARS = 20;

/**
 * A new dataset's form started on a table: rows counted by its first grouping column, most first
 * ('Web sessions by source'), or, with no such column, its first rows.
 */
export function datasetFormForTable(table: string | { readonly name: string; readonly columns?: readonly { readonly name: string; readonly type: string }[] }): DatasetFormValues {
  const name = typeof table === 'string' ? table : table.name;
  const group = typeof table === 'string' ? null : groupingColumn(table.columns ?? []);
  if (group === null) return { ...EMPTY_DATASET_FORM, title: tableTitle(name), query: `SELECT * FROM ${sqlName(name)} LIMIT ${String(FIRST_QUERY_ROWS)}` };
  const column = sqlName(group);
  return {
    ...EMPTY_DATASET_FORM,
    title: `${tableTitle(name)} by ${group.replace(/[_\-.]+/g, ' ').trim() || group}`,
    query: `SELECT ${column}, count(*) AS row_count FROM ${sqlName(name)} GROUP BY ${column} ORDER BY row_count DESC, ${column} LIMIT ${String(FIRST_CHART_BARS)}`,
  };
}

type RunLike = { readonly status?: string | null; readonly rowsByStream?: Readonly<Record<string, number>> | null | undefined };

/** The stream a run loaded most rows of: the table its 'View tables' opens (a stream's table bears its name unless the pipeline prefixes it, and then nothing opens). */
export function biggestStream(job: RunLike): string | null {
  const entries = Object.entries(job.rowsByStream ?? {}).filter(([, rows]) => Number.isFinite(rows));
  entries.sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return entries[0]?.[0] ?? null;
}

/** Where a completed run's 'View tables' leads: its pipeline's store, on the table it loaded most; null for any other run or a store without tables. */
export function runTablesPath(workspaceId: string, pipeline: PipelineLike, job: RunLike | null | undefined): string | null {
  if (!job || !isCompletedRun(job)) return null;
  return pipelineTablesPath(workspaceId, pipeline, biggestStream(job));
}

/**
 * The table a link names: that name, else (a stream's name behind the pipeline's table prefix,
 * as a run's rows name it) the shortest table ending in `_{name}`.
 */
export function tableNamed<T extends { readonly name: string }>(tables: readonly T[], name: string): T | undefined {
  const exact = tables.find((t) => t.name === name);
  if (exact !== undefined) return exact;
  return tables.filter((t) => t.name.endsWith(`_${name}`)).sort((a, b) => a.name.length - b.name.length || a.name.localeCompare(b.name))[0];
}
