import {
  Button,
  makeStyles,
  Menu,
  MenuDivider,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Text,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { AddRegular, ArrowSwapRegular, BeakerRegular, ChevronDownRegular, HomeRegular, MailRegular, PeopleRegular, SettingsRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useNavigate } from 'react-router-dom';
import { appHomePath, labHomePath } from '../../domain/landing';
import { isSafeLogo } from '../../domain/workspaceLogo';
import { canCreateWorkspace, canInvite, canSwitchToLab, canSwitchWorkspace, showMembers, showWorkspaceSettings } from '../../domain/permissions';
import type { Workspace } from '../../domain/resources';
import { pathTo } from '../../domain/routes';
import { useMachines } from '../MachinesProvider';
import { shellMachines } from '../machineAreas/shell';
import { useSession } from './session';

const useStyles = makeStyles({
  trigger: { justifyContent: 'space-between', width: '100%', minWidth: 0, fontWeight: tokens.fontWeightSemibold },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  avatar: {
    flexShrink: 0,
    width: '28px',
    height: '28px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontWeight: tokens.fontWeightBold,
    overflow: 'hidden',
  },
  logo: { width: '100%', height: '100%', objectFit: 'cover' },
  current: { fontWeight: tokens.fontWeightSemibold },
});

/** Spec 000 §2.4: the workspace menu at the head of the sidebar. */
export function WorkspaceMenu({ workspace, mode, compact }: { workspace: Workspace; mode: 'app' | 'lab'; compact: boolean }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const machines = useMachines(shellMachines);
  const { profile, workspaces, features } = useSession();
  const switcher = useActorRef(machines.workspaceSwitch, { input: { profileId: profile.id } });
  const switching = useSelector(switcher, (s) => s.matches('switching') || s.status === 'done');
  const avatar = <WorkspaceAvatar workspace={workspace} />;

  const trigger = compact ? (
    <Tooltip content={workspace.name} relationship="label" positioning="after">
      <Button appearance="subtle" aria-label={`Workspace menu: ${workspace.name}`} icon={avatar} />
    </Tooltip>
  ) : (
    <Button appearance="subtle" className={styles.trigger} aria-label={`Workspace menu: ${workspace.name}`} icon={avatar} iconPosition="before">
      <Text className={styles.name}>{workspace.name}</Text>
      <ChevronDownRegular />
    </Button>
  );

  return (
    <Menu positioning="below-start">
      <MenuTrigger disableButtonEnhancement>{trigger}</MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem icon={<HomeRegular />} onClick={() => void navigate(pathTo('workspaceLanding', { workspaceId: workspace.id }))}>
            {workspace.name}
          </MenuItem>
          {showMembers(workspace) && (
            <MenuItem icon={<PeopleRegular />} onClick={() => void navigate(pathTo('members', { workspaceId: workspace.id }))}>
              Members
            </MenuItem>
          )}
          {canInvite(workspace, features) && (
            <MenuItem icon={<MailRegular />} onClick={() => void navigate(pathTo('invitations', { workspaceId: workspace.id }))}>
              Invitations
            </MenuItem>
          )}
          {mode === 'app' && showWorkspaceSettings(workspace) && (
            <MenuItem icon={<SettingsRegular />} onClick={() => void navigate(pathTo('workspaceSettings', { workspaceId: workspace.id }))}>
              Settings
            </MenuItem>
          )}
          {canSwitchToLab(workspace, features) && (
            <MenuItem icon={<BeakerRegular />} onClick={() => void navigate(mode === 'lab' ? appHomePath(workspace) : labHomePath(workspace.id))}>
              {mode === 'lab' ? 'Switch to App' : 'Switch to Lab'}
            </MenuItem>
          )}
          {canCreateWorkspace(profile) && (
            <MenuItem icon={<AddRegular />} onClick={() => void navigate(pathTo('newWorkspace'))}>
              New Workspace
            </MenuItem>
          )}
          {canSwitchWorkspace(workspaces.length) && (
            <>
              <MenuDivider />
              <Menu>
                <MenuTrigger disableButtonEnhancement>
                  <MenuItem icon={<ArrowSwapRegular />} disabled={switching}>
                    Switch Workspace
                  </MenuItem>
                </MenuTrigger>
                <MenuPopover>
                  <MenuList>
                    {workspaces.map((candidate) => (
                      <MenuItem
                        key={candidate.id}
                        icon={<WorkspaceAvatar workspace={candidate} />}
                        className={candidate.id === workspace.id ? styles.current : undefined}
                        disabled={candidate.id === workspace.id}
                        onClick={() => switcher.send({ type: 'user.switch', workspaceId: candidate.id })}
                      >
                        {candidate.name}
                      </MenuItem>
                    ))}
                  </MenuList>
                </MenuPopover>
              </Menu>
            </>
          )}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/** The workspace's logo where it has a safe one (a PNG or JPEG data URL), else its initial. */
export function WorkspaceAvatar({ workspace }: { workspace: Pick<Workspace, 'name' | 'imageUrl'> }) {
  const styles = useStyles();
  const logo = workspace.imageUrl && isSafeLogo(workspace.imageUrl) ? workspace.imageUrl : null;
  return (
    <span className={styles.avatar} data-logo={logo ? 'image' : 'initial'}>
      {logo ? <img className={styles.logo} src={logo} alt="" /> : workspace.name.trim().charAt(0).toUpperCase() || 'W'}
    </span>
  );
}
