import { Drawer, DrawerBody, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { isLabLocation } from '../../domain/routes';
import { Sidebar } from './Sidebar';
import { Toolbar } from './Toolbar';
import { useSidebar } from './useSidebar';
import { useCurrentWorkspace } from './useWorkspace';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 },
  body: { display: 'flex', flexGrow: 1, minHeight: 0 },
  main: {
    flexGrow: 1,
    minWidth: 0,
    overflowY: 'auto',
    padding: `${tokens.spacingVerticalXL} ${tokens.spacingHorizontalXXL}`,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground1,
    '@media (max-width: 767px)': { padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalM}` },
  },
  content: { maxWidth: '1200px', margin: '0 auto' },
  drawerBody: { padding: 0 },
});

/** Toolbar on top, sidebar on the left (a drawer on small screens), the page in the middle. */
export function ShellLayout() {
  const styles = useStyles();
  const workspace = useCurrentWorkspace();
  const { pathname } = useLocation();
  const sidebar = useSidebar();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const mode = isLabLocation(pathname) ? 'lab' : 'app';

  return (
    <div className={styles.root}>
      <Toolbar workspace={workspace} small={sidebar.small} showMenuButton={Boolean(workspace) && sidebar.small} onMenu={() => setDrawerOpen(true)} />
      <div className={styles.body}>
        {workspace && !sidebar.small && (
          <Sidebar workspace={workspace} mode={mode} variant={sidebar.state} canExpand={sidebar.canExpand} onToggle={sidebar.toggle} />
        )}
        {workspace && sidebar.small && (
          <Drawer type="overlay" open={drawerOpen} onOpenChange={(_, data) => setDrawerOpen(data.open)} position="start" size="small">
            <DrawerBody className={styles.drawerBody}>
              <Sidebar workspace={workspace} mode={mode} variant="drawer" canExpand={false} onToggle={sidebar.toggle} onNavigate={() => setDrawerOpen(false)} />
            </DrawerBody>
          </Drawer>
        )}
        <main className={styles.main}>
          <div className={styles.content}>
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}
