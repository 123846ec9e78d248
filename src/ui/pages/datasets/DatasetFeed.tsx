import { EmptyState } from '../../components/EmptyState';
import {
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, ArrowDownRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { selectEmpty, selectFirstLoad, selectHasMore, selectSlow, selectTotal, type FeedSource } from '../../../machines/feed/feed.machine';
import { useMachines } from '../../MachinesProvider';
import { useRuntime } from '../../runtime';
import { DatasetCard } from './DatasetCard';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  toolbar: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM, minHeight: '32px' },
  muted: { color: tokens.colorNeutralForeground3 },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, margin: 0, padding: 0, listStyleType: 'none' },
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
};

/**
 * A paged list of datasets (feed machine): placeholder cards, the list, Load More while the page
 * has a next link. Give it a `key` that changes with the query: a new query is a new list.
 */
export function DatasetFeed({ workspaceId, source, empty, showCount = false }: DatasetFeedProps) {
  const styles = useStyles();
  const { config } = useRuntime();
  const machines = useMachines();
  const feed = useActorRef(machines.feed, { input: { source, loadTimeoutMs: config.placeholderLoadTimeout } });

  const items = useSelector(feed, (s) => s.context.items);
  const firstLoad = useSelector(feed, selectFirstLoad);
  const slow = useSelector(feed, selectSlow);
  const reloading = useSelector(feed, (s) => s.matches('loading') && s.context.items.length > 0);
  const isEmpty = useSelector(feed, selectEmpty);
  const hasMore = useSelector(feed, selectHasMore);
  const loadingMore = useSelector(feed, (s) => s.matches('loadingMore'));
  const total = useSelector(feed, selectTotal);
  const error = useSelector(feed, (s) => (s.matches('failed') ? s.context.error : null));
  const moreError = useSelector(feed, (s) => s.context.moreError);
  const answered = useSelector(feed, (s) => s.matches('ready') || s.matches('loadingMore'));

  return (
    <div className={styles.root} aria-busy={firstLoad || reloading || loadingMore}>
      {answered && !isEmpty && (
        <div className={styles.toolbar}>
          <Caption1 className={styles.muted} role="status">
            {showCount ? `${total} ${total === 1 ? 'result' : 'results'}` : `Showing ${items.length} of ${total}`}
          </Caption1>
          <Button appearance="subtle" size="small" icon={<ArrowClockwiseRegular />} onClick={() => feed.send({ type: 'user.reload' })}>
            Reload
          </Button>
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
        <ul className={styles.list} aria-label="Datasets">
          {items.map((dataset) => (
            <li key={dataset.id}>
              <DatasetCard workspaceId={workspaceId} dataset={dataset} />
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
