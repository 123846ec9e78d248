import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { Cron } from 'croner';
import { useMemo } from 'react';
import { formatJobDate } from '../../../../../domain/constants';

const useStyles = makeStyles({ list: { margin: 0, paddingLeft: tokens.spacingHorizontalL } });

/** The next three run times of a stored 6-field cron, read by the scheduler's library, in UTC like the scheduler. */
export function NextRuns({ cron }: { cron: string | null }) {
  const styles = useStyles();
  const runs = useMemo(() => {
    if (cron === null) return [];
    try {
      return new Cron(cron, { timezone: 'UTC' }).nextRuns(3).map((date) => formatJobDate(date.toISOString(), 0));
    } catch {
      return null;
    }
  }, [cron]);
  if (cron === null) return <Caption1>Runs only when started by hand or by a trigger.</Caption1>;
  if (runs === null) return <Caption1>This schedule never runs.</Caption1>;
  return (
    <div aria-label="Next runs">
      <Caption1>Next runs (UTC):</Caption1>
      <ul className={styles.list}>
        {runs.map((run) => (
          <li key={run}>
            <Caption1>{run}</Caption1>
          </li>
        ))}
      </ul>
    </div>
  );
}
