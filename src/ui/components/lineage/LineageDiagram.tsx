// The lineage graph drawn by mermaid (issue 41). Loaded only when a graph is shown (React.lazy in
// LineageGraph.tsx), so mermaid stays out of the page's first bundle. The text comes from
// domain/lineageGraph.ts, every name in it already written as entities; mermaid still runs with
// securityLevel 'strict' (its sanitiser on, no click handlers) as a second wall.
import { Caption1, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { useMermaidSvg } from '../useMermaidSvg';

const useStyles = makeStyles({
  // never wider than its column (a phone's width included): the drawing scales down instead
  diagram: { maxWidth: '100%', overflowX: 'auto', '& svg': { maxWidth: '100%', height: 'auto', display: 'block' } },
  error: { color: tokens.colorPaletteRedForeground1 },
});

export default function LineageDiagram({ text, label }: { text: string; label: string }) {
  const styles = useStyles();
  const { state, ref } = useMermaidSvg(text, 'lineage');

  if (state.status === 'failed') return <Caption1 className={styles.error}>The graph could not be drawn ({state.detail}); the list view shows the same lineage.</Caption1>;
  return (
    <>
      {state.status === 'drawing' && <Spinner size="tiny" label="Drawing the lineage graph" />}
      <div ref={ref} className={styles.diagram} role="img" aria-label={label} data-testid="lineage-graph" />
    </>
  );
}
