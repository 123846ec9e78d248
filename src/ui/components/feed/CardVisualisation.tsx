import { makeStyles, MessageBar, MessageBarBody, Spinner, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useCallback, useRef } from 'react';
import type { Dataset } from '../../../domain/resources';
import { pathTo } from '../../../domain/routes';
import { usePreviewRows } from '../../data/datasets';
import { useInView } from '../useInView';

// The renderer (and, behind it, chart.js, handsontable or mermaid) is fetched only once a Large
// card comes into view: a feed of text-only cards, or one read as List or Grid, loads none of it.
const Visualisation = lazy(() => import('../visualisation/Visualisation').then((module) => ({ default: module.Visualisation })));

/** The height a Large card keeps for its drawing, before and after it arrives (no jump while scrolling). */
export const CARD_VISUAL_HEIGHT = 200;

const useStyles = makeStyles({
  frame: {
    height: `${CARD_VISUAL_HEIGHT}px`,
    overflow: 'hidden',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'center',
  },
  // The compact renderers size themselves from their box; a table starts at the top and scrolls within.
  body: { flexGrow: 1, minHeight: 0, overflowY: 'auto', overflowX: 'hidden', display: 'flex', flexDirection: 'column', justifyContent: 'center' },
});

const waiting = <Spinner size="tiny" label="Loading data" />;

/**
 * A Large card's drawing of its dataset: nothing is read until the box is near the viewport, then
 * the rows once (no continuous poll in a feed), drawn compact by the dataset page's renderer.
 * Failures as on the Lab card: a refused read shows the server's words; a dataset with raw data
 * is drawn from it.
 */
export function CardVisualisation({ workspaceId, dataset }: { workspaceId: string; dataset: Dataset }) {
  const styles = useStyles();
  const frameRef = useRef<HTMLDivElement>(null);
  const visible = useInView(frameRef);
  const preview = usePreviewRows(dataset, visible);
  const previewData = preview.state.status === 'ready' ? preview.state.data : undefined;
  const rows = previewData !== undefined && 'rows' in previewData ? previewData.rows : undefined;
  const refused = previewData !== undefined && 'refused' in previewData ? previewData.refused : preview.state.status === 'failed' ? preview.state.message : null;
  const datasetHref = useCallback((alias: string) => pathTo('dataset', { workspaceId, idOrAlias: alias }), [workspaceId]);

  return (
    <div ref={frameRef} className={styles.frame} role="figure" aria-label={`Visualisation of ${dataset.title}`} data-card-visual={visible ? 'shown' : 'waiting'}>
      {refused !== null ? (
        <MessageBar intent="warning">
          <MessageBarBody>{refused}</MessageBarBody>
        </MessageBar>
      ) : visible ? (
        <div className={styles.body}>
          <Suspense fallback={waiting}>
            <Visualisation dataset={dataset} rows={rows} mode="chart" compact datasetHref={datasetHref} />
          </Suspense>
        </div>
      ) : null}
    </div>
  );
}
