import type { LineageKind } from './lineage';
import { LINEAGE_STATUS_TEXT, type DatasetLineage, type LineageColumn, type LineageStatus } from './lineageResources';

// The dataset page's lineage list (issue 41): each column followed back, one source at a time, to
// the store table column, the pipeline run that loaded the table and the source it extracted. Pure:
// the lineage resource in, the lines a list shows out.

export const LINEAGE_TEXTS = {
  heading: 'Lineage',
  columns: 'Columns',
  dashboards: 'Shown on',
  noSources: 'Reads no table column (a constant or a count of rows).',
  unresolved: (reference: string) => `${reference} could not be traced to one table`,
  notLoaded: 'No pipeline run has loaded this table.',
  refused: (message: string) => `The query could not be read: ${message}`,
  builtBy: (model: string, inputs: readonly string[]) => `Built by the dbt model ${model}${inputs.length > 0 ? ` from ${inputs.join(', ')}` : ''}`,
  /** the run line's words: a model's table was made by a run of the pipeline, a loaded one loaded by it */
  ranBy: (model: boolean) => (model ? 'Run by the pipeline' : 'Loaded by the pipeline'),
} as const;

export const LINEAGE_KIND_TEXT: Readonly<Record<LineageKind, string>> = {
  direct: 'Copied',
  transformation: 'Transformed',
  aggregation: 'Aggregated',
};

/** One step back from a column: a table column, and what loaded that table. */
export interface SourceTrail {
  /** 'orders.amount' */
  reference: string;
  kind: string;
  status: LineageStatus;
  statusText: string;
  /** 'Demo shop', or null when no run of a pipeline loaded it */
  pipeline: string | null;
  /** the run that loaded the table: its status and when it ended */
  run: { status: string; ended: string | null } | null;
  /** the pipeline's latest finished run, when it is not that one (it failed after, say) */
  latestRun: { status: string; ended: string | null } | null;
  stream: string | null;
  /** the extractors the pipeline reads from: 'tap-github (github)' */
  sources: string[];
  /** the dbt model that built the table, and one line for each table it read */
  model: { text: string; inputs: string[] } | null;
}

/** One line for a model's input table: what made it ('counts: loaded by the pipeline Demo, stream counts'). */
export function inputLine(lineage: Pick<DatasetLineage, 'tables'>, name: string): string {
  const table = lineage.tables.find((t) => t.name === name);
  if (!table) return `${name}: ${LINEAGE_STATUS_TEXT.missing}`;
  if (table.model) return `${name}: ${LINEAGE_TEXTS.builtBy(table.model.name, table.model.inputs).replace(/^B/, 'b')} (${LINEAGE_STATUS_TEXT[table.status]})`;
  if (!table.pipeline) return `${name}: ${LINEAGE_STATUS_TEXT[table.status]}`;
  return `${name}: loaded by the pipeline ${table.pipeline.name}${table.stream ? `, stream ${table.stream}` : ''} (${LINEAGE_STATUS_TEXT[table.status]})`;
}

/** The trail of each source of a column, in the column's order. */
export function sourceTrails(lineage: Pick<DatasetLineage, 'tables'>, column: Pick<LineageColumn, 'sources'>): SourceTrail[] {
  return column.sources.map((source) => {
    const table = lineage.tables.find((t) => t.name === source.table);
    const status = table?.status ?? 'missing';
    const run = table?.loadedBy ? { status: table.loadedBy.status, ended: table.loadedBy.endTime ?? table.loaded ?? null } : null;
    const latest = table?.latestRun && table.latestRun.id !== table.loadedBy?.id ? { status: table.latestRun.status, ended: table.latestRun.endTime ?? null } : null;
    return {
      reference: `${source.table}.${source.column}`,
      kind: LINEAGE_KIND_TEXT[source.kind],
      status,
      statusText: LINEAGE_STATUS_TEXT[status],
      pipeline: table?.pipeline?.name ?? null,
      run,
      latestRun: latest,
      stream: table?.stream ?? null,
      sources: (table?.extractors ?? []).map((e) => (e.name === e.plugin ? e.plugin : `${e.plugin} (${e.name})`)),
      model: table?.model ? { text: LINEAGE_TEXTS.builtBy(table.model.name, table.model.inputs), inputs: table.model.inputs.map((input) => inputLine(lineage, input)) } : null,
    };
  });
}

/** A column's one-line summary: 'Aggregated from orders.amount', 'Copied from customers.name and 1 more'. */
export function columnSummary(column: Pick<LineageColumn, 'kind' | 'sources' | 'unresolved'>): string {
  const [first, ...rest] = column.sources;
  if (first === undefined) return column.unresolved.length > 0 ? LINEAGE_TEXTS.unresolved(column.unresolved.join(', ')) : LINEAGE_TEXTS.noSources;
  const kind = LINEAGE_KIND_TEXT[column.kind ?? first.kind];
  const more = rest.length === 0 ? '' : ` and ${rest.length} more`;
  return `${kind} from ${first.table}.${first.column}${more}`;
}
