import { plainTextFromMarkdown } from '../../../domain/plainText';
import {
  Body1,
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, ArrowLeftRegular, DocumentSearchRegular } from '@fluentui/react-icons';
import { pathTo } from '../../../domain/routes';
import type { Dataset } from '../../../domain/resources';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useRouteParams } from '../../shell/useRoute';
import { useCurrentWorkspace } from '../../shell/useWorkspace';
import { DatasetStats, DatasetTags } from './DatasetCard';
import { InAppLink } from './InAppLink';
import { useDataset } from './useDataset';

const useStyles = makeStyles({
  page: { maxWidth: '880px' },
  crumbs: { marginBottom: tokens.spacingVerticalM },
  back: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalXL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    minWidth: 0,
  },
  meta: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  description: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '72ch' },
  paragraph: { margin: 0, whiteSpace: 'pre-line', overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
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
  const workspace = useCurrentWorkspace();
  const idOrAlias = useRouteParams('dataset')?.idOrAlias ?? '';
  if (workspace === undefined) return <Loading />;
  return <DatasetView key={`${workspace.id}\n${idOrAlias}`} workspaceId={workspace.id} idOrAlias={idOrAlias} />;
}

function DatasetView({ workspaceId, idOrAlias }: { workspaceId: string; idOrAlias: string }) {
  const styles = useStyles();
  const { query, retry } = useDataset(workspaceId, idOrAlias);
  const homePath = pathTo('feed', { workspaceId });

  return (
    <section data-view="Dataset" aria-label="Dataset" className={styles.page}>
      <nav aria-label="Breadcrumb" className={styles.crumbs}>
        <InAppLink to={homePath} className={styles.back}>
          <ArrowLeftRegular aria-hidden />
          Home
        </InAppLink>
      </nav>

      {query.status === 'loading' && <DatasetSkeleton />}

      {query.status === 'notFound' && (
        <div className={styles.notFound} role="status">
          <DocumentSearchRegular className={styles.notFoundIcon} aria-hidden />
          <Subtitle2 as="h1" className={styles.notFoundText}>
            {`Dataset not found. ${idOrAlias}`}
          </Subtitle2>
          <InAppLink to={homePath}>Back to Home</InAppLink>
        </div>
      )}

      {query.status === 'failed' && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{query.message}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" icon={<ArrowClockwiseRegular />} onClick={retry}>
              Retry
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}

      {query.status === 'found' && <DatasetDetails workspaceId={workspaceId} dataset={query.dataset} />}
    </section>
  );
}

function DatasetDetails({ workspaceId, dataset }: { workspaceId: string; dataset: Dataset }) {
  const styles = useStyles();
  // Plain text only: the description is user-written and is never rendered as HTML here.
  const paragraphs = plainTextFromMarkdown(dataset.description)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');

  return (
    <article aria-label={dataset.title}>
      <PageHeader title={dataset.title} />
      <div className={styles.card}>
        <div className={styles.meta}>
          <DatasetTags workspaceId={workspaceId} tags={dataset.tags} />
          <DatasetStats dataset={dataset} withTime />
        </div>
        <div className={styles.description}>
          {paragraphs.length === 0 ? (
            <Body1 className={styles.muted}>This dataset has no description yet.</Body1>
          ) : (
            paragraphs.map((paragraph, index) => (
              <Body1 as="p" key={index} className={styles.paragraph}>
                {paragraph}
              </Body1>
            ))
          )}
        </div>
      </div>
    </article>
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
