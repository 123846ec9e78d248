import { Body1, Button, makeStyles, SearchBox, Subtitle1, Subtitle2, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { firstDatasetSteps } from '../../../domain/firstRun';
import { isWorkspaceAdmin } from '../../../domain/permissions';
import type { Workspace } from '../../../domain/resources';
import { pathTo } from '../../../domain/routes';
import { feedSearchTarget, stripQuotes } from '../../../domain/searchQuery';
import type { FeedSource } from '../../../machines/feed/feed.machine';
import { PageHeader } from '../../components/PageHeader';
import { useWorkspace } from '../../shell/useWorkspace';
import { DatasetFeed } from '../../components/feed/DatasetFeed';
import { InAppLink } from '../../components/InAppLink';
import { FIRST_DATASET_ADMIN, FIRST_DATASET_LINKS, FIRST_DATASET_MEMBER, NO_DATASETS_YET, NO_MATCHES } from '../../components/feed/texts';
import { useSearchValue } from '../../shell/useSearchValue';

const useStyles = makeStyles({
  page: { maxWidth: '880px' },
  search: { display: 'flex', gap: tokens.spacingHorizontalS, marginBottom: tokens.spacingVerticalL, flexWrap: 'wrap' },
  searchBox: { flexGrow: 1, minWidth: 0, maxWidth: 'none' },
  query: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, marginBottom: tokens.spacingVerticalM, flexWrap: 'wrap' },
  phrase: { overflowWrap: 'anywhere', margin: 0 },
  next: { display: 'flex', gap: tokens.spacingHorizontalL, flexWrap: 'wrap', justifyContent: 'center' },
});

/** /l/{ws}/feed (view Home): the workspace's feed, or with ?search="text" a search of it. */
export default function FeedPage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  const searchValue = useSearchValue();
  const navigate = useNavigate();
  const phrase = stripQuotes(searchValue);

  const source: FeedSource = phrase === '' ? { kind: 'feed', workspaceId: workspace.id } : { kind: 'search', workspaceId: workspace.id, q: phrase };
  const feedPath = pathTo('feed', { workspaceId: workspace.id });

  return (
    <section data-view="Home" aria-label="Home" className={styles.page}>
      <PageHeader title="Home" />
      {/* Keyed by the phrase: the box shows what the URL searches for after any navigation. */}
      <SearchForm key={phrase} workspaceId={workspace.id} phrase={phrase} />
      {phrase !== '' && (
        <div className={styles.query}>
          <Subtitle2 as="h2" className={styles.phrase}>
            Results for “{phrase}”
          </Subtitle2>
          <Button
            size="small"
            appearance="subtle"
            icon={<DismissRegular />}
            onClick={() => void navigate(feedPath)}
          >
            Clear search
          </Button>
        </div>
      )}
      <DatasetFeed
        key={`${workspace.id}\n${source.kind}\n${phrase}`}
        workspaceId={workspace.id}
        source={source}
        showCount={phrase !== ''}
        empty={phrase === '' ? <FirstDataset workspace={workspace} /> : <Body1>{NO_MATCHES}</Body1>}
      />
    </section>
  );
}

/** An empty home (not an empty search): the next step, by role, instead of 'no matches'. The feed draws the box. */
function FirstDataset({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  return (
    <>
      <Subtitle1 as="h2">{NO_DATASETS_YET}</Subtitle1>
      <Body1>{isWorkspaceAdmin(workspace) ? FIRST_DATASET_ADMIN : FIRST_DATASET_MEMBER}</Body1>
      <div className={styles.next}>
        {firstDatasetSteps(workspace).map((step) => (
          <InAppLink key={step.kind} to={step.path}>
            {FIRST_DATASET_LINKS[step.kind]}
          </InAppLink>
        ))}
      </div>
    </>
  );
}

/** The search form outside the toolbar: it searches the feed (spec 000 §2.3). */
function SearchForm({ workspaceId, phrase }: { workspaceId: string; phrase: string }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const [text, setText] = useState(phrase);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void navigate(feedSearchTarget(workspaceId, text));
  };
  return (
    <form role="search" className={styles.search} onSubmit={onSubmit}>
      <SearchBox
        className={styles.searchBox}
        aria-label="Search datasets"
        placeholder="Search datasets"
        value={text}
        onChange={(_, data) => setText(data.value)}
      />
      <Button type="submit" appearance="primary">
        Search
      </Button>
    </form>
  );
}
