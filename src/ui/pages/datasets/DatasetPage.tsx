import {
  Avatar,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, ArrowLeftRegular, DismissRegular, DocumentSearchRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useHref } from 'react-router-dom';
import { DATASET_DELETED, datasetSource, datasetViewTabs } from '../../../domain/datasetPage';
import { hasLink } from '../../../domain/hal';
import { REL } from '../../../domain/relations';
import type { Dataset, Workspace } from '../../../domain/resources';
import { pathTo } from '../../../domain/routes';
import { useMachines } from '../../MachinesProvider';
import { datasetPageMachines } from '../../machineAreas/datasetPage';
import { useRuntime } from '../../runtime';
import { useSession } from '../../shell/session';
import { useRouteParams } from '../../shell/useRoute';
import { useWorkspace } from '../../shell/useWorkspace';
import { DatasetStats, DatasetTags, datasetRoute } from '../../components/feed/DatasetCard';
import { InAppLink } from '../../components/InAppLink';
import { ActionBar, type ViewMode } from './page/ActionBar';
import type { DatasetPageActor } from './page/datasetPageActor';
import { Description } from './page/Description';
import { Freshness } from './page/Freshness';
import { Lineage } from './page/Lineage';
import { RendererBoundary } from './page/RendererBoundary';
import { SidePanel } from './page/SidePanel';
import { Visualisation } from '../../components/visualisation/Visualisation';

const useStyles = makeStyles({
  page: { maxWidth: '1280px', minWidth: 0 },
  crumbs: { marginBottom: tokens.spacingVerticalM },
  back: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  layout: {
    display: 'grid',
    gap: tokens.spacingHorizontalXL,
    gridTemplateColumns: 'minmax(0, 1fr)',
    alignItems: 'start',
    '@media (min-width: 1024px)': { gridTemplateColumns: 'minmax(0, 1fr) minmax(280px, 340px)' },
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalXL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    minWidth: 0,
    '@media (max-width: 767px)': { padding: tokens.spacingHorizontalL },
  },
  heading: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  title: { margin: 0, overflowWrap: 'anywhere' },
  source: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, color: tokens.colorNeutralForeground2 },
  meta: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  visual: { minWidth: 0, minHeight: '120px' },
  notFound: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalXL}`,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke2}`,
    textAlign: 'center',
  },
  notFoundIcon: { fontSize: '40px', color: tokens.colorNeutralForeground3 },
  notFoundText: { overflowWrap: 'anywhere', margin: 0 },
  skeleton: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  skeletonTitle: { width: '50%' },
  skeletonShort: { width: '65%' },
});

/** /l/{ws}/dataset/* (spec 002 Dataset page): the alias may contain slashes, hence the splat. */
export default function DatasetPage() {
  const workspace = useWorkspace();
  const idOrAlias = useRouteParams('dataset')?.idOrAlias ?? '';
  return <DatasetView key={`${workspace.id}\n${idOrAlias}`} workspace={workspace} idOrAlias={idOrAlias} />;
}

function DatasetView({ workspace, idOrAlias }: { workspace: Workspace; idOrAlias: string }) {
  const styles = useStyles();
  const machines = useMachines(datasetPageMachines);
  const { profile } = useSession();
  const actor = useActorRef(machines.datasetPage, { input: { workspaceId: workspace.id, idOrAlias, viewer: { id: profile.id, email: profile.email } } });
  const status = useSelector(actor, (s) => (s.matches('ready') ? 'ready' : typeof s.value === 'string' ? s.value : 'ready'));
  const dataset = useSelector(actor, (s) => s.context.dataset);
  const loadError = useSelector(actor, (s) => s.context.loadError);
  const homePath = pathTo('feed', { workspaceId: workspace.id });

  return (
    <section data-view="Dataset" aria-label="Dataset" className={styles.page}>
      <nav aria-label="Breadcrumb" className={styles.crumbs}>
        <InAppLink to={homePath} className={styles.back}>
          <ArrowLeftRegular aria-hidden />
          Home
        </InAppLink>
      </nav>

      {status === 'loading' && <DatasetSkeleton />}

      {status === 'notFound' && (
        <div className={styles.notFound} role="status">
          <DocumentSearchRegular className={styles.notFoundIcon} aria-hidden />
          <Subtitle2 as="h1" className={styles.notFoundText}>
            {`Dataset not found. ${idOrAlias}`}
          </Subtitle2>
          <InAppLink to={homePath}>Back to Home</InAppLink>
        </div>
      )}

      {status === 'failed' && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{loadError}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" icon={<ArrowClockwiseRegular />} onClick={() => actor.send({ type: 'user.retry' })}>
              Retry
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}

      {(status === 'deleted' || status === 'gone') && (
        <MessageBar intent="success" role="status">
          <MessageBarBody>{DATASET_DELETED}</MessageBarBody>
        </MessageBar>
      )}

      {status === 'ready' && dataset !== null && <DatasetDetails actor={actor} workspace={workspace} dataset={dataset} />}
    </section>
  );
}

function DatasetDetails({ actor, workspace, dataset }: { actor: DatasetPageActor; workspace: Workspace; dataset: Dataset }) {
  const styles = useStyles();
  const { reporter } = useRuntime();
  const rows = useSelector(actor, (s) => s.context.rows);
  const rowsError = useSelector(actor, (s) => s.context.rowsError);
  const actionError = useSelector(actor, (s) => (s.matches({ ready: { actions: 'idle' } }) ? s.context.error : null));
  const [mode, setMode] = useState<ViewMode>('chart');
  const [exportError, setExportError] = useState<string | null>(null);
  const source = datasetSource(dataset);
  const tabs = datasetViewTabs(workspace);
  const shareHref = useHref(datasetRoute(workspace.id, dataset));
  const shareUrl = new URL(shareHref, window.location.origin).href;
  const error = actionError ?? exportError;

  useEffect(() => {
    const appTitle = document.title.split(' · ').pop() ?? document.title;
    document.title = `${dataset.title} · ${appTitle}`;
    return () => {
      document.title = appTitle;
    };
  }, [dataset.title]);

  return (
    <div className={styles.layout}>
      <article className={styles.card} aria-label={dataset.title}>
        <header className={styles.heading}>
          <Title2 as="h1" className={styles.title}>
            {dataset.title}
          </Title2>
          <DatasetTags workspaceId={workspace.id} tags={dataset.tags} />
          {source !== undefined && (
            <div className={styles.source} aria-label="Source">
              <Avatar size={24} shape="square" color="colorful" aria-hidden name={source.name ?? source.description ?? 'Source'} {...(source.picture === undefined ? {} : { image: { src: source.picture, alt: '' } })} />
              {/* the channel by its name, then what it is about (issue 38: an initial alone named nothing) */}
              <Caption1>
                {source.name !== undefined && <strong>{source.name}</strong>}
                {source.name !== undefined && source.description !== undefined && ' · '}
                {source.description}
              </Caption1>
            </div>
          )}
          <div className={styles.meta}>
            <DatasetStats dataset={dataset} withTime />
            <Freshness freshness={dataset.freshness} workspaceId={workspace.id} canSeeJobs={hasLink(workspace, REL.jobs)} />
          </div>
        </header>

        <ActionBar actor={actor} dataset={dataset} workspace={workspace} shareUrl={shareUrl} mode={mode} onModeChange={setMode} onError={setExportError} />

        {error !== null && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{error}</MessageBarBody>
            <MessageBarActions
              containerAction={
                <Button
                  appearance="transparent"
                  aria-label="Dismiss"
                  icon={<DismissRegular />}
                  onClick={() => {
                    setExportError(null);
                    actor.send({ type: 'user.dismiss' });
                  }}
                />
              }
            />
          </MessageBar>
        )}

        <div className={styles.visual} aria-label="Visualisation">
          {rowsError === null ? (
            <RendererBoundary resetKey={`${dataset.id}\n${dataset.visualisation ?? ''}\n${mode}`} onError={(failure) => reporter.report(failure, { where: 'dataset visualisation', datasetId: dataset.id })}>
              <Visualisation dataset={dataset} rows={rows} mode={mode} datasetHref={(alias) => pathTo('dataset', { workspaceId: workspace.id, idOrAlias: alias })} />
            </RendererBoundary>
          ) : (
            <MessageBar intent="error">
              <MessageBarBody>{rowsError}</MessageBarBody>
              <MessageBarActions>
                <Button size="small" icon={<ArrowClockwiseRegular />} onClick={() => actor.send({ type: 'user.reloadRows' })}>
                  Retry
                </Button>
              </MessageBarActions>
            </MessageBar>
          )}
        </div>

        <Description actor={actor} dataset={dataset} workspaceId={workspace.id} />
        <Lineage dataset={dataset} />
      </article>
      {tabs.length > 0 && <SidePanel tabs={tabs} dataset={dataset} workspace={workspace} />}
    </div>
  );
}

function DatasetSkeleton() {
  const styles = useStyles();
  return (
    <Skeleton aria-label="Loading the dataset" className={`${styles.card} ${styles.skeleton}`}>
      <SkeletonItem size={32} className={styles.skeletonTitle} />
      <SkeletonItem size={16} className={styles.skeletonShort} />
      <SkeletonItem />
      <SkeletonItem />
      <SkeletonItem className={styles.skeletonShort} />
    </Skeleton>
  );
}

