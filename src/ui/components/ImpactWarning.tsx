import { Caption1, makeStyles, MessageBar, MessageBarBody, MessageBarTitle, tokens } from '@fluentui/react-components';
import type { PipelineLineage } from '../../domain/lineageResources';
import { pathTo } from '../../domain/routes';
import { InAppLink } from './InAppLink';

// What a change to a pipeline reaches before it is made (issue 41, "Impact before change"): the
// tables its runs feed, the datasets reading them (each linked to its page) and the dashboards
// showing those, from the pipeline's 'lineage' link. Shared by the delete dialog and the editor's
// save question; whether to ask at all is the domain's hasDownstream.

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  group: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL, overflowWrap: 'anywhere' },
});

export function ImpactWarning({ impact, workspaceId, title }: { impact: PipelineLineage; workspaceId: string; title: string }) {
  const styles = useStyles();
  return (
    <MessageBar intent="warning" layout="multiline">
      <MessageBarBody className={styles.body}>
        <MessageBarTitle>{title}</MessageBarTitle>
        {impact.tables.length > 0 && (
          <div className={styles.group}>
            <Caption1>Tables</Caption1>
            <ul className={styles.list} aria-label="Tables affected">
              {impact.tables.map((table) => (
                <li key={table.name}>{table.name}</li>
              ))}
            </ul>
          </div>
        )}
        {impact.datasets.length > 0 && (
          <div className={styles.group}>
            <Caption1>Datasets</Caption1>
            <ul className={styles.list} aria-label="Datasets affected">
              {impact.datasets.map((dataset) => (
                <li key={dataset.id}>
                  <InAppLink to={pathTo('dataset', { workspaceId, idOrAlias: dataset.alias ?? dataset.id })}>{dataset.title}</InAppLink>
                </li>
              ))}
            </ul>
          </div>
        )}
        {impact.dashboards.length > 0 && (
          <div className={styles.group}>
            <Caption1>Dashboards</Caption1>
            <ul className={styles.list} aria-label="Dashboards affected">
              {impact.dashboards.map((dashboard) => (
                <li key={dashboard.title}>
                  <InAppLink to={pathTo('dashboard', { workspaceId })}>{dashboard.title}</InAppLink>
                </li>
              ))}
            </ul>
          </div>
        )}
      </MessageBarBody>
    </MessageBar>
  );
}
