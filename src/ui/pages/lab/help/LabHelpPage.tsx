import { Body1, Card, CardHeader, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Link as RouterLink } from 'react-router-dom';
import { pathTo, type RouteName } from '../../../../domain/routes';
import { PageHeader } from '../../../components/PageHeader';
import { useWorkspace } from '../../../shell/useWorkspace';

/** What each Lab page is for, in the order of the Lab's menu. */
const PAGES: readonly { route: RouteName; title: string; text: string }[] = [
  { route: 'pipelines', title: 'Data Imports', text: 'Pipelines extract from a data source, load into a data store and optionally transform. Run them by hand or on a schedule, watch them, and read each job’s log.' },
  { route: 'dataplugins', title: 'Plugins', text: 'The plugin catalogue: the plugins installed in this workspace, the Meltano plugins you can install, and your own plugins published from a discovery.yml. Built-in plugins run on this server; the others are configured here and run in Meltano.' },
  { route: 'datastores', title: 'Data Stores', text: 'Where loaders write. Every workspace has an embedded store; add others and choose the default.' },
  { route: 'datasources', title: 'Data Sources', text: 'The extractors configured in this workspace and the pipelines that use each of them.' },
  { route: 'project', title: 'Project', text: 'The workspace’s Meltano project: its extractors, mappers, loaders, transformers and utilities, and the active environment.' },
  { route: 'labDatasets', title: 'Datasets', text: 'The datasets published from the loaded data, with their chart previews.' },
  { route: 'labChannels', title: 'Channels', text: 'The channels datasets are published to; rename and describe the ones you may change.' },
  { route: 'labSettings', title: 'Settings', text: 'The workspace’s name, domains, repository and deployment.' },
];

const useStyles = makeStyles({
  intro: { maxWidth: '760px', marginBottom: tokens.spacingVerticalL, display: 'block' },
  link: { color: tokens.colorBrandForegroundLink, textDecorationLine: 'none', ':hover': { textDecorationLine: 'underline' } },
  list: { display: 'grid', gap: tokens.spacingVerticalM, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' },
});

/** /lab/{workspaceId}/help: what the Lab does, and a way into each of its pages. */
export default function LabHelpPage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  return (
    <>
      <PageHeader title="Help" />
      <Body1 className={styles.intro}>
        The Lab is where workspace administrators bring data in: install a plugin for a source, build a pipeline that loads it into a data store, run it as jobs, and
        publish what it loaded as datasets for everyone in the workspace.
      </Body1>
      <div className={styles.list}>
        {PAGES.map((page) => (
          <Card key={page.route} aria-label={page.title}>
            <CardHeader header={<RouterLink className={styles.link} to={pathTo(page.route as 'pipelines', { workspaceId: workspace.id })}><Text weight="semibold">{page.title}</Text></RouterLink>} />
            <Body1>{page.text}</Body1>
          </Card>
        ))}
      </div>
    </>
  );
}
