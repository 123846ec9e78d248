import { parseBlocks } from '../../src/domain/dashboard/blocks';
import { columnLineage, type LineageKind, type QueryLineage } from '../../src/domain/lineage';
import { tableStatus, upstreamStatuses, worstStatus, type LineageStatus } from '../../src/domain/lineageResources';
import type { Db } from '../db/database';
import { listDataComponents, type DataComponentRow } from '../repositories/dataComponents';
import { componentsNamed } from '../repositories/pipelineFacts';
import { datasetsWithQuery, loadsIn, pipelinesWithLatestRun, type LoadRow, type PipelineRunRow, type RunRow } from '../repositories/lineage';
import { modelsIn, type ModelRow } from '../repositories/storeModels';
import { checkQuery, QueryRefused } from '../stores/queryGuard';
import { parse } from '../stores/sqlParser';
import { storeColumnsOf } from '../stores/storeColumns';
import { tableNameOf } from '../stores/tableShape';

// Lineage (issue 41), one use case per resource: a dataset's (its columns ← the store columns they
// read ← the run and stream that loaded each table ← the pipeline's extractors, and the dashboards
// that show it), a pipeline's (the tables its runs feed, the datasets reading them, the dashboards
// showing those) and a store table's (what loaded it, and the same downstream as a pipeline's).
// Everything is read within the resource's own workspace: a table is looked up only in that
// workspace's store schema and its loads only in its records, so a query naming a table another
// workspace has finds nothing ('missing'), never theirs.

export interface TableNode {
  name: string;
  exists: boolean;
  columns: string[];
  status: LineageStatus;
  load: LoadRow | undefined;
  pipeline: PipelineRunRow | undefined;
  stream: string | null;
  extractors: DataComponentRow[];
  /** the dbt model that last built it, when that is more recent than any load (then `load` is undefined and `pipeline` is the model's) */
  model: ModelRow | undefined;
  /** not read by the query: a model's input, upstream of a table it reads */
  upstream?: boolean;
}

/** How far upstream a model's inputs are followed, and how many tables at most: a manifest is a stranger's. */
const MAX_UPSTREAM_ROUNDS = 8;
const MAX_UPSTREAM_TABLES = 200;

export type ColumnNode = {
  name: string;
  kind: LineageKind | null;
  status: LineageStatus;
  sources: { table: string; column: string; kind: LineageKind }[];
  unresolved: string[];
};

export type DashboardNode = {
  title: string;
  status: LineageStatus;
  datasets: string[];
};

export interface DatasetLineageFacts {
  status: LineageStatus;
  refused: string | null;
  columns: ColumnNode[];
  tables: TableNode[];
  dashboards: DashboardNode[];
}

export interface DownstreamDataset {
  id: string;
  title: string;
  alias: string | null;
  status: LineageStatus;
  tables: string[];
}

export interface PipelineLineageFacts {
  pipeline: PipelineRunRow | undefined;
  status: LineageStatus;
  extractors: DataComponentRow[];
  tables: TableNode[];
  datasets: DownstreamDataset[];
  dashboards: DashboardNode[];
}

interface DatasetLike {
  id: string;
  alias: string | null;
  query: string | null;
}

interface WorkspaceLike {
  id: string;
  app_properties: Record<string, string> | string | null;
}

const extractorsOf = (pipeline: PipelineRunRow | undefined, components: readonly DataComponentRow[]) =>
  pipeline ? componentsNamed(components, pipeline.data_components).filter((c) => c.plugin_type === 'EXTRACTOR') : [];

/** The stream a table holds: the loading job's stream whose table (behind the pipeline's prefix) it is, else its name less the prefix. */
function streamOf(table: string, pipeline: PipelineRunRow | undefined, components: readonly DataComponentRow[], job: LoadRow['job']): string | null {
  if (!pipeline) return null;
  const loaders = componentsNamed(components, pipeline.data_components).filter((c) => c.plugin_type === 'LOADER');
  const prefixes = loaders.map((l) => pipeline.properties[`${l.name}.table_prefix`]).filter((p): p is string => typeof p === 'string');
  if (prefixes.length === 0) prefixes.push('');
  const streams = Object.keys(job?.rows_by_stream ?? {});
  for (const prefix of prefixes) {
    const stream = streams.find((s) => tableNameOf(s, prefix) === table);
    if (stream !== undefined) return stream;
  }
  const prefix = prefixes.find((p) => p !== '' && table.startsWith(p));
  return prefix === undefined ? table : table.slice(prefix.length);
}

/** What lineage knows of these store tables of the workspace. */
async function tableNodes(db: Db, workspaceId: string, tables: readonly string[], now: Date, known?: ReadonlyMap<string, string[]>): Promise<TableNode[]> {
  if (tables.length === 0) return [];
  const [columns, loads, models, components] = await Promise.all([
    known ?? storeColumnsOf(db, workspaceId, tables),
    loadsIn(db, workspaceId, { tables }),
    modelsIn(db, workspaceId, tables),
    listDataComponents(db, workspaceId),
  ]);
  const pipelineIds = [...new Set([...loads, ...models].map((l) => l.pipeline_id).filter((id): id is string => id !== null))];
  const pipelines = await pipelinesWithLatestRun(db, workspaceId, pipelineIds);
  const loadOf = new Map(loads.map((l) => [l.table_name, l]));
  const modelOf = new Map(models.map((m) => [m.table_name, m]));
  return tables.map((name) => {
    const known = columns.get(name);
    const loaded = loadOf.get(name);
    const built = modelOf.get(name);
    // whichever made the table last is what it holds: a model rebuilding a loaded table replaces its rows
    const model = built && (!loaded || new Date(built.built_at).getTime() >= new Date(loaded.loaded).getTime()) ? built : undefined;
    const load = model ? undefined : loaded;
    const pipelineId = model ? model.pipeline_id : load?.pipeline_id;
    const pipeline = pipelineId ? pipelines.get(pipelineId) : undefined;
    const when = model ? model.built_at : load?.loaded;
    const status = tableStatus(
      { exists: known !== undefined, loaded: when !== undefined ? new Date(when) : null, lastRunFailed: pipeline?.latest?.status === 'ERROR', schedule: pipeline?.schedule ?? null },
      now,
    );
    return {
      name,
      exists: known !== undefined,
      columns: known ?? [],
      status,
      load,
      pipeline,
      stream: load ? streamOf(name, pipeline, components, load.job) : null,
      // a model's table comes from its inputs, not from the pipeline's extractors
      extractors: model ? [] : extractorsOf(pipeline, components),
      model,
    };
  });
}

/**
 * The tables upstream of these through dbt models' inputs (followed a bounded number of rounds),
 * and each table's status made at least as bad as everything upstream of it.
 */
async function withUpstream(db: Db, workspaceId: string, nodes: readonly TableNode[], now: Date): Promise<{ tables: TableNode[]; upstream: TableNode[] }> {
  const all = new Map(nodes.map((n) => [n.name, n]));
  const unseen = (from: Iterable<TableNode>) => [...new Set([...from].flatMap((n) => n.model?.inputs ?? []))].filter((name) => !all.has(name)).sort();
  let frontier = unseen(nodes);
  for (let round = 0; frontier.length > 0 && round < MAX_UPSTREAM_ROUNDS && all.size < MAX_UPSTREAM_TABLES; round++) {
    const found = await tableNodes(db, workspaceId, frontier.slice(0, MAX_UPSTREAM_TABLES - all.size), now);
    for (const node of found) all.set(node.name, { ...node, upstream: true });
    frontier = unseen(found);
  }
  // an input not followed (past the bounds) is left out rather than taken for missing
  const statuses = upstreamStatuses([...all.values()].map((t) => ({ name: t.name, status: t.status, inputs: (t.model?.inputs ?? []).filter((i) => all.has(i)) })));
  const settled = [...all.values()].map((t) => ({ ...t, status: statuses.get(t.name) ?? t.status }));
  return { tables: settled.filter((t) => !t.upstream), upstream: settled.filter((t) => t.upstream) };
}

/** The dashboards (the workspace's DASHBOARD_CONTENT) that show any of these datasets, with the aliases shown. */
function dashboardsShowing(workspace: WorkspaceLike, datasets: readonly { id: string; alias: string | null; status: LineageStatus }[]): DashboardNode[] {
  const properties = propertiesOf(workspace.app_properties);
  const content = properties['DASHBOARD_CONTENT'];
  if (typeof content !== 'string' || content.trim() === '') return [];
  const shown = new Set(parseBlocks(content).flatMap((block) => (block.kind === 'dataset' ? [block.alias] : [])));
  const read = datasets.filter((d) => (d.alias !== null && shown.has(d.alias)) || shown.has(d.id));
  if (read.length === 0) return [];
  const title = properties['DASHBOARD_PAGE_TITLE']?.trim() || 'Dashboard';
  return [{ title, status: worstStatus(read.map((d) => d.status)), datasets: read.map((d) => d.alias ?? d.id) }];
}

function propertiesOf(value: WorkspaceLike['app_properties']): Record<string, string> {
  if (typeof value !== 'string') return value ?? {};
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The query's column lineage over the store's known columns, or the guard's refusal. */
export async function queryLineage(db: Db, workspaceId: string, query: string): Promise<{ lineage: QueryLineage; known: Map<string, string[]>; refused: null } | { lineage: undefined; refused: string }> {
  let text: string;
  let tables: string[];
  try {
    ({ text, tables } = await checkQuery(query));
  } catch (error) {
    if (error instanceof QueryRefused) return { lineage: undefined, refused: error.message };
    throw error;
  }
  const known = await storeColumnsOf(db, workspaceId, tables);
  const lineage = columnLineage(await parse(text), known);
  // the guard leaves out any name some CTE has; where lineage read such a name as a table, look again
  const unread = lineage.tables.filter((t) => !tables.includes(t));
  for (const [table, columns] of await storeColumnsOf(db, workspaceId, unread)) known.set(table, columns);
  return { lineage, known, refused: null };
}

export async function datasetLineage(db: Db, workspace: WorkspaceLike, dataset: DatasetLike, now: Date = new Date()): Promise<DatasetLineageFacts> {
  const read = dataset.query === null ? { lineage: { columns: [], tables: [] }, known: new Map<string, string[]>(), refused: null } : await queryLineage(db, workspace.id, dataset.query);
  if (read.lineage === undefined) {
    return { status: 'failed', refused: read.refused, columns: [], tables: [], dashboards: dashboardsShowing(workspace, [{ ...dataset, status: 'failed' }]) };
  }
  const { tables, upstream } = await withUpstream(db, workspace.id, await tableNodes(db, workspace.id, read.lineage.tables, now, read.known), now);
  const statusOf = new Map(tables.map((t) => [t.name, t.status]));
  const columns = read.lineage.columns.map((c) => ({
    name: c.name,
    kind: c.kind,
    status: worstStatus(c.sources.map((s) => statusOf.get(s.table) ?? 'missing')),
    sources: c.sources.map((s) => ({ ...s })),
    unresolved: [...c.unresolved],
  }));
  const status = worstStatus(tables.map((t) => t.status));
  return { status, refused: null, columns, tables: [...tables, ...upstream], dashboards: dashboardsShowing(workspace, [{ ...dataset, status }]) };
}

/** The tables a dataset's query reads, or none when the guard refuses it. */
async function tablesRead(query: string): Promise<string[]> {
  try {
    return (await checkQuery(query)).tables;
  } catch (error) {
    if (error instanceof QueryRefused) return [];
    throw error;
  }
}

/** What reads the tables `fed`: the datasets whose queries name any of them, their statuses over every table they read (another pipeline's failure marks them too), and the dashboards showing them. */
async function downstreamOf(db: Db, workspace: WorkspaceLike, fed: ReadonlySet<string>, now: Date): Promise<{ tables: TableNode[]; datasets: DownstreamDataset[]; dashboards: DashboardNode[] }> {
  const datasets = await datasetsWithQuery(db, workspace.id);
  const reading = (await Promise.all(datasets.map(async (d) => ({ ...d, tables: await tablesRead(d.query) })))).filter((d) => d.tables.some((t) => fed.has(t)));
  const upstream = [...new Set([...fed, ...reading.flatMap((d) => d.tables)])].sort();
  const { tables: nodes } = await withUpstream(db, workspace.id, await tableNodes(db, workspace.id, upstream, now), now);
  const statusOf = new Map(nodes.map((t) => [t.name, t.status]));
  const downstream = reading.map((d) => ({
    id: d.id,
    title: d.title,
    alias: d.alias,
    status: worstStatus(d.tables.map((t) => statusOf.get(t) ?? 'missing')),
    tables: d.tables.filter((t) => fed.has(t)),
  }));
  return { tables: nodes.filter((t) => fed.has(t.name)), datasets: downstream, dashboards: dashboardsShowing(workspace, downstream) };
}

export async function pipelineLineage(db: Db, workspace: WorkspaceLike, pipelineId: string, now: Date = new Date()): Promise<PipelineLineageFacts> {
  const [loads, components, pipelines] = await Promise.all([loadsIn(db, workspace.id, { pipelineId }), listDataComponents(db, workspace.id), pipelinesWithLatestRun(db, workspace.id, [pipelineId])]);
  const pipeline = pipelines.get(pipelineId);
  const { tables, datasets, dashboards } = await downstreamOf(db, workspace, new Set(loads.map((l) => l.table_name)), now);
  const runFailed: LineageStatus[] = pipeline?.latest?.status === 'ERROR' ? ['failed'] : [];
  return {
    pipeline,
    status: worstStatus([...runFailed, ...tables.map((t) => t.status)]),
    extractors: extractorsOf(pipeline, components),
    tables,
    datasets,
    dashboards,
  };
}

export interface TableLineageFacts {
  table: TableNode;
  datasets: DownstreamDataset[];
  dashboards: DashboardNode[];
}

/** A store table's lineage (the store browser): the run, stream and pipeline that loaded it, and what reads it; undefined when the workspace's store has no such table. */
export async function tableLineage(db: Db, workspace: WorkspaceLike, name: string, now: Date = new Date()): Promise<TableLineageFacts | undefined> {
  const { tables, datasets, dashboards } = await downstreamOf(db, workspace, new Set([name]), now);
  const table = tables.find((t) => t.name === name);
  return table?.exists ? { table, datasets, dashboards } : undefined;
}

export type { RunRow };
