import { Body1, Button, Caption1, makeStyles, MessageBar, MessageBarBody, Spinner, Subtitle2, ToggleButton, tokens } from '@fluentui/react-components';
import { ChevronDownRegular, ChevronRightRegular } from '@fluentui/react-icons';
import { useId, useMemo, useState } from 'react';
import { datasetLineageGraph, defaultLineageView, type LineageViewMode } from '../../../../domain/lineageGraph';
import type { DatasetLineage, LineageColumn } from '../../../../domain/lineageResources';
import { columnSummary, LINEAGE_TEXTS, sourceTrails, type SourceTrail } from '../../../../domain/lineageView';
import type { Dataset } from '../../../../domain/resources';
import { DateText } from '../../../components/DateText';
import { LineageStatusBadge } from '../../../components/LineageStatusBadge';
import { LineageGraph, LineageViewSwitch } from '../../../components/lineage/LineageGraph';
import { useScreenSize } from '../../../components/useScreenSize';
import { useDatasetLineage } from '../../../data/lineage';

// Where each column of the dataset comes from (issue 41), as a graph (source → pipeline → table →
// dataset → dashboards, drawn by mermaid) or as a list, which reads the same by keyboard, by
// screen reader and on a phone, where it is the view a page starts on. In the list a column opens
// (a disclosure button) on each table column it reads ← the pipeline run that loaded that table ←
// the stream and source it extracted; the same columns, opened, are drawn with their edges in the
// graph (one set of open columns for both views, so switching keeps them).

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, margin: 0, padding: 0, listStyle: 'none' },
  column: { borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`, paddingTop: tokens.spacingVerticalXS, minWidth: 0 },
  toggle: { justifyContent: 'flex-start', textAlign: 'start', width: '100%', minWidth: 0, height: 'auto', paddingTop: tokens.spacingVerticalXS, paddingBottom: tokens.spacingVerticalXS },
  toggleText: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', minWidth: 0, overflowWrap: 'anywhere' },
  name: { fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  trails: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXXL,
    paddingBottom: tokens.spacingVerticalS,
  },
  trail: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, overflowWrap: 'anywhere' },
  step: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  line: { display: 'block' },
  columnToggles: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalXS },
});

const runStatus = (status: string) => status.charAt(0) + status.slice(1).toLowerCase();

/** The dataset's lineage, shown while it offers the 'lineage' link. */
export function Lineage({ dataset }: { dataset: Dataset }) {
  const styles = useStyles();
  const query = useDatasetLineage(dataset);
  const headingId = useId();
  const state = query.state;
  if (state.status === 'idle') return null;
  return (
    <section className={styles.root} aria-labelledby={headingId}>
      <div className={styles.heading}>
        <Subtitle2 as="h2" id={headingId}>
          {LINEAGE_TEXTS.heading}
        </Subtitle2>
        {state.status === 'ready' && <LineageStatusBadge status={state.data.status} />}
      </div>
      {state.status === 'loading' && <Spinner size="tiny" label="Reading the lineage" />}
      {state.status === 'failed' && (
        <MessageBar intent="error">
          <MessageBarBody>{state.message}</MessageBarBody>
        </MessageBar>
      )}
      {state.status === 'ready' && <LineageViews lineage={state.data} />}
    </section>
  );
}

function LineageViews({ lineage }: { lineage: DatasetLineage }) {
  const size = useScreenSize();
  // null until the person picks: until then the screen's width decides (a phone starts on the list)
  const [picked, setPicked] = useState<LineageViewMode | null>(null);
  const view = picked ?? defaultLineageView(size);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (index: number) =>
    setExpanded((was) => {
      const next = new Set(was);
      if (!next.delete(index)) next.add(index);
      return next;
    });
  return (
    <>
      <LineageViewSwitch view={view} onChange={setPicked} />
      {view === 'graph' ? <LineageGraphView lineage={lineage} expanded={expanded} onToggle={toggle} /> : <LineageList lineage={lineage} expanded={expanded} onToggle={toggle} />}
    </>
  );
}

type ColumnsOpen = { expanded: ReadonlySet<number>; onToggle: (index: number) => void };

/** The graph, with a toggle per output column beside it that draws that column's edges. */
function LineageGraphView({ lineage, expanded, onToggle }: { lineage: DatasetLineage } & ColumnsOpen) {
  const styles = useStyles();
  const graph = useMemo(() => datasetLineageGraph(lineage, expanded), [lineage, expanded]);
  return (
    <>
      {lineage.refused && (
        <MessageBar intent="warning">
          <MessageBarBody>{LINEAGE_TEXTS.refused(lineage.refused)}</MessageBarBody>
        </MessageBar>
      )}
      {lineage.columns.length > 0 && (
        <div className={styles.columnToggles} role="group" aria-label="Columns drawn in the graph">
          <Caption1 className={styles.muted}>Draw a column's sources:</Caption1>
          {lineage.columns.map((column, index) => (
            <ToggleButton key={`${index}:${column.name}`} size="small" checked={expanded.has(index)} disabled={column.sources.length === 0} onClick={() => onToggle(index)}>
              {column.name}
            </ToggleButton>
          ))}
        </div>
      )}
      <LineageGraph graph={graph} of={lineage.title} />
    </>
  );
}

function LineageList({ lineage, expanded, onToggle }: { lineage: DatasetLineage } & ColumnsOpen) {
  const styles = useStyles();
  return (
    <>
      {lineage.refused && (
        <MessageBar intent="warning">
          <MessageBarBody>{LINEAGE_TEXTS.refused(lineage.refused)}</MessageBarBody>
        </MessageBar>
      )}
      <ul className={styles.list} aria-label={LINEAGE_TEXTS.columns}>
        {lineage.columns.map((column, index) => (
          <ColumnItem key={`${index}:${column.name}`} column={column} lineage={lineage} open={expanded.has(index)} onToggle={() => onToggle(index)} />
        ))}
      </ul>
      {lineage.dashboards.length > 0 && (
        <Caption1 className={styles.step}>
          {LINEAGE_TEXTS.dashboards}
          {lineage.dashboards.map((d) => (
            <span key={d.title} className={styles.step}>
              <strong>{d.title}</strong> <LineageStatusBadge status={d.status} />
            </span>
          ))}
        </Caption1>
      )}
    </>
  );
}

function ColumnItem({ column, lineage, open, onToggle }: { column: LineageColumn; lineage: DatasetLineage; open: boolean; onToggle: () => void }) {
  const styles = useStyles();
  const panelId = useId();
  const trails = sourceTrails(lineage, column);
  const expandable = trails.length > 0 || column.unresolved.length > 0;
  return (
    <li className={styles.column}>
      <Button
        appearance="subtle"
        className={styles.toggle}
        icon={open ? <ChevronDownRegular /> : <ChevronRightRegular />}
        aria-expanded={expandable ? open : undefined}
        aria-controls={expandable ? panelId : undefined}
        disabled={!expandable}
        onClick={onToggle}
      >
        <span className={styles.toggleText}>
          <span className={styles.name}>{column.name}</span>
          <Caption1 className={styles.muted}>{columnSummary(column)}</Caption1>
        </span>
      </Button>
      {open && expandable && (
        <ol id={panelId} className={styles.trails} aria-label={`Sources of ${column.name}`}>
          {trails.map((trail) => (
            <Trail key={trail.reference} trail={trail} />
          ))}
          {column.unresolved.map((reference) => (
            <li key={`?${reference}`} className={styles.trail}>
              <Body1 className={styles.muted}>{LINEAGE_TEXTS.unresolved(reference)}</Body1>
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

/** One source: table column ← pipeline run ← stream and source. */
function Trail({ trail }: { trail: SourceTrail }) {
  const styles = useStyles();
  return (
    <li className={styles.trail}>
      <span className={styles.step}>
        <Body1>
          <strong>{trail.reference}</strong> · {trail.kind}
        </Body1>
        <LineageStatusBadge status={trail.status} />
      </span>
      {trail.model !== null && <Caption1 className={styles.line}>← {trail.model.text}</Caption1>}
      {trail.pipeline === null || trail.run === null ? (
        <Caption1 className={`${styles.line} ${styles.muted}`}>← {LINEAGE_TEXTS.notLoaded}</Caption1>
      ) : (
        <Caption1 className={styles.line}>
          ← {LINEAGE_TEXTS.ranBy(trail.model !== null)} <strong>{trail.pipeline}</strong>, run {runStatus(trail.run.status)}
          {trail.run.ended !== null && (
            <>
              , <DateText iso={trail.run.ended} withTime />
            </>
          )}
        </Caption1>
      )}
      {trail.latestRun !== null && (
        <Caption1 className={styles.line}>
          ← Its latest run: {runStatus(trail.latestRun.status)}
          {trail.latestRun.ended !== null && (
            <>
              , <DateText iso={trail.latestRun.ended} withTime />
            </>
          )}
        </Caption1>
      )}
      {trail.model?.inputs.map((line) => (
        <Caption1 key={line} className={styles.line}>
          ← {line}
        </Caption1>
      ))}
      {trail.stream !== null && (
        <Caption1 className={styles.line}>
          ← Stream <strong>{trail.stream}</strong>
          {trail.sources.length > 0 && <> from the source {trail.sources.join(', ')}</>}
        </Caption1>
      )}
    </li>
  );
}
