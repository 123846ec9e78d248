import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { datasetLineageGraph, defaultLineageView, GRAPH_TEXTS, graphSummary, mermaidLabel, mermaidText, MERMAID_LINE_BREAK, nodeLines, tableLineageGraph, type LineageGraph } from './lineageGraph';
import { DATASET_LINEAGE, datasetLineageArb, lineageTable, tableLineageArb } from './lineageGraph.fixture';
import type { DatasetLineage } from './lineageResources';

/** Mermaid's own reading of an entity-written label: every #<code>; back to its character. */
const decoded = (label: string) => label.replace(/#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)));

/** The statements of the text as this module writes them: node `id<open>"label"<close>`, edge `a --> b` or `a ==>|"label"| b`. */
function readBack(text: string) {
  const [header, ...lines] = text.trimEnd().split('\n');
  const nodes: { id: string; lines: string[] }[] = [];
  const edges: { from: string; to: string; column: boolean; label: string | null }[] = [];
  const other: string[] = [];
  for (const line of lines) {
    const node = /^ {2}([a-z]+[0-9_]*)(\[\(|\(|\[)"([A-Za-z0-9 #;<>/]*)"(\)\]|\)|\])$/.exec(line);
    const edge = /^ {2}([a-z]+[0-9_]*) (-->|==>)(?:\|"([A-Za-z0-9 #;]*)"\|)? ([a-z]+[0-9_]*)$/.exec(line);
    if (node) nodes.push({ id: node[1]!, lines: node[3]!.split(MERMAID_LINE_BREAK).map(decoded) });
    else if (edge) edges.push({ from: edge[1]!, to: edge[4]!, column: edge[2] === '==>', label: edge[3] === undefined ? null : decoded(edge[3]) });
    else other.push(line);
  }
  return { header, nodes, edges, other };
}

/** Every statement is a node, an edge, a classDef of ours or a class line naming our ids. */
function expectWellFormed(graph: LineageGraph, text: string) {
  const read = readBack(text);
  expect(read.header).toBe('flowchart LR');
  expect(read.nodes.map((n) => n.id)).toEqual(graph.nodes.map((n) => n.id));
  // labels round-trip: what mermaid decodes is exactly the node's lines, names as they were
  expect(read.nodes.map((n) => n.lines)).toEqual(graph.nodes.map(nodeLines));
  expect(read.edges).toEqual(graph.edges);
  const ids = new Set(graph.nodes.map((n) => n.id));
  for (const line of read.other) {
    const classLine = /^ {2}class ([a-z0-9_,]+) (marked|focus|column)$/.exec(line);
    if (classLine) expect(classLine[1]!.split(',').every((id) => ids.has(id))).toBe(true);
    else expect(line).toMatch(/^ {2}classDef (marked|focus|column) [a-z0-9:#,-]+$/);
  }
}

const byKind = (graph: LineageGraph, kind: string) => graph.nodes.filter((n) => n.kind === kind).map((n) => n.name);

describe('datasetLineageGraph', () => {
  it('runs from the source through the pipeline and the tables to the dataset and its dashboard', () => {
    const graph = datasetLineageGraph(DATASET_LINEAGE);
    expect(byKind(graph, 'source')).toEqual(['tap-demo']);
    expect(byKind(graph, 'pipeline')).toEqual(['Demo sales data']);
    expect(byKind(graph, 'table')).toEqual(['customers', 'orders']);
    expect(byKind(graph, 'dataset')).toEqual(['Top Customers by Revenue']);
    expect(byKind(graph, 'dashboard')).toEqual(['Sales']);
    expect(graph.edges).toEqual([
      { from: 's0', to: 'p0', column: false, label: null },
      { from: 'p0', to: 't0', column: false, label: null },
      { from: 'p0', to: 't1', column: false, label: null },
      { from: 't0', to: 'd0', column: false, label: null },
      { from: 't1', to: 'd0', column: false, label: null },
      { from: 'd0', to: 'b0', column: false, label: null },
    ]);
    expect(graph.nodes.find((n) => n.kind === 'pipeline')?.facts).toEqual(['Last run: Complete']);
    expect(graph.nodes.find((n) => n.name === 'orders')?.facts).toEqual(['Stream: orders', 'Loaded by run: Complete', 'Fresh']);
    expect(graph.nodes.some((n) => n.marked)).toBe(false);
  });

  it('draws an expanded column from its table column into the dataset, and only that one', () => {
    const graph = datasetLineageGraph(DATASET_LINEAGE, new Set([1]));
    expect(byKind(graph, 'column')).toEqual(['revenue']);
    expect(byKind(graph, 'tableColumn')).toEqual(['orders.amount']);
    expect(graph.edges.filter((e) => e.column)).toEqual([
      { from: 't1', to: 'tc0_0', column: true, label: null },
      { from: 'tc0_0', to: 'c0', column: true, label: 'Aggregated' },
      { from: 'c0', to: 'd0', column: true, label: null },
    ]);
  });

  it('marks a failed pipeline and everything downstream of it, in words as well', () => {
    const lineage: DatasetLineage = {
      ...DATASET_LINEAGE,
      tables: [lineageTable('customers', { pipeline: { id: 'p2', name: 'CRM' }, latestRun: { id: 'j9', status: 'ERROR' } }), lineageTable('orders')],
    };
    const graph = datasetLineageGraph(lineage);
    const marked = graph.nodes.filter((n) => n.marked).map((n) => n.name);
    // the CRM pipeline failed: it, its table, the dataset and the dashboard; not the other pipeline, its source or orders
    expect(marked).toEqual(['CRM', 'customers', 'Top Customers by Revenue', 'Sales']);
    const crm = graph.nodes.find((n) => n.name === 'CRM')!;
    expect(nodeLines(crm)).toEqual(['Pipeline', 'CRM', 'Last run: Error', 'Marked: Last run failed']);
    expect(nodeLines(graph.nodes.find((n) => n.name === 'Sales')!).at(-1)).toBe(GRAPH_TEXTS.marked('fresh'));
    expect(mermaidText(graph)).toContain(`  class ${graph.nodes.filter((n) => n.marked).map((n) => n.id).join(',')} marked\n`);
  });

  it('marks a stale table, not the unloaded one beside it', () => {
    const graph = datasetLineageGraph({ ...DATASET_LINEAGE, tables: [lineageTable('customers', { status: 'stale' }), lineageTable('orders', { status: 'unloaded', pipeline: null, loadedBy: null, latestRun: null })] });
    expect(graph.nodes.filter((n) => n.marked).map((n) => n.name)).toEqual(['customers', 'Top Customers by Revenue', 'Sales']);
  });

  it('writes hostile names only as entities inside quoted labels: one node per entity, labels round-trip', () => {
    fc.assert(
      fc.property(datasetLineageArb, fc.uniqueArray(fc.nat(5)), (lineage, expanded) => {
        const graph = datasetLineageGraph(lineage, new Set(expanded));
        expectWellFormed(graph, mermaidText(graph));
        const expandedColumns = expanded.filter((i) => i < lineage.columns.length).length;
        expect(graph.nodes.filter((n) => n.kind === 'table')).toHaveLength(lineage.tables.length);
        expect(graph.nodes.filter((n) => n.kind === 'column')).toHaveLength(expandedColumns);
        expect(graph.nodes.filter((n) => n.kind === 'dataset')).toHaveLength(1);
        expect(graph.nodes.filter((n) => n.kind === 'dashboard')).toHaveLength(lineage.dashboards.length);
      }),
    );
  });

  it('marks exactly the nodes reachable from a failed, missing or stale one', () => {
    fc.assert(
      fc.property(datasetLineageArb, fc.uniqueArray(fc.nat(5)), (lineage, expanded) => {
        const graph = datasetLineageGraph(lineage, new Set(expanded));
        const bad = (id: string) => ['failed', 'missing', 'stale'].includes(graph.nodes.find((n) => n.id === id)!.status ?? '');
        const reaches = (id: string, seen = new Set<string>()): boolean =>
          bad(id) || graph.edges.some((e) => e.to === id && !seen.has(e.from) && reaches(e.from, seen.add(e.from)));
        for (const n of graph.nodes) expect(n.marked).toBe(reaches(n.id));
      }),
    );
  });
});

describe('datasetLineageGraph with a dbt model', () => {
  const built = (inputStatus: 'fresh' | 'failed', modelName = 'totals'): DatasetLineage => ({
    ...DATASET_LINEAGE,
    columns: [{ name: 'total', kind: 'direct', status: inputStatus, sources: [{ table: 'totals', column: 'total', kind: 'direct' }], unresolved: [] }],
    tables: [
      lineageTable('totals', { status: inputStatus, stream: null, extractors: [], pipeline: { id: 'p2', name: 'Transform' }, loadedBy: { id: 'j2', status: 'COMPLETE' }, latestRun: { id: 'j2', status: 'COMPLETE' }, model: { name: modelName, inputs: ['orders'], run: { id: 'j2', status: 'COMPLETE' } } }),
      lineageTable('orders', { status: inputStatus, upstream: true, ...(inputStatus === 'failed' ? { latestRun: { id: 'j3', status: 'ERROR' } } : {}) }),
    ],
  });

  it('puts the model between its input table and its pipeline and the table it built; the input reaches the dataset only through it', () => {
    const graph = datasetLineageGraph(built('fresh'));
    expect(byKind(graph, 'model')).toEqual(['totals']);
    const id = (kind: string, name: string) => graph.nodes.find((n) => n.kind === kind && n.name === name)!.id;
    const edges = graph.edges.map((e) => `${e.from}>${e.to}`);
    expect(edges).toContain(`${id('pipeline', 'Transform')}>${id('model', 'totals')}`);
    expect(edges).toContain(`${id('model', 'totals')}>${id('table', 'totals')}`);
    expect(edges).toContain(`${id('table', 'orders')}>${id('model', 'totals')}`);
    expect(edges).not.toContain(`${id('pipeline', 'Transform')}>${id('table', 'totals')}`);
    expect(edges).not.toContain(`${id('table', 'orders')}>${id('dataset', 'Top Customers by Revenue')}`);
    expect(edges).toContain(`${id('table', 'totals')}>${id('dataset', 'Top Customers by Revenue')}`);
    expect(graph.nodes.find((n) => n.kind === 'model')?.facts).toEqual(['Built by run: Complete']);
  });

  it('marks the model, its table and the dataset downstream of a failed input', () => {
    const graph = datasetLineageGraph(built('failed'));
    expect(graph.nodes.filter((n) => n.marked).map((n) => `${n.kind}:${n.name}`)).toEqual(expect.arrayContaining(['model:totals', 'table:totals', 'table:orders', 'dataset:Top Customers by Revenue']));
  });

  it('writes a hostile model name only inside its quoted label', () => {
    const graph = datasetLineageGraph(built('fresh', 'a"] --> x\n%%{init}'));
    expectWellFormed(graph, mermaidText(graph));
  });
});

describe('tableLineageGraph', () => {
  it('shows what loaded the table and the datasets and dashboards reading it', () => {
    const graph = tableLineageGraph({
      name: 'orders',
      status: 'fresh',
      table: lineageTable('orders'),
      datasets: [
        { id: 'a', title: 'Top Customers by Revenue', alias: 'top', status: 'fresh', tables: ['orders'], _links: {} },
        { id: 'b', title: 'Order count', alias: null, status: 'fresh', tables: ['orders'], _links: {} },
      ],
      dashboards: [{ title: 'Sales', status: 'fresh', datasets: ['top'] }],
      _links: {},
    });
    expect(graph.nodes.map((n) => [n.kind, n.name, n.focus])).toEqual([
      ['source', 'tap-demo', false],
      ['pipeline', 'Demo sales data', false],
      ['table', 'orders', true],
      ['dataset', 'Top Customers by Revenue', false],
      ['dataset', 'Order count', false],
      ['dashboard', 'Sales', false],
    ]);
    expect(graph.edges.map((e) => `${e.from}>${e.to}`)).toEqual(['s0>p0', 'p0>t0', 't0>d0', 't0>d1', 'd0>b0']);
  });

  it('writes hostile names safely here too', () => {
    fc.assert(
      fc.property(tableLineageArb, (lineage) => {
        const graph = tableLineageGraph(lineage);
        expectWellFormed(graph, mermaidText(graph));
        expect(graph.nodes.filter((n) => n.kind === 'dataset')).toHaveLength(lineage.datasets.length);
      }),
    );
  });
});

describe('mermaidLabel', () => {
  it('keeps letters, digits and spaces and writes everything else as an entity', () => {
    expect(mermaidLabel('a "b" --> %%')).toBe('a #34;b#34; #45;#45;#62; #37;#37;');
    expect(mermaidLabel('😀\n')).toBe('#128512;#10;');
  });

  it('round-trips any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(decoded(mermaidLabel(text))).toBe(text);
      }),
    );
  });
});

describe('defaultLineageView and graphSummary', () => {
  it('starts a phone on the list and a wider screen on the graph', () => {
    expect(defaultLineageView('small')).toBe('list');
    expect(defaultLineageView('medium')).toBe('graph');
    expect(defaultLineageView('large')).toBe('graph');
  });

  it('tells a screen reader what is marked', () => {
    expect(graphSummary(datasetLineageGraph(DATASET_LINEAGE), 'Top Customers by Revenue')).toBe('Lineage graph of Top Customers by Revenue: 6 nodes, none marked. The list view reads the same.');
    const stale = datasetLineageGraph({ ...DATASET_LINEAGE, tables: [lineageTable('customers', { status: 'stale' }), lineageTable('orders')] });
    expect(graphSummary(stale, 'X')).toBe('Lineage graph of X: 6 nodes; marked: table customers, dataset Top Customers by Revenue, dashboard Sales. The list view reads the same.');
  });
});

describe('datasetLineageGraph, node by node', () => {
  // raw: loaded by Load from two extractors, its latest run failed, a model's input; mart: built by a
  // model of raw (and of a table the lineage lacks) in a run of Load; side: built by a model outside any pipeline
  const lineage: DatasetLineage = {
    datasetId: 'ds',
    title: 'DS',
    status: 'failed',
    columns: [
      { name: 'total', kind: 'aggregation', status: 'failed', sources: [{ table: 'mart', column: 'amount', kind: 'aggregation' }, { table: 'gone', column: 'x', kind: 'direct' }], unresolved: [] },
      { name: 'hidden', kind: 'direct', status: 'fresh', sources: [{ table: 'side', column: 'y', kind: 'direct' }], unresolved: [] },
    ],
    tables: [
      lineageTable('raw', {
        status: 'failed',
        upstream: true,
        extractors: [{ name: 'tap-csv', plugin: 'tap-csv' }, { name: 'shop', plugin: 'tap-postgres' }],
        pipeline: { id: 'p1', name: 'Load' },
        loadedBy: { id: 'j1', status: 'COMPLETE' },
        latestRun: { id: 'j2', status: 'ERROR' },
      }),
      lineageTable('mart', { stream: null, loadedBy: null, latestRun: null, extractors: [], pipeline: { id: 'p1', name: 'Load' }, model: { name: 'mart_model', inputs: ['raw', 'ghost'], run: null } }),
      lineageTable('side', { status: 'unloaded', stream: null, loadedBy: null, latestRun: null, extractors: [], pipeline: null, model: { name: 'side_model', inputs: [], run: { id: 'j3', status: 'COMPLETE' } } }),
    ],
    dashboards: [{ title: 'Board', status: 'failed', datasets: [] }],
    _links: {},
  };
  const n = (id: string, kind: string, name: string, facts: string[], status: string | null, marked: boolean, focus = false) => ({ id, kind, name, facts, status, marked, focus });
  const e = (from: string, to: string, column = false, label: string | null = null) => ({ from, to, column, label });

  it('builds every node with its facts, status, marking and focus, and every edge once', () => {
    expect(datasetLineageGraph(lineage, new Set([0]))).toEqual({
      nodes: [
        n('s0', 'source', 'tap-csv', [], null, false),
        n('s1', 'source', 'tap-postgres (shop)', [], null, false),
        n('p0', 'pipeline', 'Load', ['Last run: Error'], 'failed', true),
        n('t0', 'table', 'raw', ['Stream: raw', 'Loaded by run: Complete', 'Last run failed'], 'failed', true),
        n('t1', 'table', 'mart', ['Fresh'], 'fresh', true),
        n('m0', 'model', 'mart_model', [], null, true),
        n('t2', 'table', 'side', ['Not loaded by a pipeline'], 'unloaded', false),
        n('m1', 'model', 'side_model', ['Built by run: Complete'], null, false),
        n('d0', 'dataset', 'DS', ['Last run failed'], 'failed', true, true),
        n('c0', 'column', 'total', ['Last run failed'], 'failed', true),
        n('tc0_0', 'tableColumn', 'mart.amount', [], null, true),
        n('tc0_1', 'tableColumn', 'gone.x', [], null, false),
        n('b0', 'dashboard', 'Board', ['Last run failed'], 'failed', true),
      ],
      edges: [
        e('s0', 'p0'),
        e('s1', 'p0'),
        e('p0', 't0'),
        e('p0', 'm0'),
        e('m0', 't1'),
        e('m1', 't2'),
        e('t0', 'm0'),
        e('t1', 'd0'),
        e('t2', 'd0'),
        e('t1', 'tc0_0', true),
        e('tc0_0', 'c0', true, 'Aggregated'),
        e('tc0_1', 'c0', true, 'Copied'),
        e('c0', 'd0', true),
        e('d0', 'b0'),
      ],
    });
  });

  it('focuses the store browser’s table and none of its readers', () => {
    const graph = tableLineageGraph({ name: 'raw', status: 'fresh', table: lineageTable('raw', { extractors: [] }), datasets: [], dashboards: [], _links: {} });
    expect(graph.nodes).toEqual([n('p0', 'pipeline', 'Demo sales data', ['Last run: Complete'], null, false), n('t0', 'table', 'raw', ['Stream: raw', 'Loaded by run: Complete', 'Fresh'], 'fresh', false, true)]);
  });
});

describe('mermaidText, line by line', () => {
  it('draws a source and a dashboard rounded, a table as a cylinder, the rest square, then the edges and the classes', () => {
    const node = (id: string, kind: LineageGraph['nodes'][number]['kind'], name: string, marked = false, focus = false) => ({ id, kind, name, facts: [], status: null, marked, focus });
    const graph: LineageGraph = {
      nodes: [node('s0', 'source', 'a'), node('p0', 'pipeline', 'b'), node('t0', 'table', 'c'), node('b0', 'dashboard', 'd'), node('c0', 'column', 'e', true, true), node('tc0_0', 'tableColumn', 'f')],
      edges: [
        { from: 's0', to: 'p0', column: false, label: null },
        { from: 't0', to: 'c0', column: true, label: 'Copied' },
      ],
    };
    expect(mermaidText(graph)).toBe(
      [
        'flowchart LR',
        '  s0("Source<br/>a")',
        '  p0["Pipeline<br/>b"]',
        '  t0[("Table<br/>c")]',
        '  b0("Dashboard<br/>d")',
        '  c0["Column<br/>e<br/>Marked#58; upstream failed or stale"]',
        '  tc0_0["Table column<br/>f"]',
        '  s0 --> p0',
        '  t0 ==>|"Copied"| c0',
        '  classDef marked fill:#fde7e9,stroke:#c50f1f,stroke-width:3px,stroke-dasharray:6,color:#3b0509',
        '  classDef focus stroke-width:3px',
        '  classDef column fill:#ebf3fc,stroke:#0f6cbd',
        '  class c0,tc0_0 column',
        '  class c0 focus',
        '  class c0 marked',
        '',
      ].join('\n'),
    );
    expect(nodeLines(node('p0', 'pipeline', 'b'))).toEqual(['Pipeline', 'b']);
    expect(graphSummary({ nodes: [node('p0', 'pipeline', 'b')], edges: [] }, 'X')).toBe('Lineage graph of X: 1 node, none marked. The list view reads the same.');
  });

  it('writes a space at either end of a label as an entity, and keeps inner ones', () => {
    expect(mermaidLabel(' a  b ')).toBe('#32;a  b#32;');
    expect(mermaidLabel(' ')).toBe('#32;');
    expect(mermaidLabel('a b')).toBe('a b');
  });
});
