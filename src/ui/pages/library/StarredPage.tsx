import { Body1, makeStyles } from '@fluentui/react-components';
import { LIBRARY_TEXT, pageTitle } from '../../../domain/library';
import { PageHeader } from '../../components/PageHeader';
import { useWorkspace } from '../../shell/useWorkspace';
import { DatasetFeed } from '../../components/feed/DatasetFeed';

const useStyles = makeStyles({ page: { maxWidth: '880px' } });

/** /l/{ws}/starred (spec 002 Starred): the datasets the caller starred, the latest first. */
export default function StarredPage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  const title = pageTitle(workspace, 'starred');
  return (
    <section data-view="Starred" aria-label={title} className={styles.page}>
      <PageHeader title={title} />
      <DatasetFeed key={workspace.id} workspaceId={workspace.id} source={{ kind: 'liked', workspaceId: workspace.id }} empty={<Body1>{LIBRARY_TEXT.noStarred}</Body1>} />
    </section>
  );
}
