import { Spinner, makeStyles } from '@fluentui/react-components';

const useStyles = makeStyles({ root: { minHeight: '60vh', display: 'flex', alignItems: 'center', justifyContent: 'center' } });

export function Loading({ label = 'Loading' }: { label?: string }) {
  const styles = useStyles();
  return (
    <div className={styles.root} role="status" aria-live="polite">
      <Spinner label={label} labelPosition="below" />
    </div>
  );
}
