import {
  Body1,
  Button,
  Caption1,
  Card,
  makeStyles,
  Menu,
  MenuItemRadio,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  mergeClasses,
  Spinner,
  Subtitle2,
  Switch,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkRegular, CheckmarkCircleRegular, DeleteRegular, FilterRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { hasLink } from '../../../domain/hal';
import { embeddedOf, formatNotificationTime, groupByDay, INBOX_MOBILE_MAX_WIDTH, INBOX_TEXT, notificationTarget, routableObject, shortCommitId, typeLabel } from '../../../domain/inbox';
import { routeFor, ROUTE_LEVEL_TEXT, ROUTE_LEVELS, type RouteLevel } from '../../../domain/noiseControl';
import { REL } from '../../../domain/relations';
import { labReturnPath } from '../../../domain/routes';
import type { Notification, NotificationSettings, Workspace } from '../../../domain/resources';
import { selectBusyId, selectCanLoadMore, selectCanMarkAllRead } from '../../../machines/inbox/inbox.machine';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { peopleMachines } from '../../machineAreas/people';
import { useWorkspace } from '../../shell/useWorkspace';
import { useWindowWidth } from '../../components/useScreenSize';

const useStyles = makeStyles({
  settings: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalL, marginBottom: tokens.spacingVerticalM },
  // Padding on a wrapper: the heading's own margin is reset by Fluent's Text.
  day: { paddingTop: tokens.spacingVerticalL, paddingBottom: tokens.spacingVerticalS },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  row: { display: 'flex', flexDirection: 'row', alignItems: 'center', gap: tokens.spacingHorizontalM, padding: tokens.spacingHorizontalM, touchAction: 'pan-y' },
  unread: { borderLeft: `4px solid ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  // A transparent border keeps read and unread text aligned.
  read: { color: tokens.colorNeutralForeground3, borderLeft: '4px solid transparent' },
  main: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0, flexGrow: 1, cursor: 'pointer', textAlign: 'left', background: 'none', border: 'none', padding: 0, color: 'inherit', font: 'inherit' },
  message: { overflowWrap: 'anywhere' },
  bold: { fontWeight: tokens.fontWeightSemibold },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, flexShrink: 0 },
  more: { marginTop: tokens.spacingVerticalL, display: 'flex', justifyContent: 'center' },
});

/** The mobile layout applies at 768 px or less (spec 002 §2). */
const useMobile = () => useWindowWidth() <= INBOX_MOBILE_MAX_WIDTH;

/** /l/{workspaceId}/notifications (spec 002 §2 'Notifications inbox'; issue 12 noise control). */
export default function NotificationsPage() {
  const workspace = useWorkspace();
  return <Inbox key={workspace.id} workspace={workspace} />;
}

function Inbox({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(peopleMachines);
  const mobile = useMobile();
  const actor = useActorRef(machines.inbox);
  const items = useSelector(actor, (s) => s.context.items);
  const loaded = useSelector(actor, (s) => s.context.page !== null);
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const error = useSelector(actor, (s) => s.context.error);
  const loadingMore = useSelector(actor, (s) => s.matches('loadingMore'));
  const canLoadMore = useSelector(actor, selectCanLoadMore);
  const canMarkAllRead = useSelector(actor, selectCanMarkAllRead);
  const markingAll = useSelector(actor, (s) => s.matches('resolvingAll'));
  const busyId = useSelector(actor, selectBusyId);
  const settings = useSelector(actor, (s) => s.context.settings);
  const savingSettings = useSelector(actor, (s) => s.matches('savingSettings'));

  const labReturnTo = labReturnPath(useLocation().state);
  const open = (n: Notification) => actor.send({ type: 'user.open', notification: n, target: notificationTarget(n, workspace.id) ?? null });

  return (
    <section data-view="Notifications" aria-label="Notifications">
      <PageHeader
        title="Notifications"
        actions={
          <>
            {/* notifications are the app's page (spec 000 §2.1): opened from the Lab, the way back is offered */}
            {labReturnTo !== null && <Link to={labReturnTo}>Back to the Lab</Link>}
            {(canMarkAllRead || markingAll) && (
              <Button icon={<CheckmarkCircleRegular />} disabled={markingAll} onClick={() => actor.send({ type: 'user.markAllRead' })}>
                Mark all read
              </Button>
            )}
          </>
        }
      />
      {settings && <NoiseSettings settings={settings} disabled={savingSettings || !hasLink(settings, REL.updateNotificationSettings)} onChange={(mentionsOnly, digest) => actor.send({ type: 'user.saveSettings', mentionsOnly, digest })} />}
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
      {!loaded ? (
        !failed && <Spinner label="Loading notifications" />
      ) : items.length === 0 ? (
        <EmptyState>{INBOX_TEXT.empty}</EmptyState>
      ) : (
        groupByDay(items).map((group) => (
          <div key={group.day} role="group" aria-label={group.day}>
            <div className={styles.day}>
              <Subtitle2 as="h2">{group.day}</Subtitle2>
            </div>
            <div className={styles.list} role="list">
              {group.items.map((n) => (
                <NotificationRow
                  key={n.id}
                  notification={n}
                  mobile={mobile}
                  busy={busyId === n.id}
                  settings={settings}
                  onOpen={() => open(n)}
                  onMarkRead={() => actor.send({ type: 'user.markRead', notification: n })}
                  onDelete={() => actor.send({ type: 'user.delete', notification: n })}
                  onRoute={(level) => {
                    const object = routableObject(n);
                    if (object) actor.send({ type: 'user.route', objectType: object.objectType, objectId: object.objectId, level });
                  }}
                />
              ))}
            </div>
          </div>
        ))
      )}
      {canLoadMore && (
        <div className={styles.more}>
          <Button disabled={loadingMore} onClick={() => actor.send({ type: 'user.loadMore' })}>
            {loadingMore ? <Spinner size="tiny" label="Loading" /> : INBOX_TEXT.loadMore}
          </Button>
        </div>
      )}
    </section>
  );
}

function NoiseSettings({ settings, disabled, onChange }: { settings: NotificationSettings; disabled: boolean; onChange: (mentionsOnly: boolean, digest: boolean) => void }) {
  const styles = useStyles();
  return (
    <div className={styles.settings} role="group" aria-label="Notification settings">
      <Switch label="Mentions and invitations only" checked={settings.mentionsOnly} disabled={disabled} onChange={(_, data) => onChange(data.checked, settings.digest)} />
      <Switch label="Daily digest email instead" checked={settings.digest} disabled={disabled} onChange={(_, data) => onChange(settings.mentionsOnly, data.checked)} />
    </div>
  );
}

const DEFAULT_ROUTE = 'DEFAULT';
const SWIPE_PX = 60;

interface RowProps {
  notification: Notification;
  mobile: boolean;
  busy: boolean;
  settings: NotificationSettings | null;
  onOpen: () => void;
  onMarkRead: () => void;
  onDelete: () => void;
  onRoute: (level: RouteLevel | undefined) => void;
}

/**
 * One notification. At 768 px or less the actions are hidden until the row is swiped left (a swipe
 * right hides them again); wider screens always show them.
 */
function NotificationRow({ notification: n, mobile, busy, settings, onOpen, onMarkRead, onDelete, onRoute }: RowProps) {
  const styles = useStyles();
  const [revealed, setRevealed] = useState(false);
  const startX = useRef<number | null>(null);
  const object = routableObject(n);
  const route = object && settings ? routeFor(settings.routes, { datasetId: object.objectType === 'DATASET' ? object.objectId : null, pipelineId: object.objectType === 'PIPELINE' ? object.objectId : null, isError: false, direct: false }) : undefined;
  const commit = shortCommitId(embeddedOf(n).job?.commitId);
  const showActions = !mobile || revealed;
  return (
    <Card
      className={mergeClasses(styles.row, n.resolved ? styles.read : styles.unread)}
      role="listitem"
      aria-label={`${typeLabel(n.type)}${n.resolved ? '' : ' (unread)'}`}
      data-unread={n.resolved ? undefined : 'true'}
      onTouchStart={(event) => (startX.current = event.touches[0]?.clientX ?? null)}
      onTouchEnd={(event) => {
        const start = startX.current;
        const end = event.changedTouches[0]?.clientX;
        startX.current = null;
        if (start === null || end === undefined) return;
        if (end - start < -SWIPE_PX) setRevealed(true);
        else if (end - start > SWIPE_PX) setRevealed(false);
      }}
    >
      <button type="button" className={styles.main} onClick={onOpen}>
        <Caption1>
          {typeLabel(n.type)} · {formatNotificationTime(n.created)}
          {commit !== '' && <> · {commit}</>}
        </Caption1>
        <Body1 className={mergeClasses(styles.message, !n.resolved && styles.bold)}>{n.message ?? ''}</Body1>
        {n.actor?.name && <Caption1>{n.actor.name}</Caption1>}
      </button>
      {busy && <Spinner size="tiny" />}
      {showActions && (
        <div className={styles.actions}>
          {hasLink(n, REL.resolveNotification) && <Button appearance="subtle" icon={<CheckmarkRegular />} aria-label="Mark read" title="Mark read" disabled={busy} onClick={onMarkRead} />}
          {object && settings && (
            <Menu
              checkedValues={{ route: [route?.level ?? DEFAULT_ROUTE] }}
              onCheckedValueChange={(_, data) => {
                const value = data.checkedItems[0];
                onRoute(value === DEFAULT_ROUTE || value === undefined ? undefined : (value as RouteLevel));
              }}
            >
              <MenuTrigger disableButtonEnhancement>
                <Button appearance="subtle" icon={<FilterRegular />} aria-label={`Notify me about ${object.name}`} title={`Notify me about ${object.name}`} />
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  <MenuItemRadio name="route" value={DEFAULT_ROUTE}>
                    As my settings say
                  </MenuItemRadio>
                  {ROUTE_LEVELS.map((level) => (
                    <MenuItemRadio key={level} name="route" value={level}>
                      {ROUTE_LEVEL_TEXT[level]}
                    </MenuItemRadio>
                  ))}
                </MenuList>
              </MenuPopover>
            </Menu>
          )}
          {hasLink(n, REL.deleteNotification) && <Button appearance="subtle" icon={<DeleteRegular />} aria-label="Delete" title="Delete" disabled={busy} onClick={onDelete} />}
        </div>
      )}
    </Card>
  );
}
