import { Body1, Caption1, Card, CardHeader, makeStyles, MessageBar, MessageBarBody, Spinner, Text, tokens } from '@fluentui/react-components';
import { Link as RouterLink } from 'react-router-dom';
import { pathTo } from '../../../../domain/routes';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { useDataSources } from '../../../data/lab';
import { useWorkspace } from '../../../shell/useWorkspace';
import { WorkspaceFiles } from './WorkspaceFiles';

const useStyles = makeStyles({
  list: { display: 'grid', gap: tokens.spacingVerticalM, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' },
  link: { color: tokens.colorBrandForegroundLink, textDecorationLine: 'none', ':hover': { textDecorationLine: 'underline' } },
  pipelines: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
});

/** /lab/{workspaceId}/datasources: the workspace's extractor components, the pipelines that use them, and its files. */
export default function DataSourcesPage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  const listed = useDataSources(workspace);
  const sources = listed.state.status === 'ready' ? listed.state.data : null;
  const error = listed.state.status === 'failed' ? listed.state.message : null;

  return (
    <>
      <PageHeader title="Data Sources" />
      {error !== null && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {sources === null ? (
        error === null && <Spinner label="Loading data sources" />
      ) : sources.components.length === 0 ? (
        <EmptyState>No data sources yet. Feed me some data!</EmptyState>
      ) : (
        <div className={styles.list}>
          {sources.components.map((component) => {
            const using = sources.pipelines.filter((p) => (p.dataComponents ?? []).includes(component.name));
            const plugin = component._embedded?.dataplugin;
            return (
              <Card key={component.id} aria-label={component.name}>
                <CardHeader header={<Text weight="semibold">{component.name}</Text>} description={<Caption1>{plugin?.label ?? component.dataPlugin ?? ''}</Caption1>} />
                <div className={styles.pipelines}>
                  {using.length === 0 ? (
                    <Body1>Used by no pipeline</Body1>
                  ) : (
                    using.map((p) => (
                      <RouterLink key={p.id ?? p.name} className={styles.link} to={pathTo('pipeline', { workspaceId: workspace.id, pipelineId: p.id ?? '' })}>
                        {p.name ?? p.id}
                      </RouterLink>
                    ))
                  )}
                </div>
              </Card>
            );
          })}
        </div>
      )}
      <WorkspaceFiles workspace={workspace} />
    </>
  );
}
