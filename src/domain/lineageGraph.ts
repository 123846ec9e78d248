import type { ScreenSize } from './constants';
import { LINEAGE_KIND_TEXT } from './lineageView';
import { LINEAGE_STATUS_TEXT, type DatasetLineage, type LineageDashboard, type LineageStatus, type LineageTable, type TableLineage } from './lineageResources';

// The lineage graph (issue 41): source → pipeline → table → dataset → dashboard (a table a dbt
// model built: its input tables and its pipeline → the model → the table), with a column's
// own edges drawn when it is expanded, as nodes and edges (what the list view and the tests read)
// and as mermaid flowchart text (what the graph view draws). Pure: the lineage resource in.
//
// Every name is hostile input (a table called `a"] --> x` or `%%`): it never reaches the text
// as-is. Node ids are ours (s0, p0, t0…), every label is quoted and every character of it that is
// not a letter, digit or space is written as mermaid's numeric entity (#34;), which mermaid
// decodes only after parsing, so no name can end a label, start a statement or add a node.

type LineageNodeKind = 'source' | 'pipeline' | 'model' | 'table' | 'tableColumn' | 'column' | 'dataset' | 'dashboard';

export interface LineageGraphNode {
  /** ours, never a name: 's0', 'p1', 'm0', 't2', 'tc2_0', 'c3', 'd0', 'b0' */
  id: string;
  kind: LineageNodeKind;
  /** the entity's own name, as the resource spells it */
  name: string;
  /** what the node shows under its name: its run, stream, status in words */
  facts: string[];
  /** its own status; null for a source */
  status: LineageStatus | null;
  /** failed, missing or stale, or downstream of a node that is */
  marked: boolean;
  /** the resource the graph is about (the dataset, or the store browser's table) */
  focus: boolean;
}

export interface LineageGraphEdge {
  from: string;
  to: string;
  /** an expanded column's edge (drawn thick), with how the column reads its source */
  column: boolean;
  label: string | null;
}

export interface LineageGraph {
  nodes: LineageGraphNode[];
  edges: LineageGraphEdge[];
}

/** The statuses that mark a node and everything downstream of it. 'unloaded' (no run of ours loaded it) is no fault. */
const MARKING_STATUSES: readonly LineageStatus[] = ['failed', 'missing', 'stale'];

export const GRAPH_TEXTS = {
  kind: {
    source: 'Source',
    pipeline: 'Pipeline',
    model: 'dbt model',
    table: 'Table',
    tableColumn: 'Table column',
    column: 'Column',
    dataset: 'Dataset',
    dashboard: 'Dashboard',
  } satisfies Record<LineageNodeKind, string>,
  /** the word beside the colour of a marked node */
  marked: (status: LineageStatus | null) => (status !== null && MARKING_STATUSES.includes(status) ? `Marked: ${LINEAGE_STATUS_TEXT[status]}` : 'Marked: upstream failed or stale'),
  lastRun: (status: string) => `Last run: ${status.charAt(0)}${status.slice(1).toLowerCase()}`,
  noRun: 'No finished run',
  stream: (stream: string) => `Stream: ${stream}`,
} as const;

const runText = (status: string) => `${status.charAt(0)}${status.slice(1).toLowerCase()}`;

/** What the graph is built from: the dataset's lineage and the store browser's table lineage share it. */
interface GraphSource {
  tables: readonly LineageTable[];
  focusTable: string | null;
  datasets: readonly { key: string; title: string; status: LineageStatus; tables: readonly string[]; focus: boolean }[];
  dashboards: readonly LineageDashboard[];
  /** the dashboards' `datasets` name a dataset by this key */
  dashboardReads: (dashboard: LineageDashboard, datasetKey: string) => boolean;
  columns: readonly { name: string; sources: readonly { table: string; column: string; kind: keyof typeof LINEAGE_KIND_TEXT }[]; status: LineageStatus }[];
}

function buildGraph(source: GraphSource): LineageGraph {
  const nodes: LineageGraphNode[] = [];
  const edges: LineageGraphEdge[] = [];
  const node = (n: Omit<LineageGraphNode, 'marked'>) => {
    nodes.push({ ...n, marked: false });
    return n.id;
  };
  const edge = (from: string, to: string, column = false, label: string | null = null) => {
    if (!edges.some((e) => e.from === from && e.to === to && e.column === column)) edges.push({ from, to, column, label });
  };

  const sourceIds = new Map<string, string>();
  const pipelineIds = new Map<string, string>();
  const tableIds = new Map<string, string>();
  const modelIds: { id: string; inputs: readonly string[] }[] = [];
  for (const table of source.tables) {
    let pipelineId: string | null = null;
    if (table.pipeline) {
      // its sources first: the nodes run upstream to downstream, as the list view reads them
      const sourceIdsOfTable = table.extractors.map((extractor) => {
        const label = extractor.name === extractor.plugin ? extractor.plugin : `${extractor.plugin} (${extractor.name})`;
        let sourceId = sourceIds.get(label);
        if (sourceId === undefined) {
          sourceId = node({ id: `s${sourceIds.size}`, kind: 'source', name: label, facts: [], status: null, focus: false });
          sourceIds.set(label, sourceId);
        }
        return sourceId;
      });
      pipelineId = pipelineIds.get(table.pipeline.id) ?? null;
      if (pipelineId === null) {
        const latest = table.latestRun ?? table.loadedBy ?? null;
        pipelineId = node({
          id: `p${pipelineIds.size}`,
          kind: 'pipeline',
          name: table.pipeline.name,
          facts: [latest ? GRAPH_TEXTS.lastRun(latest.status) : GRAPH_TEXTS.noRun],
          status: latest?.status === 'ERROR' ? 'failed' : null,
          focus: false,
        });
        pipelineIds.set(table.pipeline.id, pipelineId);
      }
      for (const sourceId of sourceIdsOfTable) edge(sourceId, pipelineId);
    }
    const loadedBy = table.loadedBy ? [`Loaded by run: ${runText(table.loadedBy.status)}`] : [];
    const tableId = node({
      id: `t${tableIds.size}`,
      kind: 'table',
      name: table.name,
      facts: [...(table.stream ? [GRAPH_TEXTS.stream(table.stream)] : []), ...loadedBy, LINEAGE_STATUS_TEXT[table.status]],
      status: table.status,
      focus: table.name === source.focusTable,
    });
    tableIds.set(table.name, tableId);
    if (table.model) {
      // the pipeline ran the model, and the model made the table; its inputs are joined once every table has its node
      const modelId = node({ id: `m${modelIds.length}`, kind: 'model', name: table.model.name, facts: table.model.run ? [`Built by run: ${runText(table.model.run.status)}`] : [], status: null, focus: false });
      modelIds.push({ id: modelId, inputs: table.model.inputs });
      if (pipelineId !== null) edge(pipelineId, modelId);
      edge(modelId, tableId);
    } else if (pipelineId !== null) edge(pipelineId, tableId);
  }
  for (const model of modelIds) {
    for (const input of model.inputs) {
      const inputId = tableIds.get(input);
      if (inputId !== undefined) edge(inputId, model.id);
    }
  }

  const datasetIds = new Map<string, string>();
  for (const dataset of source.datasets) {
    const id = node({ id: `d${datasetIds.size}`, kind: 'dataset', name: dataset.title, facts: [LINEAGE_STATUS_TEXT[dataset.status]], status: dataset.status, focus: dataset.focus });
    datasetIds.set(dataset.key, id);
    for (const table of dataset.tables) {
      const tableId = tableIds.get(table);
      if (tableId !== undefined) edge(tableId, id);
    }
  }

  // an expanded column: its table columns, each from its table, into the column, into the dataset
  const focusDataset = source.datasets.find((d) => d.focus);
  source.columns.forEach((column, c) => {
    const columnId = node({ id: `c${c}`, kind: 'column', name: column.name, facts: [LINEAGE_STATUS_TEXT[column.status]], status: column.status, focus: false });
    column.sources.forEach((read, s) => {
      const tableId = tableIds.get(read.table);
      const tableColumnId = node({ id: `tc${c}_${s}`, kind: 'tableColumn', name: `${read.table}.${read.column}`, facts: [], status: null, focus: false });
      if (tableId !== undefined) edge(tableId, tableColumnId, true);
      edge(tableColumnId, columnId, true, LINEAGE_KIND_TEXT[read.kind]);
    });
    if (focusDataset) edge(columnId, datasetIds.get(focusDataset.key)!, true);
  });

  source.dashboards.forEach((dashboard, b) => {
    const id = node({ id: `b${b}`, kind: 'dashboard', name: dashboard.title, facts: [LINEAGE_STATUS_TEXT[dashboard.status]], status: dashboard.status, focus: false });
    for (const dataset of source.datasets) if (source.dashboardReads(dashboard, dataset.key)) edge(datasetIds.get(dataset.key)!, id);
  });

  markDownstream(nodes, edges);
  return { nodes, edges };
}

/** Marks each node that is failed, missing or stale, and everything reachable from it. */
function markDownstream(nodes: LineageGraphNode[], edges: readonly LineageGraphEdge[]): void {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pending = nodes.filter((n) => n.status !== null && MARKING_STATUSES.includes(n.status));
  for (const n of pending) n.marked = true;
  while (pending.length > 0) {
    const from = pending.pop()!;
    for (const e of edges) {
      const to = byId.get(e.to);
      if (e.from === from.id && to && !to.marked) {
        to.marked = true;
        pending.push(to);
      }
    }
  }
}

/** The dataset page's graph; `expanded` holds the indexes (in `lineage.columns`) of the columns whose edges are drawn. */
export function datasetLineageGraph(lineage: DatasetLineage, expanded: ReadonlySet<number> = new Set()): LineageGraph {
  // a model's inputs reach the dataset through the model's table, not directly
  const names = lineage.tables.filter((t) => !t.upstream).map((t) => t.name);
  return buildGraph({
    tables: lineage.tables,
    focusTable: null,
    datasets: [{ key: lineage.datasetId, title: lineage.title, status: lineage.status, tables: names, focus: true }],
    dashboards: lineage.dashboards,
    // a dataset's lineage lists only the dashboards that show it
    dashboardReads: () => true,
    columns: lineage.columns.filter((_, index) => expanded.has(index)),
  });
}

/** The store browser's graph of one table: what loaded it, and the datasets and dashboards reading it. */
export function tableLineageGraph(lineage: TableLineage): LineageGraph {
  return buildGraph({
    tables: [lineage.table],
    focusTable: lineage.table.name,
    datasets: lineage.datasets.map((d) => ({ key: d.alias ?? d.id, title: d.title, status: d.status, tables: [lineage.table.name], focus: false })),
    dashboards: lineage.dashboards,
    dashboardReads: (dashboard, key) => dashboard.datasets.includes(key),
    columns: [],
  });
}

/**
 * A label's text as mermaid reads it back: letters, digits and inner spaces as they are, every
 * other character as its numeric entity. A space at either end is an entity too: mermaid trims a
 * label's ends, so a name ending in a space would show without it.
 */
export function mermaidLabel(text: string): string {
  const chars = [...text];
  let out = '';
  chars.forEach((char, i) => {
    const plain = /^[A-Za-z0-9]$/.test(char) || (char === ' ' && i > 0 && i < chars.length - 1);
    out += plain ? char : `#${char.codePointAt(0)!};`;
  });
  return out;
}

/** The line break between a label's lines: mermaid's own, written by us between escaped lines, never from a name. */
export const MERMAID_LINE_BREAK = '<br/>';

/** The lines a node shows: its kind, its name, its facts, and the word that says it is marked. */
export function nodeLines(node: LineageGraphNode): string[] {
  return [GRAPH_TEXTS.kind[node.kind], node.name, ...node.facts, ...(node.marked ? [GRAPH_TEXTS.marked(node.status)] : [])];
}

/** The colours of the classes; the marked word is in the label as well (never colour alone). */
const CLASS_DEFS = [
  'classDef marked fill:#fde7e9,stroke:#c50f1f,stroke-width:3px,stroke-dasharray:6,color:#3b0509',
  'classDef focus stroke-width:3px',
  'classDef column fill:#ebf3fc,stroke:#0f6cbd',
];

/** The graph as mermaid flowchart text, left to right. */
export function mermaidText(graph: LineageGraph): string {
  const lines = ['flowchart LR'];
  for (const n of graph.nodes) {
    const label = nodeLines(n).map(mermaidLabel).join(MERMAID_LINE_BREAK);
    // a source and a dashboard are rounded, a table a cylinder: the shape says the kind too
    const [open, close] = n.kind === 'table' ? ['[(', ')]'] : n.kind === 'source' || n.kind === 'dashboard' ? ['(', ')'] : ['[', ']'];
    lines.push(`  ${n.id}${open}"${label}"${close}`);
  }
  for (const e of graph.edges) {
    const arrow = e.column ? '==>' : '-->';
    lines.push(e.label === null ? `  ${e.from} ${arrow} ${e.to}` : `  ${e.from} ${arrow}|"${mermaidLabel(e.label)}"| ${e.to}`);
  }
  lines.push(...CLASS_DEFS.map((d) => `  ${d}`));
  const classed = (pick: (n: LineageGraphNode) => boolean) => graph.nodes.filter(pick).map((n) => n.id);
  for (const [name, ids] of [
    ['column', classed((n) => n.kind === 'column' || n.kind === 'tableColumn')],
    ['focus', classed((n) => n.focus)],
    ['marked', classed((n) => n.marked)],
  ] as const) {
    if (ids.length > 0) lines.push(`  class ${ids.join(',')} ${name}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The lineage's two views: the graph, and the list that reads the same by keyboard and on a phone. */
export type LineageViewMode = 'graph' | 'list';

/** A phone starts on the list: a graph of a dozen nodes shrunk to 375 px cannot be read. */
export function defaultLineageView(size: ScreenSize): LineageViewMode {
  return size === 'small' ? 'list' : 'graph';
}

/** What the graph says to a screen reader: what it is of, and the nodes that are marked. */
export function graphSummary(graph: LineageGraph, of: string): string {
  const marked = graph.nodes.filter((n) => n.marked).map((n) => `${GRAPH_TEXTS.kind[n.kind].toLowerCase()} ${n.name}`);
  const counts = `${graph.nodes.length} ${graph.nodes.length === 1 ? 'node' : 'nodes'}`;
  return `Lineage graph of ${of}: ${counts}${marked.length === 0 ? ', none marked' : `; marked: ${marked.join(', ')}`}. The list view reads the same.`;
}
