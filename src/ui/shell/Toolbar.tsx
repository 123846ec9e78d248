import { Button, CounterBadge, makeStyles, SearchBox, Text, tokens, Tooltip } from '@fluentui/react-components';
import { AlertRegular, NavigationRegular, PersonAddRegular, SearchRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useOnNotificationsChanged } from '../notificationsChanged';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { toolbarSearchPlaceholder } from '../../domain/appProperties';
import { questionsEnabled } from '../../domain/features';
import { canInvite } from '../../domain/permissions';
import type { Workspace } from '../../domain/resources';
import { isLabLocation, pathTo } from '../../domain/routes';
import { toolbarSearchTarget, toolbarSearchText } from '../../domain/searchQuery';
import { notificationCountInput } from '../../machines/polling/polling.machine';
import { useMachines } from '../MachinesProvider';
import { shellMachines } from '../machineAreas/shell';
import { useRuntime } from '../runtime';
import { Assistant } from './Assistant';
import { ProfileMenu } from './ProfileMenu';
import { useSession } from './session';
import { useSearchShortcut } from './useSearchShortcut';
import { useRoute } from './useRoute';
import { useSearchValue } from './useSearchValue';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    height: '56px',
    padding: `0 ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    boxSizing: 'border-box',
    flexShrink: 0,
  },
  brand: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    color: 'inherit',
    textDecorationLine: 'none',
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase400,
    whiteSpace: 'nowrap',
  },
  mark: {
    width: '28px',
    height: '28px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: 'rgba(255,255,255,0.18)',
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontWeight: tokens.fontWeightBold,
  },
  search: { flexGrow: 1, display: 'flex', justifyContent: 'center', minWidth: 0 },
  searchBox: { width: '100%', maxWidth: '560px' },
  actions: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, marginLeft: 'auto', color: 'inherit' },
  iconButton: { color: tokens.colorNeutralForegroundOnBrand, ':hover': { color: tokens.colorNeutralForegroundOnBrand, backgroundColor: 'rgba(255,255,255,0.12)' }, ':hover:active': { color: tokens.colorNeutralForegroundOnBrand } },
  bell: { position: 'relative' },
  badge: { position: 'absolute', top: '2px', right: '0px', pointerEvents: 'none' },
  mobileSearch: { padding: tokens.spacingHorizontalS, backgroundColor: tokens.colorNeutralBackground2, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
});

export interface ToolbarProps {
  workspace: Workspace | undefined;
  small: boolean;
  showMenuButton: boolean;
  onMenu: () => void;
}

/** Spec 000 §2.3: search, assistant, notification bell, invite, profile menu. */
export function Toolbar({ workspace, small, showMenuButton, onMenu }: ToolbarProps) {
  const styles = useStyles();
  const { config } = useRuntime();
  const { features } = useSession();
  const [searchOpen, setSearchOpen] = useState(false);
  const navigate = useNavigate();
  // on a phone the box opens first (a tablet's keyboard has the shortcut too)
  useSearchShortcut(useMemo(() => (workspace && small ? () => setSearchOpen(true) : null), [workspace, small]));

  return (
    <>
      <header className={styles.root}>
        {showMenuButton && <Button appearance="transparent" className={styles.iconButton} icon={<NavigationRegular />} aria-label="Open navigation" onClick={onMenu} />}
        <Link to={pathTo('root')} className={styles.brand} aria-label={`${config.appTitle} home`}>
          <span className={styles.mark} aria-hidden>
            {config.appTitle.charAt(0).toUpperCase()}
          </span>
          {!small && <Text weight="semibold" style={{ color: 'inherit' }}>{config.appTitle}</Text>}
        </Link>
        {workspace && !small && (
          <div className={styles.search}>
            <ToolbarSearch workspace={workspace} shortcut />
          </div>
        )}
        <div className={styles.actions}>
          {workspace && small && (
            <Button appearance="transparent" className={styles.iconButton} icon={<SearchRegular />} aria-label="Search" aria-expanded={searchOpen} onClick={() => setSearchOpen((open) => !open)} />
          )}
          {workspace && questionsEnabled(workspace) && <Assistant workspace={workspace} />}
          {workspace && <NotificationBell workspace={workspace} />}
          {workspace && canInvite(workspace, features) && (
            <Tooltip content="Invite people" relationship="label">
              <Button
                appearance="transparent"
                className={styles.iconButton}
                icon={<PersonAddRegular />}
                aria-label="Invite people"
                onClick={() => void navigate(pathTo('invitations', { workspaceId: workspace.id }))}
              />
            </Tooltip>
          )}
          <ProfileMenu showName={!small} />
        </div>
      </header>
      {workspace && small && searchOpen && (
        <div className={styles.mobileSearch}>
          <ToolbarSearch workspace={workspace} onDone={() => setSearchOpen(false)} focusOnOpen />
        </div>
      )}
    </>
  );
}

function ToolbarSearch({ workspace, onDone, shortcut = false, focusOnOpen = false }: { workspace: Workspace; onDone?: () => void; shortcut?: boolean; focusOnOpen?: boolean }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const route = useRoute();
  const { key } = useLocation();
  const shown = toolbarSearchText(route?.name, useSearchValue());
  // What is typed belongs to the page it was typed on: any navigation (even one that interrupts
  // another) shows the new page's own search instead, explore's or none.
  const [draft, setDraft] = useState<{ readonly key: string; readonly text: string } | null>(null);
  const text = draft !== null && draft.key === key ? draft.text : shown;
  const setText = (value: string) => setDraft({ key, text: value });
  const box = useRef<HTMLInputElement>(null);
  const focus = useCallback(() => box.current?.focus(), []);
  useSearchShortcut(shortcut ? focus : null);
  useEffect(() => {
    if (focusOnOpen) focus();
  }, [focusOnOpen, focus]);
  const placeholder = toolbarSearchPlaceholder(workspace);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    void navigate(toolbarSearchTarget(workspace.id, text));
    onDone?.();
  };
  return (
    <form role="search" onSubmit={submit} className={styles.searchBox}>
      <SearchBox
        input={{ ref: box }}
        className={styles.searchBox}
        placeholder={placeholder}
        aria-label={placeholder}
        aria-keyshortcuts="/ Control+K Meta+K"
        value={text}
        onChange={(_, data) => setText(data.value)}
      />
    </form>
  );
}

/** The unread count, polled every 90 s with errors silenced (spec 000 §7). */
function NotificationBell({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(shellMachines);
  const navigate = useNavigate();
  const location = useLocation();
  const poller = useActorRef(machines.notificationCount, { input: notificationCountInput });
  const count = useSelector(poller, (s) => s.context.value ?? 0);
  useOnNotificationsChanged(useCallback(() => poller.send({ type: 'user.refresh' }), [poller]));
  const label = count === 0 ? 'Notifications' : `Notifications: ${count} unread`;
  return (
    <Tooltip content={label} relationship="label">
      <span className={styles.bell}>
        <Button appearance="transparent" className={styles.iconButton} icon={<AlertRegular />} aria-label={label} onClick={() => void navigate(pathTo('notifications', { workspaceId: workspace.id }), isLabLocation(location.pathname) ? { state: { labReturnTo: `${location.pathname}${location.search}` } } : undefined)}
        />
        {count > 0 && <CounterBadge className={styles.badge} count={count} size="small" color="danger" overflowCount={99} data-testid="unread-count" />}
      </span>
    </Tooltip>
  );
}
