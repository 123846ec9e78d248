import { makeStyles, tokens, Title2, Body1 } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  root: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalXXL,
    textAlign: 'center',
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground2,
  },
  card: {
    maxWidth: '520px',
    width: '100%',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalXXL,
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow8,
    boxSizing: 'border-box',
  },
  title: { margin: 0 },
});

/** A full-screen card for the standalone screens (logged out, not verified, errors). */
export function CenteredMessage({ title, children, role }: { title: ReactNode; children?: ReactNode; role?: 'alert' | 'status' }) {
  const styles = useStyles();
  return (
    <main className={styles.root}>
      <div className={styles.card} role={role}>
        <Title2 as="h1" className={styles.title}>{title}</Title2>
        {typeof children === 'string' ? <Body1>{children}</Body1> : children}
      </div>
    </main>
  );
}
