import { Body1, Caption1, makeStyles, MessageBar, MessageBarBody, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import type { PipelineLineage } from '../../../../../domain/lineageResources';
import type { Pipeline } from '../../../../../domain/resources';
import { pathTo } from '../../../../../domain/routes';
import { InAppLink } from '../../../../components/InAppLink';
import { LineageStatusBadge } from '../../../../components/LineageStatusBadge';
import { usePipelineLineage } from '../../../../data/lineage';

// A pipeline's impact (issue 41): the tables its runs feed, the datasets reading them and the
// dashboards showing those, each with its status, so a failed or stale run's reach is seen before
// anyone asks. Lists, readable by keyboard and on a phone.

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, paddingTop: tokens.spacingVerticalS, minWidth: 0 },
  group: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, margin: 0, padding: 0, listStyle: 'none' },
  item: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function ImpactTab({ pipeline, workspaceId, reloadKey }: { pipeline: Pipeline; workspaceId: string; reloadKey: number }) {
  const styles = useStyles();
  const query = usePipelineLineage(pipeline, reloadKey);
  const state = query.state;
  if (state.status === 'idle') return null;
  if (state.status === 'loading') return <Spinner size="tiny" label="Reading what this pipeline feeds" />;
  if (state.status === 'failed') {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{state.message}</MessageBarBody>
      </MessageBar>
    );
  }
  return <Impact impact={state.data} workspaceId={workspaceId} className={styles.root} />;
}

function Impact({ impact, workspaceId, className }: { impact: PipelineLineage; workspaceId: string; className: string }) {
  const styles = useStyles();
  return (
    <section className={className} aria-label="Impact">
      <div className={styles.heading}>
        <Body1>What this pipeline's runs feed</Body1>
        <LineageStatusBadge status={impact.status} />
      </div>
      <div className={styles.group}>
        <Subtitle2 as="h3">Tables</Subtitle2>
        {impact.tables.length === 0 ? (
          <Caption1 className={styles.muted}>No run of this pipeline has loaded a table yet.</Caption1>
        ) : (
          <ul className={styles.list} aria-label="Tables fed">
            {impact.tables.map((table) => (
              <li key={table.name} className={styles.item}>
                <strong>{table.name}</strong>
                {table.stream && <Caption1 className={styles.muted}>stream {table.stream}</Caption1>}
                <LineageStatusBadge status={table.status} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className={styles.group}>
        <Subtitle2 as="h3">Datasets</Subtitle2>
        {impact.datasets.length === 0 ? (
          <Caption1 className={styles.muted}>No dataset reads these tables.</Caption1>
        ) : (
          <ul className={styles.list} aria-label="Datasets fed">
            {impact.datasets.map((dataset) => (
              <li key={dataset.id} className={styles.item}>
                <InAppLink to={pathTo('dataset', { workspaceId, idOrAlias: dataset.alias ?? dataset.id })}>{dataset.title}</InAppLink>
                <Caption1 className={styles.muted}>reads {dataset.tables.join(', ')}</Caption1>
                <LineageStatusBadge status={dataset.status} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {impact.dashboards.length > 0 && (
        <div className={styles.group}>
          <Subtitle2 as="h3">Dashboards</Subtitle2>
          <ul className={styles.list} aria-label="Dashboards fed">
            {impact.dashboards.map((dashboard) => (
              <li key={dashboard.title} className={styles.item}>
                <InAppLink to={pathTo('dashboard', { workspaceId })}>{dashboard.title}</InAppLink>
                <Caption1 className={styles.muted}>shows {dashboard.datasets.join(', ')}</Caption1>
                <LineageStatusBadge status={dashboard.status} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
