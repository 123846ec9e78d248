import { Body1, Caption1, makeStyles, MessageBar, MessageBarBody, Spinner, Tab, TabList, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { NO_ALERTS, type DatasetViewTab } from '../../../../domain/datasetPage';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Dataset, Workspace } from '../../../../domain/resources';
import type { Query } from '../../../data/useQuery';
import { useDatasetAlerts, useRelatedDatasets } from '../../../data/datasets';
import { Discussion } from '../comments/Discussion';
import { datasetRoute } from '../../../components/feed/DatasetCard';
import { DateText } from '../../../components/DateText';
import { AlertRules } from './AlertRules';
import { InAppLink } from '../../../components/InAppLink';

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    minWidth: 0,
  },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, margin: 0, padding: 0, listStyle: 'none' },
  muted: { color: tokens.colorNeutralForeground3 },
  item: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, overflowWrap: 'anywhere' },
});

/** Discussion, Alerts and Related as DATASET_VIEW_TABS orders them. */
export function SidePanel({ tabs, dataset, workspace }: { tabs: readonly DatasetViewTab[]; dataset: Dataset; workspace: Workspace }) {
  const styles = useStyles();
  const [selected, setSelected] = useState<DatasetViewTab | undefined>(tabs[0]);
  const current = selected !== undefined && tabs.includes(selected) ? selected : tabs[0];
  return (
    <aside className={styles.panel} aria-label="Dataset panel">
      <TabList selectedValue={current} onTabSelect={(_, data) => setSelected(data.value as DatasetViewTab)}>
        {tabs.map((tab) => (
          <Tab key={tab} value={tab}>
            {tab}
          </Tab>
        ))}
      </TabList>
      <div role="tabpanel" aria-label={current}>
        {current === 'Discussion' && <Discussion dataset={dataset} workspace={workspace} />}
        {current === 'Alerts' && <Alerts dataset={dataset} />}
        {current === 'Related' && <Related dataset={dataset} workspaceId={workspace.id} />}
      </div>
    </aside>
  );
}

/** A list read through a link: nothing to show when the link is not offered (idle) or the list is empty. */
function LoadedList<T>({ query, empty, children }: { query: Query<T[]>; empty: string; children: (items: readonly T[]) => JSX.Element }) {
  const styles = useStyles();
  const state = query.state;
  if (state.status === 'idle') return <Body1 className={styles.muted}>{empty}</Body1>;
  if (state.status === 'loading') return <Spinner size="tiny" />;
  if (state.status === 'failed') {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{state.message}</MessageBarBody>
      </MessageBar>
    );
  }
  return state.data.length === 0 ? <Body1 className={styles.muted}>{empty}</Body1> : children(state.data);
}

function Alerts({ dataset }: { dataset: Dataset }) {
  const styles = useStyles();
  const alerts = useDatasetAlerts(dataset);
  return (
    <div className={styles.list}>
      <LoadedList query={alerts} empty={NO_ALERTS}>
      {(items) => (
        <ul className={styles.list}>
          {items.map((alert, index) => (
            <li key={alert.id ?? index} className={styles.item}>
              <Body1>{alert.detail ?? ''}</Body1>
              <Caption1 className={styles.muted}>
                <DateText iso={alert.raised} withTime />
              </Caption1>
            </li>
          ))}
        </ul>
      )}
      </LoadedList>
      {hasLink(dataset, REL.alertRules) && <AlertRules dataset={dataset} />}
    </div>
  );
}

function Related({ dataset, workspaceId }: { dataset: Dataset; workspaceId: string }) {
  const styles = useStyles();
  const related = useRelatedDatasets(dataset);
  return (
    <LoadedList query={related} empty="No related datasets.">
      {(datasets) => (
        <ul className={styles.list} aria-label="Related datasets">
          {datasets
            .filter((related) => related.id !== dataset.id)
            .map((related) => (
              <li key={related.id} className={styles.item}>
                <InAppLink to={datasetRoute(workspaceId, related)}>{related.title}</InAppLink>
              </li>
            ))}
        </ul>
      )}
    </LoadedList>
  );
}
