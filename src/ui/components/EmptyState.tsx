import { makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalXL}`,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke2}`,
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
  },
});

/** The dashed box a list shows when it has nothing to list. */
export function EmptyState({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return <div className={styles.root}>{children}</div>;
}
