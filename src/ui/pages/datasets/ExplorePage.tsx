import { Body1, makeStyles, Tab, TabList, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router-dom';
import { explorePageTitle, FEED_VIEW_LABELS, FEED_VIEWS, selectedTag, type FeedView } from '../../../domain/explore';
import { labHomePath } from '../../../domain/landing';
import { isWorkspaceAdmin } from '../../../domain/permissions';
import { pathTo } from '../../../domain/routes';
import { stripQuotes, toolbarSearchTarget } from '../../../domain/searchQuery';
import { PageHeader } from '../../components/PageHeader';
import { useWorkspace } from '../../shell/useWorkspace';
import { DatasetFeed } from '../../components/feed/DatasetFeed';
import { InAppLink } from '../../components/InAppLink';
import { TagChips } from './TagChips';
import { IMPORT_MORE_DATA, NO_MATCHES, REFINE_SEARCH } from '../../components/feed/texts';
import { useFeedView } from './useExploreLayout';
import { useSearchValue } from '../../shell/useSearchValue';

const useStyles = makeStyles({
  page: { maxWidth: '1120px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  filter: {
    display: 'inline-flex',
    alignSelf: 'flex-start',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    maxWidth: '100%',
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
  },
  phrase: { overflowWrap: 'anywhere' },
  clear: { display: 'inline-flex', alignItems: 'center' },
});

/** /l/{ws}/explore?search=… (spec 002 Explore): tag chips, then the results in the chosen view. */
export default function ExplorePage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  const phrase = stripQuotes(useSearchValue());
  const navigate = useNavigate();
  const layout = useFeedView(workspace?.id ?? '', workspace);

  const admin = isWorkspaceAdmin(workspace);
  const explorePath = pathTo('explore', { workspaceId: workspace.id });
  const tag = selectedTag(phrase);

  // Grid is not offered on small screens (spec 002 Explore).
  const offered: readonly FeedView[] = layout.small ? FEED_VIEWS.filter((v) => v !== 'gridview') : FEED_VIEWS;
  const order: readonly FeedView[] = ['largCardView', 'listView', 'gridview'];
  const viewSwitch = (
    <TabList
      size="small"
      selectedValue={layout.view}
      onTabSelect={(_, data) => layout.choose(data.value as FeedView)}
      aria-label="View"
    >
      {order
        .filter((view) => offered.includes(view))
        .map((view) => (
          <Tab key={view} value={view}>
            {FEED_VIEW_LABELS[view]}
          </Tab>
        ))}
    </TabList>
  );

  return (
    <section data-view="Explore" aria-label="Explore" className={styles.page}>
      <PageHeader title={explorePageTitle(workspace)} />
      <TagChips
        workspaceId={workspace.id}
        selected={tag}
        width={layout.width}
        onSelect={(name) => void navigate(name === undefined ? explorePath : toolbarSearchTarget(workspace.id, `tag:${name}`))}
      />
      {phrase !== '' && (
        <div className={styles.filter}>
          <Body1 className={styles.phrase}>
            Searching for <strong>{phrase}</strong>
          </Body1>
          <InAppLink to={explorePath} className={styles.clear} aria-label="Clear search">
            <DismissRegular aria-hidden />
          </InAppLink>
        </div>
      )}
      <DatasetFeed
        key={`${workspace.id}\n${phrase}`}
        workspaceId={workspace.id}
        source={{ kind: 'search', workspaceId: workspace.id, q: phrase }}
        showCount
        view={layout.view}
        tools={viewSwitch}
        empty={
          <>
            <Body1>{NO_MATCHES}</Body1>
            {admin ? <InAppLink to={labHomePath(workspace.id)}>{IMPORT_MORE_DATA}</InAppLink> : <Body1>{REFINE_SEARCH}</Body1>}
          </>
        }
      />
    </section>
  );
}
