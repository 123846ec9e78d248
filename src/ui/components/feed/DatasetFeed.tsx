import { EmptyState } from '../EmptyState';
import {
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  mergeClasses,
  Skeleton,
  SkeletonItem,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, ArrowDownRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { FeedView } from '../../../domain/explore';
import {
  fetchTimeText,
  selectEmpty,
  selectFirstLoad,
  selectError,
  selectHasMore,
  selectLoadingMore,
  selectMoreError,
  selectNewInsights,
  selectSlow,
  selectTotal,
  type FeedSource,
} from '../../../machines/feed/feed.machine';
import { useMachines } from '../../MachinesProvider';
import { feedMachines } from '../../machineAreas/feed';
import { useRuntime } from '../../runtime';
import { DatasetCard } from './DatasetCard';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  // On a phone the controls drop below the count as one row rather than squeezing it into two lines.
  toolbar: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM, minHeight: '32px' },
  muted: { color: tokens.colorNeutralForeground3 },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, margin: 0, padding: 0, listStyleType: 'none' },
  compact: { gap: tokens.spacingVerticalXS },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: tokens.spacingHorizontalM, margin: 0, padding: 0, listStyleType: 'none' },
  tools: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, marginLeft: 'auto' },
  more: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalS, paddingTop: tokens.spacingVerticalS },
  skeletonCard: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  skeletonTitle: { width: '45%' },
  skeletonShort: { width: '70%' },
});

export type DatasetFeedProps = {
  readonly workspaceId: string;
  readonly source: FeedSource;
  /** What an answered query with no datasets shows. */
  readonly empty: ReactNode;
  /** Print the number of matches above the list (search results). */
  readonly showCount?: boolean;
  /** Large cards (default), compact list rows, or a grid of cards. */
  readonly view?: FeedView;
  /** More controls beside Reload (the view switch). */
  readonly tools?: ReactNode;
};

/** How often the feed's first page is asked for again to notice new datasets. */
export const NEW_INSIGHTS_POLL_MS = 60_000;

/**
 * A paged list of datasets (feed machine): placeholder cards, the list, Load More while the page
 * has a next link. Give it a `key` that changes with the query: a new query is a new list.
 */
export function DatasetFeed({ workspaceId, source, empty, showCount = false, view = 'largCardView', tools }: DatasetFeedProps) {
  const styles = useStyles();
  const { config } = useRuntime();
  const machines = useMachines(feedMachines);
  const feed = useActorRef(machines.feed, {
    input: { source, loadTimeoutMs: config.placeholderLoadTimeout, minimumLoadMs: config.placeholderMinimumLoad, newInsightsPollMs: NEW_INSIGHTS_POLL_MS },
  });
  const fetchTime = useSelector(feed, (s) => fetchTimeText(s.context.fetchMs));
  const newInsights = useSelector(feed, selectNewInsights);

  const items = useSelector(feed, (s) => s.context.items);
  const firstLoad = useSelector(feed, selectFirstLoad);
  const slow = useSelector(feed, selectSlow);
  const reloading = useSelector(feed, (s) => (s.matches('loading') || s.matches('settling')) && s.context.items.length > 0);
  const isEmpty = useSelector(feed, selectEmpty);
  const hasMore = useSelector(feed, selectHasMore);
  const loadingMore = useSelector(feed, selectLoadingMore);
  const total = useSelector(feed, selectTotal);
  const error = useSelector(feed, selectError);
  const moreError = useSelector(feed, selectMoreError);
  const answered = useSelector(feed, (s) => s.matches('ready') || s.matches('loadingMore'));

  return (
    <div className={styles.root} aria-busy={firstLoad || reloading || loadingMore}>
      {newInsights && (
        <MessageBar intent="info">
          <MessageBarBody>New datasets have been published.</MessageBarBody>
          <MessageBarActions>
            <Button size="small" appearance="primary" icon={<ArrowClockwiseRegular />} onClick={() => feed.send({ type: 'user.reload' })}>
              New Insights
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}

      {answered && !isEmpty && (
        <div className={styles.toolbar}>
          <Caption1 className={styles.muted} role="status">
            {showCount ? `${total} ${total === 1 ? 'result' : 'results'}` : `Showing ${items.length} of ${total}`}
            {fetchTime !== null && ` in ${fetchTime}`}
          </Caption1>
          <div className={styles.tools}>
            {tools}
            <Button appearance="subtle" size="small" icon={<ArrowClockwiseRegular />} onClick={() => feed.send({ type: 'user.reload' })}>
              Reload
            </Button>
          </div>
        </div>
      )}

      {firstLoad && (
        <>
          {slow && (
            <Caption1 className={styles.muted} role="status">
              Loading is taking longer than usual…
            </Caption1>
          )}
          <FeedSkeleton />
        </>
      )}

      {error !== null && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" icon={<ArrowClockwiseRegular />} onClick={() => feed.send({ type: 'user.retry' })}>
              Retry
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}

      {isEmpty && <EmptyState>{empty}</EmptyState>}

      {items.length > 0 && (
        <ul className={view === 'gridview' ? styles.grid : mergeClasses(styles.list, view === 'listView' && styles.compact)} aria-label="Datasets" data-view-mode={view}>
          {items.map((dataset) => (
            <li key={dataset.id}>
              <DatasetCard workspaceId={workspaceId} dataset={dataset} view={view} />
            </li>
          ))}
        </ul>
      )}

      {(hasMore || moreError !== null) && (
        <div className={styles.more}>
          {moreError !== null && (
            <Body1 className={styles.muted} role="alert">
              {moreError}
            </Body1>
          )}
          {hasMore && (
            <Button
              icon={loadingMore ? <Spinner size="tiny" /> : <ArrowDownRegular />}
              disabled={loadingMore}
              onClick={() => feed.send({ type: 'user.loadMore' })}
            >
              Load More
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

function FeedSkeleton() {
  const styles = useStyles();
  return (
    <Skeleton aria-label="Loading datasets" className={styles.list}>
      {[0, 1, 2].map((card) => (
        <div key={card} className={styles.skeletonCard}>
          <SkeletonItem size={20} className={styles.skeletonTitle} />
          <SkeletonItem />
          <SkeletonItem className={styles.skeletonShort} />
        </div>
      ))}
    </Skeleton>
  );
}
