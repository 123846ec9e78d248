import { Caption1, makeStyles, MessageBar, MessageBarBody, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { useId, useMemo } from 'react';
import { tableLineageGraph, type LineageViewMode } from '../../../domain/lineageGraph';
import type { TableLineage } from '../../../domain/lineageResources';
import type { StoreTable } from '../../../domain/resources';
import { useTableLineage } from '../../data/lineage';
import { LineageStatusBadge } from '../LineageStatusBadge';
import { LineageGraph, LineageNodeList, LineageViewSwitch } from './LineageGraph';

// The open table's lineage in the store browser (issue 41): the source, pipeline and run that
// loaded it, and the datasets reading it with the dashboards showing those, as a graph or a list
// (the view is the store browser machine's, so it stays as the person picked it across tables).

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function StoreTableLineage({ table, view, onView }: { table: StoreTable; view: LineageViewMode; onView: (view: LineageViewMode) => void }) {
  const styles = useStyles();
  const query = useTableLineage(table);
  const headingId = useId();
  const state = query.state;
  if (state.status === 'idle') return null;
  return (
    <section className={styles.root} aria-labelledby={headingId}>
      <div className={styles.heading}>
        <Subtitle2 as="h3" id={headingId}>
          Lineage of {table.name}
        </Subtitle2>
        {state.status === 'ready' && <LineageStatusBadge status={state.data.status} />}
      </div>
      {state.status === 'loading' && <Spinner size="tiny" label="Reading the lineage" />}
      {state.status === 'failed' && (
        <MessageBar intent="error">
          <MessageBarBody>{state.message}</MessageBarBody>
        </MessageBar>
      )}
      {state.status === 'ready' && <Views lineage={state.data} view={view} onView={onView} />}
    </section>
  );
}

function Views({ lineage, view, onView }: { lineage: TableLineage; view: LineageViewMode; onView: (view: LineageViewMode) => void }) {
  const styles = useStyles();
  const graph = useMemo(() => tableLineageGraph(lineage), [lineage]);
  return (
    <>
      <LineageViewSwitch view={view} onChange={onView} />
      {lineage.datasets.length === 0 && <Caption1 className={styles.muted}>No dataset reads this table.</Caption1>}
      {view === 'graph' ? <LineageGraph graph={graph} of={lineage.name} /> : <LineageNodeList graph={graph} label={`Lineage of ${lineage.name}`} />}
    </>
  );
}
