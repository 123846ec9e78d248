import { Button, CounterBadge, makeStyles, mergeClasses, Text, tokens, Tooltip } from '@fluentui/react-components';
import { AppsRegular, BeakerRegular, PanelLeftContractRegular, PanelLeftExpandRegular, TaskListLtrRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { appHomePath, labHomePath } from '../../domain/landing';
import { appMenu, labMenu, type MenuItem } from '../../domain/menus';
import { canSwitchToLab, showTasksEntry } from '../../domain/permissions';
import type { Workspace } from '../../domain/resources';
import { areaPath, pathTo } from '../../domain/routes';
import { taskCountInput } from '../../machines/polling/polling.machine';
import { useMachines } from '../MachinesProvider';
import { shellMachines } from '../machineAreas/shell';
import { menuIcon } from './icons';
import { useSession } from './session';
import { WorkspaceMenu } from './WorkspaceMenu';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    height: '100%',
    boxSizing: 'border-box',
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalS}`,
    backgroundColor: tokens.colorNeutralBackground2,
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    overflowY: 'auto',
    // a fixed width beside the page: a page whose content is wide (the pipeline editor) squeezed it to 207 px
    flexShrink: 0,
  },
  expanded: { width: '240px' },
  collapsed: { width: '60px', alignItems: 'center' },
  drawer: { width: '100%', borderRight: 'none' },
  section: { display: 'flex', flexDirection: 'column', gap: '2px', marginTop: tokens.spacingVerticalS },
  heading: {
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase100,
    textTransform: 'uppercase',
    letterSpacing: '0.06em',
  },
  link: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    minHeight: '36px',
    padding: `0 ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground2,
    textDecorationLine: 'none',
    fontSize: tokens.fontSizeBase300,
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover, color: tokens.colorNeutralForeground1 },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  linkCompact: { justifyContent: 'center', width: '40px', padding: 0 },
  active: {
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
    fontWeight: tokens.fontWeightSemibold,
    ':hover': { backgroundColor: tokens.colorBrandBackground2Hover, color: tokens.colorBrandForeground1 },
  },
  icon: { fontSize: '20px', flexShrink: 0 },
  label: { flexGrow: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  spacer: { flexGrow: 1 },
  footer: { display: 'flex', flexDirection: 'column', gap: '2px', borderTop: `1px solid ${tokens.colorNeutralStroke2}`, paddingTop: tokens.spacingVerticalS },
  collapseButton: { alignSelf: 'flex-end' },
});

export interface SidebarProps {
  workspace: Workspace;
  mode: 'app' | 'lab';
  variant: 'expanded' | 'collapsed' | 'drawer';
  canExpand: boolean;
  onToggle: () => void;
  onNavigate?: () => void;
}

/** Spec 000 §2.5–2.6: workspace menu, area entries, Tasks (admins), Lab/App switch, collapse. */
export function Sidebar({ workspace, mode, variant, canExpand, onToggle, onNavigate }: SidebarProps) {
  const styles = useStyles();
  const { features } = useSession();
  const compact = variant === 'collapsed';
  const items = mode === 'lab' ? labMenu(workspace, features) : appMenu(workspace, features);

  return (
    <nav aria-label="Main navigation" className={mergeClasses(styles.root, variant === 'drawer' ? styles.drawer : compact ? styles.collapsed : styles.expanded)}>
      <WorkspaceMenu workspace={workspace} mode={mode} compact={compact} />
      <div className={styles.section}>
        {!compact && <Text className={styles.heading}>{mode === 'lab' ? 'Lab' : 'Browse'}</Text>}
        {items.map((item) => (
          <SideLink key={item.name} to={itemPath(mode, workspace.id, item)} label={item.label} icon={menuIconFor(item)} compact={compact} onNavigate={onNavigate} />
        ))}
      </div>
      <div className={styles.spacer} />
      <div className={styles.footer}>
        {showTasksEntry(workspace) && <TasksEntry workspace={workspace} compact={compact} onNavigate={onNavigate} />}
        {canSwitchToLab(workspace, features) && (
          <SideLink
            to={mode === 'lab' ? appHomePath(workspace) : labHomePath(workspace.id)}
            label={mode === 'lab' ? 'Switch to App' : 'Switch to Lab'}
            icon={mode === 'lab' ? <AppsRegular /> : <BeakerRegular />}
            compact={compact}
            onNavigate={onNavigate}
            end
          />
        )}
        {canExpand && variant !== 'drawer' && (
          <Tooltip content={compact ? 'Expand sidebar' : 'Collapse sidebar'} relationship="label" positioning="after">
            <Button
              className={styles.collapseButton}
              appearance="subtle"
              icon={compact ? <PanelLeftExpandRegular /> : <PanelLeftContractRegular />}
              onClick={onToggle}
              aria-expanded={!compact}
            />
          </Tooltip>
        )}
      </div>
    </nav>
  );
}

/** APP_MENU_ITEMS may name an absolute path of the app; every other entry is relative to its area. */
function itemPath(mode: 'app' | 'lab', workspaceId: string, item: MenuItem): string {
  return item.path.startsWith('/') ? item.path : areaPath(mode, workspaceId, item.path);
}

function menuIconFor(item: MenuItem) {
  const Icon = menuIcon(item.icon);
  return <Icon />;
}

function SideLink({ to, label, icon, compact, badge, onNavigate, end }: { to: string; label: string; icon: ReactNode; compact: boolean; badge?: ReactNode; onNavigate?: (() => void) | undefined; end?: boolean }) {
  const styles = useStyles();
  const link = (
    <NavLink
      to={to}
      end={end ?? false}
      {...(compact ? { 'aria-label': label } : {})}
      {...(onNavigate ? { onClick: onNavigate } : {})}
      className={({ isActive }) => mergeClasses(styles.link, compact && styles.linkCompact, isActive && styles.active)}
    >
      <span className={styles.icon}>{icon}</span>
      {!compact && <span className={styles.label}>{label}</span>}
      {badge}
    </NavLink>
  );
  return compact ? (
    <Tooltip content={label} relationship="description" positioning="after">
      {link}
    </Tooltip>
  ) : (
    link
  );
}

/** The Tasks entry: running or queued jobs of the workspace, polled (admins only). */
function TasksEntry({ workspace, compact, onNavigate }: { workspace: Workspace; compact: boolean; onNavigate?: (() => void) | undefined }) {
  const machines = useMachines(shellMachines);
  const poller = useActorRef(machines.taskCount, { input: taskCountInput(workspace) });
  const count = useSelector(poller, (s) => s.context.value ?? 0);
  return (
    <SideLink
      to={pathTo('labSetupTasks', { workspaceId: workspace.id })}
      label="Tasks"
      icon={<TaskListLtrRegular />}
      compact={compact}
      onNavigate={onNavigate}
      badge={<CounterBadge count={count} showZero={!compact} size="small" appearance={count > 0 ? 'filled' : 'ghost'} color={count > 0 ? 'brand' : 'informative'} aria-label={`${count} running or queued jobs`} />}
    />
  );
}
