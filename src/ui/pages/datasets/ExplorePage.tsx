import { Body1, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { labHomePath } from '../../../domain/landing';
import { isWorkspaceAdmin } from '../../../domain/permissions';
import { pathTo } from '../../../domain/routes';
import { stripQuotes } from '../../../domain/searchQuery';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useCurrentWorkspace } from '../../shell/useWorkspace';
import { DatasetFeed } from './DatasetFeed';
import { InAppLink } from './InAppLink';
import { IMPORT_MORE_DATA, NO_MATCHES, REFINE_SEARCH } from './texts';
import { useSearchValue } from './useSearchValue';

const useStyles = makeStyles({
  page: { maxWidth: '880px' },
  filter: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    maxWidth: '100%',
    marginBottom: tokens.spacingVerticalM,
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
  },
  phrase: { overflowWrap: 'anywhere' },
  clear: { display: 'inline-flex', alignItems: 'center' },
});

/** /l/{ws}/explore?search=… (spec 002 Explore): search results, all datasets without a search. */
export default function ExplorePage() {
  const styles = useStyles();
  const workspace = useCurrentWorkspace();
  const phrase = stripQuotes(useSearchValue());

  if (workspace === undefined) return <Loading />;
  const admin = isWorkspaceAdmin(workspace);

  return (
    <section data-view="Explore" aria-label="Explore" className={styles.page}>
      <PageHeader title="Explore" />
      {phrase !== '' && (
        <div className={styles.filter}>
          <Body1 className={styles.phrase}>
            Searching for <strong>{phrase}</strong>
          </Body1>
          <InAppLink to={pathTo('explore', { workspaceId: workspace.id })} className={styles.clear} aria-label="Clear search">
            <DismissRegular aria-hidden />
          </InAppLink>
        </div>
      )}
      <DatasetFeed
        key={`${workspace.id}\n${phrase}`}
        workspaceId={workspace.id}
        source={{ kind: 'search', workspaceId: workspace.id, q: phrase }}
        showCount
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
