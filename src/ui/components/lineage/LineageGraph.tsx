import { Badge, Caption1, makeStyles, Spinner, Tab, TabList, tokens } from '@fluentui/react-components';
import { lazy, Suspense } from 'react';
import { GRAPH_TEXTS, graphSummary, mermaidText, type LineageGraph as Graph, type LineageViewMode } from '../../../domain/lineageGraph';
import { LINEAGE_STATUS_TEXT } from '../../../domain/lineageResources';
import { LineageStatusBadge } from '../LineageStatusBadge';

// The lineage's graph view and its Graph/List switch (issue 41), for the dataset page and the store
// browser. The drawing (mermaid) is a chunk of its own, fetched when a graph is first shown.

const LineageDiagram = lazy(() => import('./LineageDiagram'));

const useStyles = makeStyles({
  graph: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0, maxWidth: '100%' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, margin: 0, padding: 0, listStyle: 'none' },
  node: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, overflowWrap: 'anywhere', minWidth: 0, paddingTop: tokens.spacingVerticalXXS },
  line: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0 },
  marked: { borderLeft: `${tokens.strokeWidthThickest} solid ${tokens.colorPaletteRedBorder2}`, paddingLeft: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** Graph or list: a tab list, so the arrow keys move between them. */
export function LineageViewSwitch({ view, onChange }: { view: LineageViewMode; onChange: (view: LineageViewMode) => void }) {
  return (
    <TabList size="small" selectedValue={view} onTabSelect={(_, data) => onChange(data.value as LineageViewMode)} aria-label="Lineage view">
      <Tab value="graph">Graph</Tab>
      <Tab value="list">List</Tab>
    </TabList>
  );
}

/** The graph drawn, with its summary for a screen reader (the list view holds the same). */
export function LineageGraph({ graph, of }: { graph: Graph; of: string }) {
  const styles = useStyles();
  return (
    <div className={styles.graph}>
      <Suspense fallback={<Spinner size="tiny" label="Drawing the lineage graph" />}>
        <LineageDiagram text={mermaidText(graph)} label={graphSummary(graph, of)} />
      </Suspense>
    </div>
  );
}

/** The graph's nodes as a list, upstream first: each with its kind, name, facts and status in words. */
export function LineageNodeList({ graph, label }: { graph: Graph; label: string }) {
  const styles = useStyles();
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  return (
    <ul className={styles.list} aria-label={label}>
      {graph.nodes.map((node) => {
        const from = graph.edges.filter((e) => e.to === node.id).map((e) => byId.get(e.from)?.name ?? '');
        const facts = node.facts.filter((fact) => node.status === null || fact !== LINEAGE_STATUS_TEXT[node.status]);
        return (
          <li key={node.id} className={`${styles.node} ${node.marked ? styles.marked : ''}`}>
            <span className={styles.line}>
              <Caption1 className={styles.muted}>{GRAPH_TEXTS.kind[node.kind]}</Caption1>
              <strong>{node.name}</strong>
              {node.status !== null && <LineageStatusBadge status={node.status} />}
              {node.marked && (
                <Badge appearance="outline" color="danger">
                  {GRAPH_TEXTS.marked(node.status)}
                </Badge>
              )}
            </span>
            {/* the status is the badge's: the other facts, and what the node comes from */}
            {(facts.length > 0 || from.length > 0) && (
              <Caption1 className={styles.muted}>{[...facts, ...(from.length > 0 ? [`← ${from.join(', ')}`] : [])].join(' · ')}</Caption1>
            )}
          </li>
        );
      })}
    </ul>
  );
}
