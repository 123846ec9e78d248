import { Body1, Button, makeStyles, MessageBar, MessageBarBody, Subtitle2, Textarea, tokens } from '@fluentui/react-components';
import { EditRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { appProperty } from '../../../domain/appProperties';
import { hasLink } from '../../../domain/hal';
import { REL } from '../../../domain/relations';
import type { Workspace } from '../../../domain/resources';
import { dashboardContentOf } from '../../../machines/dashboardEditor/dashboardEditor.machine';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { useCurrentWorkspace } from '../../shell/useWorkspace';
import { DashboardContent } from './DashboardContent';

export const DASHBOARD_EMPTY = 'This dashboard has no content yet.';

const useStyles = makeStyles({
  editor: {
    display: 'grid',
    gap: tokens.spacingHorizontalL,
    gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
    '@media (max-width: 768px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  pane: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  source: { fontFamily: tokens.fontFamilyMonospace, minHeight: '400px' },
  preview: { padding: tokens.spacingHorizontalM, border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium, minWidth: 0, overflowX: 'auto' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** /l/{workspaceId}/dashboard: DASHBOARD_CONTENT rendered safely; an admin edits it with a live preview. */
export default function DashboardPage() {
  const session = useCurrentWorkspace();
  return session === undefined ? null : <Dashboard key={session.id} initial={session} />;
}

function Dashboard({ initial }: { initial: Workspace }) {
  const styles = useStyles();
  const machines = useMachines();
  const editor = useActorRef(machines.dashboardEditor, { input: { workspace: initial } });
  const workspace = useSelector(editor, (s) => s.context.workspace);
  const draft = useSelector(editor, (s) => s.context.draft);
  const error = useSelector(editor, (s) => s.context.error);
  const saving = useSelector(editor, (s) => s.matches('saving'));

  const title = appProperty(workspace, 'DASHBOARD_PAGE_TITLE')?.trim() || 'Dashboard';
  const content = dashboardContentOf(workspace);
  const canEdit = hasLink(workspace, REL.updateDeleteWorkspace);

  const editButton = canEdit && draft === null && (
    <Button icon={<EditRegular />} onClick={() => editor.send({ type: 'user.edit' })}>
      Edit
    </Button>
  );

  if (draft !== null) {
    return (
      <>
        <PageHeader title={title} />
        <div className={styles.editor}>
          <div className={styles.pane}>
            <Subtitle2 as="h2">Content</Subtitle2>
            <Textarea className={styles.source} textarea={{ className: styles.source }} value={draft} onChange={(_, data) => editor.send({ type: 'user.change', value: data.value })} aria-label="Dashboard content" resize="vertical" />
            {error !== null && (
              <MessageBar intent="error" role="alert">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
            <div className={styles.actions}>
              <Button appearance="primary" disabled={saving} onClick={() => editor.send({ type: 'user.save' })}>
                Save
              </Button>
              <Button disabled={saving} onClick={() => editor.send({ type: 'user.cancel' })}>
                Cancel
              </Button>
            </div>
          </div>
          <div className={styles.pane}>
            <Subtitle2 as="h2">Preview</Subtitle2>
            <div className={styles.preview} aria-label="Preview">
              <DashboardContent source={draft} workspaceId={workspace.id} />
            </div>
          </div>
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader title={title} actions={editButton} />
      <div className={styles.content} aria-label="Dashboard">
        {content.trim() === '' ? <Body1 className={styles.muted}>{DASHBOARD_EMPTY}</Body1> : <DashboardContent source={content} workspaceId={workspace.id} />}
      </div>
    </>
  );
}
