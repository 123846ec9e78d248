import { Body1, Button, makeStyles, MessageBar, MessageBarBody, Subtitle2, Textarea, Toaster, tokens, useId } from '@fluentui/react-components';
import { AddRegular, EditRegular, TextTRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect } from 'react';
import { appProperty } from '../../../domain/appProperties';
import { hasLink } from '../../../domain/hal';
import { REL } from '../../../domain/relations';
import type { Workspace } from '../../../domain/resources';
import { snackbarMs } from '../../../domain/workspaceForm';
import { dashboardContentOf, type DashboardEditorEvent } from '../../../machines/dashboardEditor/dashboardEditor.machine';
import { PageHeader } from '../../components/PageHeader';
import { useSaveToast } from '../../components/useSaveToast';
import { useMachines } from '../../MachinesProvider';
import { dashboardMachines } from '../../machineAreas/dashboard';
import { useCurrentWorkspace } from '../../shell/useWorkspace';
import { BlockList } from './BlockList';
import { DashboardGrid } from './DashboardGrid';
import { DatasetPickerDialog } from './DatasetPickerDialog';
import { SyntaxHelp } from './SyntaxHelp';

export const DASHBOARD_EMPTY = 'This dashboard has no content yet.';
export const DASHBOARD_SAVED = 'Dashboard saved';

const useStyles = makeStyles({
  editor: {
    display: 'grid',
    gap: tokens.spacingHorizontalL,
    // the preview gets the wider side: it lays its blocks out two to a row
    gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)',
    '@media (max-width: 1024px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  pane: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  source: { fontFamily: tokens.fontFamilyMonospace, minHeight: '200px' },
  preview: { padding: tokens.spacingHorizontalM, border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium, minWidth: 0, overflowX: 'auto' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * /l/{workspaceId}/dashboard: DASHBOARD_CONTENT rendered safely as a grid of blocks; an admin
 * builds it from blocks (or edits its source) with a live preview.
 */
export default function DashboardPage() {
  const session = useCurrentWorkspace();
  return session === undefined ? null : <Dashboard key={session.id} initial={session} />;
}

function Dashboard({ initial }: { initial: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(dashboardMachines);
  const editor = useActorRef(machines.dashboardEditor, { input: { workspace: initial } });
  const workspace = useSelector(editor, (s) => s.context.workspace);
  const draft = useSelector(editor, (s) => s.context.draft);
  const blocks = useSelector(editor, (s) => s.context.blocks);
  const titles = useSelector(editor, (s) => s.context.titles);
  const picker = useSelector(editor, (s) => s.context.picker);
  const picking = useSelector(editor, (s) => s.matches({ editing: 'picking' }));
  const searching = useSelector(editor, (s) => s.matches({ editing: { picking: 'searching' } }) || s.matches({ editing: { picking: 'waiting' } }));
  const error = useSelector(editor, (s) => s.context.error);
  const saving = useSelector(editor, (s) => s.matches('saving'));
  const send = useCallback((event: DashboardEditorEvent) => editor.send(event), [editor]);
  const toasterId = useId('dashboard-toaster');
  const toast = useSaveToast(toasterId, snackbarMs(workspace));
  useEffect(() => {
    const subscription = editor.on('dashboard.saved', () => toast(DASHBOARD_SAVED));
    return () => subscription.unsubscribe();
  }, [editor, toast]);

  const title = appProperty(workspace, 'DASHBOARD_PAGE_TITLE')?.trim() || 'Dashboard';
  const content = dashboardContentOf(workspace);
  const canEdit = hasLink(workspace, REL.updateDeleteWorkspace);
  const toaster = <Toaster toasterId={toasterId} />;

  const editButton = canEdit && draft === null && (
    <Button icon={<EditRegular />} onClick={() => editor.send({ type: 'user.edit' })}>
      Edit
    </Button>
  );

  if (draft !== null) {
    return (
      <>
        {toaster}
        <PageHeader title={title} />
        <div className={styles.editor}>
          <div className={styles.pane}>
            <Subtitle2 as="h2">Blocks</Subtitle2>
            <div className={styles.actions}>
              <Button icon={<AddRegular />} disabled={saving} onClick={() => editor.send({ type: 'user.openPicker' })}>
                Add dataset
              </Button>
              <Button icon={<TextTRegular />} disabled={saving} onClick={() => editor.send({ type: 'user.addText' })}>
                Add text
              </Button>
            </div>
            <BlockList blocks={blocks} titles={titles} disabled={saving} send={send} />
            <Subtitle2 as="h2">Source</Subtitle2>
            <Textarea className={styles.source} textarea={{ className: styles.source }} value={draft} disabled={saving} onChange={(_, data) => editor.send({ type: 'user.change', value: data.value })} aria-label="Dashboard content" resize="vertical" />
            <SyntaxHelp />
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
              <DashboardGrid source={draft} workspaceId={workspace.id} />
            </div>
          </div>
        </div>
        <DatasetPickerDialog open={picking} picker={picker} busy={searching} send={send} />
      </>
    );
  }

  return (
    <>
      {toaster}
      <PageHeader title={title} actions={editButton} />
      <div className={styles.content} aria-label="Dashboard">
        {content.trim() === '' ? <Body1 className={styles.muted}>{DASHBOARD_EMPTY}</Body1> : <DashboardGrid source={content} workspaceId={workspace.id} />}
      </div>
    </>
  );
}
