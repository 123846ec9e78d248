import { Avatar, Button, makeStyles, Menu, MenuDivider, MenuItem, MenuList, MenuPopover, MenuTrigger, Text, tokens } from '@fluentui/react-components';
import { KeyRegular, LockClosedRegular, OpenRegular, PersonRegular, SignOutRegular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router-dom';
import { externalPasswordPage } from '../../domain/accounts';
import { canManageAccount } from '../../domain/permissions';
import { displayProfileName } from '../../domain/profileName';
import { pathTo } from '../../domain/routes';
import { useRuntime } from '../runtime';
import { useSession } from './session';

const useStyles = makeStyles({
  trigger: {
    minWidth: 0,
    gap: tokens.spacingHorizontalS,
    paddingLeft: tokens.spacingHorizontalXS,
    paddingRight: tokens.spacingHorizontalS,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { color: tokens.colorNeutralForegroundOnBrand, backgroundColor: 'rgba(255,255,255,0.12)' },
    ':hover:active': { color: tokens.colorNeutralForegroundOnBrand },
  },
  name: { maxWidth: '220px', overflow: 'hidden', whiteSpace: 'nowrap', color: 'inherit' },
});

/** Spec 000 §2.3: Edit Profile, Change Password, API Keys, Manage Account (owner), Logout. */
export function ProfileMenu({ showName }: { showName: boolean }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { config } = useRuntime();
  const { profile, features, auth } = useSession();
  const name = displayProfileName(profile.name);
  const providerPage = externalPasswordPage(profile.id);

  return (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="transparent" className={styles.trigger} aria-label={`Profile menu: ${profile.name}`}>
          <Avatar name={profile.name} size={28} color="colorful" />
          {showName && <Text className={styles.name}>{name}</Text>}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem icon={<PersonRegular />} onClick={() => void navigate(pathTo('profile'))}>
            Edit Profile
          </MenuItem>
          <MenuItem
            icon={<LockClosedRegular />}
            onClick={() => (providerPage ? window.open(providerPage, '_blank', 'noopener') : void navigate(pathTo('changePassword')))}
          >
            Change Password
          </MenuItem>
          <MenuItem icon={<KeyRegular />} onClick={() => void navigate(pathTo('apiKeys'))}>
            API Keys
          </MenuItem>
          {canManageAccount(profile, features) && (
            <MenuItem icon={<OpenRegular />} onClick={() => window.open(config.manageAccountUrl, '_blank', 'noopener')}>
              Manage Account
            </MenuItem>
          )}
          <MenuDivider />
          <MenuItem icon={<SignOutRegular />} onClick={() => auth.send({ type: 'user.logout' })}>
            Logout
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
