import { Body1, Button, Caption1, makeStyles, mergeClasses, MessageBar, MessageBarActions, MessageBarBody, Spinner, Subtitle1, tokens, ToggleButton } from '@fluentui/react-components';
import { ArrowClockwiseRegular, ArrowDownRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { LIBRARY_TEXT, needsReadMore, pageTitle, selectedChannel, toggledSearch, type NewsItem } from '../../../domain/library';
import { pathTo } from '../../../domain/routes';
import type { Workspace } from '../../../domain/resources';
import { readSearchParam } from '../../../domain/searchQuery';
import { selectEmpty, selectError, selectFirstLoad, selectHasMore, selectLoadingMore, selectMoreError } from '../../../machines/news/news.machine';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { libraryMachines } from '../../machineAreas/library';
import { useWorkspace } from '../../shell/useWorkspace';
import { datasetRoute } from '../../components/feed/DatasetCard';
import { DateText } from '../../components/DateText';
import { InAppLink } from '../../components/InAppLink';

const useStyles = makeStyles({
  page: { maxWidth: '880px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  chips: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, margin: 0, padding: 0, listStyleType: 'none' },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalL}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    minWidth: 0,
  },
  meta: { display: 'flex', flexWrap: 'wrap', gap: `0 ${tokens.spacingHorizontalS}`, color: tokens.colorNeutralForeground3 },
  title: { margin: 0, overflowWrap: 'anywhere' },
  text: { margin: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-line', fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  clamped: { maxHeight: '38px', overflow: 'hidden' },
  readMore: { alignSelf: 'flex-start' },
  more: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The `q` query value as the spec reads search values: decoded, '+' as space, lowercased. */
function useNewsQuery(): string {
  const raw = useLocation().search.replace(/^\?/, '').split('&').find((pair) => pair.startsWith('q='));
  return raw === undefined ? '' : readSearchParam(raw.slice(2)).trim();
}

/** /l/{ws}/news?q=in:{channel} (spec 002 News, view Home): the caller's news, always the large single view. */
export default function NewsPage() {
  const workspace = useWorkspace();
  const q = useNewsQuery();
  return <News key={`${workspace.id}\n${q}`} workspace={workspace} q={q} />;
}

function News({ workspace, q }: { workspace: Workspace; q: string }) {
  const styles = useStyles();
  const machines = useMachines(libraryMachines);
  const navigate = useNavigate();
  const news = useActorRef(machines.news, { input: { workspaceId: workspace.id, q } });
  const items = useSelector(news, (s) => s.context.items);
  const channels = useSelector(news, (s) => s.context.channels);
  const firstLoad = useSelector(news, selectFirstLoad);
  const empty = useSelector(news, selectEmpty);
  const hasMore = useSelector(news, selectHasMore);
  const loadingMore = useSelector(news, selectLoadingMore);
  const error = useSelector(news, selectError);
  const moreError = useSelector(news, selectMoreError);
  const selected = selectedChannel(q, channels);
  const title = pageTitle(workspace, 'news');
  const choose = (name: string) => {
    const next = toggledSearch(q, channels, name);
    void navigate(pathTo('news', { workspaceId: workspace.id }, next === '' ? {} : { q: next }));
  };

  return (
    <section data-view="Home" aria-label={title} className={styles.page}>
      <PageHeader title={title} actions={<Button appearance="subtle" icon={<ArrowClockwiseRegular />} onClick={() => news.send({ type: 'user.reload' })}>Reload</Button>} />
      {channels.length > 0 && (
        <div className={styles.chips} role="group" aria-label="News channels">
          {channels.map((channel) => (
            <ToggleButton key={channel.id} shape="circular" size="small" checked={selected?.name === channel.name} onClick={() => choose(channel.name)}>
              {channel.name}
            </ToggleButton>
          ))}
        </div>
      )}
      {firstLoad && <Spinner label="Loading news" />}
      {error !== null && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={() => news.send({ type: 'user.retry' })}>Retry</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {empty && <EmptyState><Body1>{LIBRARY_TEXT.noNews}</Body1></EmptyState>}
      {items.length > 0 && (
        <ul className={styles.list} aria-label="News">
          {items.map((item) => (
            <li key={item.id}>
              <NewsCard workspaceId={workspace.id} item={item} />
            </li>
          ))}
        </ul>
      )}
      {(hasMore || moreError !== null) && (
        <div className={styles.more}>
          {moreError !== null && <Body1 className={styles.muted} role="alert">{moreError}</Body1>}
          {hasMore && (
            <Button icon={loadingMore ? <Spinner size="tiny" /> : <ArrowDownRegular />} disabled={loadingMore} onClick={() => news.send({ type: 'user.loadMore' })}>
              Load More
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

/** One news item as a large card: what happened, who and when, the dataset, and the text with Read More over 38 px. */
function NewsCard({ workspaceId, item }: { workspaceId: string; item: NewsItem }) {
  const styles = useStyles();
  const dataset = item._embedded?.dataset;
  const textRef = useRef<HTMLParagraphElement>(null);
  const [overflows, setOverflows] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const text = item.message ?? '';
  useLayoutEffect(() => {
    if (textRef.current) setOverflows(needsReadMore(textRef.current.scrollHeight));
  }, [text]);
  if (!dataset) return null;
  return (
    <article className={styles.card} aria-label={dataset.title ?? 'News'}>
      <Caption1 className={styles.meta}>
        {item.actor?.name && <span>{item.actor.name}</span>}
        <DateText iso={item.created} withTime />
      </Caption1>
      <Subtitle1 as="h2" className={styles.title}>
        <InAppLink to={datasetRoute(workspaceId, dataset)}>{dataset.title}</InAppLink>
      </Subtitle1>
      <p ref={textRef} className={mergeClasses(styles.text, overflows && !expanded && styles.clamped)}>
        {text}
      </p>
      {overflows && (
        <Button appearance="transparent" size="small" className={styles.readMore} onClick={() => setExpanded((open) => !open)}>
          {expanded ? 'Read Less' : 'Read More'}
        </Button>
      )}
    </article>
  );
}
