import { Badge, Body1, Button, Caption1, Card, Link, makeStyles, MessageBar, MessageBarActions, MessageBarBody, Spinner, tokens } from '@fluentui/react-components';
import {
  CheckmarkCircleFilled,
  CircleRegular,
  DatabaseRegular,
  DataUsageRegular,
  DismissRegular,
  DocumentRegular,
  FlowRegular,
  PeopleTeamRegular,
  TaskListSquareLtrRegular,
} from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import type { ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Job, Workspace } from '../../domain/resources';
import { isTaskInProgress, shortCommitId, taskStatusLabel, taskTarget, taskTitle } from '../../domain/setupTasks';
import { EmptyState } from './EmptyState';
import { useMachines } from '../MachinesProvider';
import { setupTasksMachines } from '../machineAreas/setupTasks';

const useStyles = makeStyles({
  list: { display: 'grid', gap: tokens.spacingVerticalM, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' },
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalL },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  icon: { fontSize: '28px', color: tokens.colorBrandForeground1, flexShrink: 0 },
  title: { flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' },
  done: { color: tokens.colorPaletteGreenForeground1, fontSize: '20px', flexShrink: 0 },
  open: { color: tokens.colorNeutralForeground3, fontSize: '20px', flexShrink: 0 },
  meta: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  commit: { fontFamily: tokens.fontFamilyMonospace },
  link: { color: tokens.colorBrandForegroundLink, fontWeight: tokens.fontWeightSemibold, ':hover': { color: tokens.colorBrandForegroundLinkHover } },
  actions: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalS, marginTop: 'auto' },
});

const ICONS: Readonly<Record<string, ReactElement>> = {
  PROFILE_IMPORT: <DataUsageRegular />,
  PROFILE_COLLABORATE: <PeopleTeamRegular />,
  PROFILE_PUBLISH: <DocumentRegular />,
  PROFILE_CONFIGURE_PIPELINE: <FlowRegular />,
  PROFILE_CONFIGURE_DATASTORE: <DatabaseRegular />,
};

/** The workspace's setup tasks as cards (spec 001 §2–§4); shared by the Lab, the app area and onboarding step 3. */
export function SetupTaskList({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(setupTasksMachines);
  const actor = useActorRef(machines.setupTasks, { input: { workspace } });
  const tasks = useSelector(actor, (s) => s.context.tasks);
  const error = useSelector(actor, (s) => s.context.error);
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const dismissingId = useSelector(actor, (s) => (s.matches('dismissing') ? s.context.target?.id : undefined));

  return (
    <>
      {error !== null && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
          {failed && (
            <MessageBarActions>
              <Button onClick={() => actor.send({ type: 'user.retry' })}>Retry</Button>
            </MessageBarActions>
          )}
        </MessageBar>
      )}
      {tasks === null ? (
        !failed && <Spinner label="Loading setup tasks" />
      ) : tasks.length === 0 ? (
        <EmptyState>No setup tasks: this workspace is all set.</EmptyState>
      ) : (
        <div className={styles.list} role="list" aria-label="Setup tasks">
          {tasks.map((task) => (
            <TaskCard key={task.id} task={task} workspaceId={workspace.id} dismissing={dismissingId === task.id} busy={dismissingId !== undefined} onDismiss={() => actor.send({ type: 'user.dismiss', task })} />
          ))}
        </div>
      )}
    </>
  );
}

function TaskCard({ task, workspaceId, dismissing, busy, onDismiss }: { task: Job; workspaceId: string; dismissing: boolean; busy: boolean; onDismiss: () => void }) {
  const styles = useStyles();
  const title = taskTitle(task.type);
  const inProgress = isTaskInProgress(task.status);
  const commit = shortCommitId(task.commitId);
  const subject = (task._embedded?.pipeline ?? task._embedded?.datastore)?.name;
  const target = taskTarget(task, workspaceId);
  return (
    <Card className={styles.card} role="listitem" aria-label={title} data-task={task.type} data-status={task.status}>
      <div className={styles.head}>
        <span className={styles.icon}>{ICONS[task.type] ?? <TaskListSquareLtrRegular />}</span>
        <Body1 className={styles.title}>
          <strong>{title}</strong>
        </Body1>
        {/* Spec 001 §4: a completed task shows a tick; RUNNING and QUEUED are in progress. */}
        {inProgress ? <CircleRegular className={styles.open} aria-label="In progress" /> : <CheckmarkCircleFilled className={styles.done} aria-label="Completed" />}
      </div>
      {subject && <Caption1 className={styles.meta}>{subject}</Caption1>}
      <div className={styles.head}>
        <Badge appearance="outline" color={inProgress ? 'informative' : task.status === 'COMPLETE' ? 'success' : 'danger'} data-task-status={task.status}>
          {taskStatusLabel(task.status)}
        </Badge>
        {commit && (
          <Caption1 className={styles.meta}>
            Commit <span className={styles.commit} data-commit>{commit}</span>
          </Caption1>
        )}
      </div>
      <div className={styles.actions}>
        {target.kind === 'internal' && (
          <RouterLink to={target.path} className={styles.link}>
            {inProgress ? 'Start' : 'Open'}
          </RouterLink>
        )}
        {target.kind === 'internal' && target.docs !== undefined && (
          <Link href={target.docs} target="_blank" rel="noopener noreferrer">
            Read how to publish
          </Link>
        )}
        {target.kind === 'external' && (
          <Link href={target.href} target="_blank" rel="noopener noreferrer">
            Read how to publish
          </Link>
        )}
        {target.kind === 'none' && <span />}
        {hasLink(task, REL.deleteJob) && (
          <Button appearance="subtle" icon={dismissing ? <Spinner size="extra-tiny" /> : <DismissRegular />} disabled={busy} onClick={onDismiss} aria-label={`Dismiss ${title}`}>
            Dismiss
          </Button>
        )}
      </div>
    </Card>
  );
}
