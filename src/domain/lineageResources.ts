import { z } from 'zod';
import { nextRunTimes } from './cron';
import { halResource } from './hal';
import { LINEAGE_KINDS } from './lineage';

// The lineage resources of the API (issue 41) and the rules that mark what is failed or stale.
// A dataset's 'lineage' link: its output columns ← the store columns they read; each table ← the
// pipeline run and stream that loaded it ← the pipeline's extractors; and the dashboards reading
// the dataset. A pipeline's 'lineage' link: the tables its runs feed, the datasets reading them and
// the dashboards reading those (its impact). Pure: the server and the SPA share it.

/**
 * How far a node can be trusted, worst first: 'failed' (the pipeline that loads it last ended in
 * ERROR), 'missing' (the query names a table the workspace's store does not have), 'stale' (a
 * scheduled run that should have refreshed it has not), 'unloaded' (no run of ours loaded it) and
 * 'fresh'. A node is at least as bad as anything upstream of it.
 */
export const LINEAGE_STATUSES = ['failed', 'missing', 'stale', 'unloaded', 'fresh'] as const;
export type LineageStatus = (typeof LINEAGE_STATUSES)[number];

/** The worst of some statuses (LINEAGE_STATUSES order); 'fresh' for none. */
export function worstStatus(statuses: Iterable<LineageStatus>): LineageStatus {
  let worst: LineageStatus = 'fresh';
  for (const status of statuses) if (LINEAGE_STATUSES.indexOf(status) < LINEAGE_STATUSES.indexOf(worst)) worst = status;
  return worst;
}

interface TableFacts {
  /** the workspace's store has the table */
  exists: boolean;
  /** when a run last loaded it; null when none did */
  loaded: Date | null;
  /** the latest finished run of the pipeline that loaded it ended in ERROR */
  lastRunFailed: boolean;
  /** that pipeline's schedule (6-field cron), null when it runs by hand */
  schedule: string | null;
}

/**
 * A table's status. Stale means two scheduled slots have passed since its last load: one may be
 * running now, a second is a run that was missed (or loaded nothing into this table).
 */
export function tableStatus(table: TableFacts, now: Date): LineageStatus {
  if (!table.exists) return 'missing';
  if (table.loaded === null) return 'unloaded';
  if (table.lastRunFailed) return 'failed';
  if (table.schedule) {
    const [, second] = nextRunTimes(table.schedule, 2, table.loaded);
    if (second !== undefined && second.getTime() < now.getTime()) return 'stale';
  }
  return 'fresh';
}

/**
 * The statuses of tables built from other tables (dbt models, `inputs`): each at least as bad as
 * every table upstream of it, however far, cycles included (a manifest is a stranger's). A name
 * not among the tables is 'missing'. Worsening only, over a finite order: it settles.
 */
export function upstreamStatuses(tables: readonly { name: string; status: LineageStatus; inputs: readonly string[] }[]): Map<string, LineageStatus> {
  const status = new Map(tables.map((t) => [t.name, t.status]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const t of tables) {
      const worse = worstStatus([status.get(t.name)!, ...t.inputs.map((i) => status.get(i) ?? 'missing')]);
      if (worse !== status.get(t.name)) {
        status.set(t.name, worse);
        changed = true;
      }
    }
  }
  return status;
}

/** The words the view shows for each status. */
export const LINEAGE_STATUS_TEXT: Readonly<Record<LineageStatus, string>> = {
  failed: 'Last run failed',
  missing: 'Table not found',
  stale: 'Stale',
  unloaded: 'Not loaded by a pipeline',
  fresh: 'Fresh',
};

const kindSchema = z.enum(LINEAGE_KINDS);
const statusSchema = z.enum(LINEAGE_STATUSES);

/** A run as lineage shows it. */
export const lineageRunSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  startTime: z.string().nullish(),
  endTime: z.string().nullish(),
});

/** Where a pipeline's data comes from: an extractor component and its plugin. */
export const lineageExtractorSchema = z.looseObject({
  name: z.string(),
  plugin: z.string(),
  variant: z.string().nullish(),
});

/** A table column an output column reads, and how. */
const lineageSourceSchema = z.looseObject({ table: z.string(), column: z.string(), kind: kindSchema });

export const lineageColumnSchema = z.looseObject({
  name: z.string(),
  /** the strongest kind of its sources; null when it reads none (a constant, count(*)) */
  kind: kindSchema.nullish(),
  /** the worst status of the tables it reads */
  status: statusSchema,
  sources: z.array(lineageSourceSchema),
  unresolved: z.array(z.string()),
});
export type LineageColumn = z.infer<typeof lineageColumnSchema>;

/** A store table as lineage shows it: the pipeline, stream and run that loaded it, and its source. */
export const lineageTableSchema = halResource({
  name: z.string(),
  status: statusSchema,
  /** the workspace's store has it */
  exists: z.boolean(),
  columns: z.array(z.string()),
  loaded: z.string().nullish(),
  rows: z.int().nullish(),
  /** the stream of the extractor the table holds */
  stream: z.string().nullish(),
  pipeline: z.looseObject({ id: z.string(), name: z.string() }).nullish(),
  /** the run that last loaded the table */
  loadedBy: lineageRunSchema.nullish(),
  /** the pipeline's latest finished run */
  latestRun: lineageRunSchema.nullish(),
  extractors: z.array(lineageExtractorSchema),
  /** the dbt model that built the table (then `pipeline` is the one whose run built it, and `loaded` when) */
  model: z
    .looseObject({
      name: z.string(),
      /** the store tables it read */
      inputs: z.array(z.string()),
      /** the run that built it */
      run: lineageRunSchema.nullish(),
    })
    .nullish(),
  /** not read by the query: upstream of a table it reads (a model's input) */
  upstream: z.boolean().optional(),
});
export type LineageTable = z.infer<typeof lineageTableSchema>;

/** A dashboard reading datasets (the workspace's DASHBOARD_CONTENT). */
export const lineageDashboardSchema = z.looseObject({
  title: z.string(),
  status: statusSchema,
  /** the aliases of the datasets it shows, of those the lineage is about */
  datasets: z.array(z.string()),
});
export type LineageDashboard = z.infer<typeof lineageDashboardSchema>;

/** A dataset's 'lineage' link. */
export const datasetLineageSchema = halResource({
  datasetId: z.string(),
  title: z.string(),
  status: statusSchema,
  /** why the query could not be read (the guard's refusal); null when it was */
  refused: z.string().nullish(),
  columns: z.array(lineageColumnSchema),
  tables: z.array(lineageTableSchema),
  dashboards: z.array(lineageDashboardSchema),
});
export type DatasetLineage = z.infer<typeof datasetLineageSchema>;

/** A dataset downstream of a pipeline. */
const lineageDatasetSchema = halResource({
  id: z.string(),
  title: z.string(),
  alias: z.string().nullish(),
  status: statusSchema,
  /** the tables of the pipeline it reads */
  tables: z.array(z.string()),
});

/** A pipeline's 'lineage' link: what its runs feed (its impact). */
export const pipelineLineageSchema = halResource({
  pipelineId: z.string(),
  name: z.string(),
  status: statusSchema,
  latestRun: lineageRunSchema.nullish(),
  extractors: z.array(lineageExtractorSchema),
  tables: z.array(lineageTableSchema),
  datasets: z.array(lineageDatasetSchema),
  dashboards: z.array(lineageDashboardSchema),
});
export type PipelineLineage = z.infer<typeof pipelineLineageSchema>;

/** A store table's 'lineage' link (the store browser): what loaded it, and what reads it. */
export const tableLineageSchema = halResource({
  name: z.string(),
  /** the table's own status (what reads it is at least as bad) */
  status: statusSchema,
  table: lineageTableSchema,
  datasets: z.array(lineageDatasetSchema),
  dashboards: z.array(lineageDashboardSchema),
});
export type TableLineage = z.infer<typeof tableLineageSchema>;
