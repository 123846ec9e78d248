import { makeStyles, Title2, tokens } from '@fluentui/react-components';
import { useEffect, type ReactNode } from 'react';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    marginBottom: tokens.spacingVerticalL,
  },
  title: { margin: 0 },
});

/** The page's heading; it also names the browser tab. */
export function PageHeader({ title, actions }: { title: string; actions?: ReactNode }) {
  const styles = useStyles();
  useEffect(() => {
    const appTitle = document.title.split(' · ').pop() ?? document.title;
    document.title = `${title} · ${appTitle}`;
    return () => {
      document.title = appTitle;
    };
  }, [title]);
  return (
    <header className={styles.root}>
      <Title2 as="h1" className={styles.title}>{title}</Title2>
      {actions}
    </header>
  );
}
