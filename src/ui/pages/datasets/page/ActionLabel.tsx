import { makeStyles } from '@fluentui/react-components';

// Six labelled actions take three lines on a phone; there the icons stand alone and each button
// keeps its words as its accessible name (aria-label) and tooltip (title).
const useStyles = makeStyles({ label: { '@media (max-width: 767px)': { display: 'none' } } });

export function ActionLabel({ children }: { children: string }) {
  return <span className={useStyles().label}>{children}</span>;
}

/** The props that name an action whose label may be hidden. */
export const named = (label: string) => ({ 'aria-label': label, title: label });
