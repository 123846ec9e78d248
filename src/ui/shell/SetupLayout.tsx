import { makeStyles, tokens } from '@fluentui/react-components';
import { Outlet } from 'react-router-dom';
import { useScreenSize } from '../components/useScreenSize';
import { Toolbar } from './Toolbar';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 },
  page: { flexGrow: 1, minHeight: 0, overflowY: 'auto', backgroundColor: tokens.colorNeutralBackground1 },
});

const noMenu = () => undefined;

/**
 * Onboarding's frame (issue 38): the toolbar with no workspace yet, so the brand and the profile
 * menu (profile, password, sign out) are there from the first step; no sidebar to lead away.
 */
export function SetupLayout() {
  const styles = useStyles();
  const small = useScreenSize() === 'small';
  return (
    <div className={styles.root}>
      <Toolbar workspace={undefined} small={small} showMenuButton={false} onMenu={noMenu} />
      <div className={styles.page}>
        <Outlet />
      </div>
    </div>
  );
}
