import { Body1, Button, makeStyles, Title2, tokens } from '@fluentui/react-components';
import { ArrowLeftRegular, DocumentSearchRegular } from '@fluentui/react-icons';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathTo } from '../../../domain/routes';
import { useCurrentWorkspace } from '../../shell/useWorkspace';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    maxWidth: '480px',
    margin: `${tokens.spacingVerticalXXXL} auto 0`,
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXL}`,
    textAlign: 'center',
  },
  icon: { fontSize: '48px', color: tokens.colorBrandForeground1 },
  title: { margin: 0 },
  text: { margin: 0, color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere', textAlign: 'center' },
  action: { marginTop: tokens.spacingVerticalS },
});

/**
 * Any address the route table does not name. It says so plainly and offers the way back: the
 * landing of the workspace in the address (or the user's workspace), which decides between the
 * Lab and the home page.
 */
export function NotFoundPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const workspace = useCurrentWorkspace();
  const home = workspace ? pathTo('workspaceLanding', { workspaceId: workspace.id }) : pathTo('root');

  useEffect(() => {
    const appTitle = document.title.split(' · ').pop() ?? document.title;
    document.title = `Page not found · ${appTitle}`;
    return () => {
      document.title = appTitle;
    };
  }, []);

  return (
    <section className={styles.root} data-view="Not found" aria-labelledby="not-found-title">
      <DocumentSearchRegular className={styles.icon} aria-hidden />
      <Title2 as="h1" id="not-found-title" className={styles.title}>
        Page not found
      </Title2>
      <Body1 as="p" className={styles.text}>
        There is nothing at this address. The link may be mistyped, or the page may have moved.
      </Body1>
      <Button className={styles.action} appearance="primary" icon={<ArrowLeftRegular />} onClick={() => void navigate(home)}>
        {workspace ? `Back to ${workspace.name}` : 'Back to home'}
      </Button>
    </section>
  );
}
