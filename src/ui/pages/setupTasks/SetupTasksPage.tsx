import { makeStyles, tokens } from '@fluentui/react-components';
import { PageHeader } from '../../components/PageHeader';
import { useWorkspace } from '../../shell/useWorkspace';
import { SetupTaskList } from '../../components/SetupTaskList';

const useStyles = makeStyles({ page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM } });

/** /lab/{workspaceId}/setupTasks and /l/{workspaceId}/setupTasks, view 'Setup Tasks' (spec 001 §2). Admins only (RequireAdmin). */
export default function SetupTasksPage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  return (
    <section data-view="Setup Tasks" aria-label="Setup tasks" className={styles.page}>
      <PageHeader title="Setup Tasks" />
      <SetupTaskList key={workspace.id} workspace={workspace} />
    </section>
  );
}
