import { Body1, Caption1, makeStyles, MessageBar, MessageBarBody, Spinner, Tab, TabList, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { datasetAlerts, relatedDatasets, type DatasetAlert } from '../../../../api/datasets';
import { NO_ALERTS, type DatasetViewTab } from '../../../../domain/datasetPage';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Dataset, Workspace } from '../../../../domain/resources';
import { failureText } from '../../../../machines/failureText';
import { useRuntime } from '../../../runtime';
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

type Loaded<T> = { readonly status: 'loading' } | { readonly status: 'ready'; readonly items: readonly T[] } | { readonly status: 'failed'; readonly message: string };

function useLinked<T>(dataset: Dataset, rel: string, load: (signal: AbortSignal) => Promise<T[]>): Loaded<T> | undefined {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const offered = hasLink(dataset, rel);
  useEffect(() => {
    if (!offered) return undefined;
    const controller = new AbortController();
    setState({ status: 'loading' });
    load(controller.signal).then(
      (items) => !controller.signal.aborted && setState({ status: 'ready', items }),
      (failure: unknown) => !controller.signal.aborted && setState({ status: 'failed', message: failureText(failure) }),
    );
    return () => controller.abort();
    // The load function is rebuilt each render; the dataset's identity is what matters.
  }, [offered, dataset]);
  return offered ? state : undefined;
}

function LoadedList<T>({ state, empty, children }: { state: Loaded<T> | undefined; empty: string; children: (items: readonly T[]) => JSX.Element }) {
  const styles = useStyles();
  if (state === undefined) return <Body1 className={styles.muted}>{empty}</Body1>;
  if (state.status === 'loading') return <Spinner size="tiny" />;
  if (state.status === 'failed') {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{state.message}</MessageBarBody>
      </MessageBar>
    );
  }
  return state.items.length === 0 ? <Body1 className={styles.muted}>{empty}</Body1> : children(state.items);
}

function Alerts({ dataset }: { dataset: Dataset }) {
  const styles = useStyles();
  const { client } = useRuntime();
  const state = useLinked<DatasetAlert>(dataset, REL.alerts, (signal) => datasetAlerts(client, dataset, { signal }));
  return (
    <div className={styles.list}>
      <LoadedList state={state} empty={NO_ALERTS}>
      {(alerts) => (
        <ul className={styles.list}>
          {alerts.map((alert, index) => (
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
  const { client } = useRuntime();
  const state = useLinked<Dataset>(dataset, REL.related, (signal) => relatedDatasets(client, dataset, { signal }));
  return (
    <LoadedList state={state} empty="No related datasets.">
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
