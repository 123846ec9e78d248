import { Body1, makeStyles, MessageBar, MessageBarBody, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { lazy, Suspense } from 'react';
import { appProperty } from '../../../domain/appProperties';
import type { Workspace } from '../../../domain/resources';
import { PageHeader } from '../../components/PageHeader';
import { useHelpDescription } from '../../data/datasets';
import type { QueryState } from '../../data/useQuery';
import { useCurrentWorkspace } from '../../shell/useWorkspace';

const Markdown = lazy(() => import('../../components/Markdown'));

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '760px', overflowWrap: 'anywhere' },
});

type State = { status: 'loading' } | { status: 'dataset'; description: string } | { status: 'fixed'; error?: string };

/** No alias or no such dataset: the fixed help; a failed read: the fixed help with why. */
function helpState(read: QueryState<{ description: string } | { missing: true }>): State {
  switch (read.status) {
    case 'idle':
      return { status: 'fixed' };
    case 'loading':
      return { status: 'loading' };
    case 'failed':
      return { status: 'fixed', error: read.message };
    case 'ready':
      return 'missing' in read.data ? { status: 'fixed' } : { status: 'dataset', description: read.data.description };
  }
}

/** /l/{workspaceId}/help: the HELP_DATASET_ALIAS dataset's description as markdown, else the fixed help (also on a 404). */
export default function HelpPage() {
  const workspace = useCurrentWorkspace();
  return workspace === undefined ? null : <Help key={workspace.id} workspace={workspace} />;
}

function Help({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const alias = appProperty(workspace, 'HELP_DATASET_ALIAS')?.trim() ?? '';
  const title = appProperty(workspace, 'HELP_PAGE_TITLE')?.trim() || 'Help';
  const help = useHelpDescription(workspace.id, alias);
  const state = helpState(help.state);

  return (
    <>
      <PageHeader title={title} />
      <div className={styles.body}>
        {state.status === 'loading' && <Spinner size="small" label="Loading help" />}
        {state.status === 'dataset' && (
          <Suspense fallback={<Spinner size="small" />}>
            <Markdown text={state.description} workspaceId={workspace.id} />
          </Suspense>
        )}
        {state.status === 'fixed' && (
          <>
            {state.error !== undefined && (
              <MessageBar intent="warning">
                <MessageBarBody>{state.error}</MessageBarBody>
              </MessageBar>
            )}
            <FixedHelp />
          </>
        )}
      </div>
    </>
  );
}

/** The help shown when the workspace names no help dataset or it is not found. */
function FixedHelp() {
  return (
    <>
      <Body1>This is your workspace's catalogue of datasets: charts, tables and notes your team publishes from its data.</Body1>
      <Subtitle2 as="h2">Find data</Subtitle2>
      <Body1>Search from the toolbar: words find titles and descriptions even with a typo, tag:name finds a tag, and in:channel looks in one channel. Explore shows every tag.</Body1>
      <Subtitle2 as="h2">Follow data</Subtitle2>
      <Body1>Star a dataset to find it under Starred. Watch it for alerts or for all activity: alerts and refreshes of watched datasets arrive in your notifications and your news.</Body1>
      <Subtitle2 as="h2">Talk about data</Subtitle2>
      <Body1>Comment on a dataset, reply, and mention a colleague with @ to let them know.</Body1>
    </>
  );
}
