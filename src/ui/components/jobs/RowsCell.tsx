import { Button, makeStyles, Popover, PopoverSurface, PopoverTrigger, tokens } from '@fluentui/react-components';
import { ChevronDownRegular } from '@fluentui/react-icons';
import { FIRST_RUN_TEXTS } from '../../../domain/firstRun';
import { streamRowsOf } from '../../../domain/jobs';
import type { Job } from '../../../domain/resources';

const useStyles = makeStyles({
  group: { display: 'contents' },
  list: { display: 'grid', gridTemplateColumns: 'auto auto', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalXS, margin: 0 },
  stream: { margin: 0, overflowWrap: 'anywhere', maxWidth: '40ch' },
  rows: { margin: 0, textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  other: { margin: 0, color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  note: { margin: 0, marginTop: tokens.spacingVerticalS, maxWidth: '40ch', color: tokens.colorNeutralForeground3 },
});

/**
 * A job's Rows cell: the total, and, when the job counted rows per stream, a button that opens them
 * (a popover: it opens on a tap as on a click or a key, where a tooltip would need a hover).
 */
export function RowsCell({ job, label }: { job: Pick<Job, 'rowsLoaded' | 'rowsByStream'>; label: string }) {
  const styles = useStyles();
  if (job.rowsLoaded === null || job.rowsLoaded === undefined) return null;
  const total = job.rowsLoaded.toLocaleString();
  const { streams, unattributed } = streamRowsOf(job);
  if (streams.length === 0) return <>{total}</>;
  return (
    <Popover withArrow positioning="below-start">
      <PopoverTrigger disableButtonEnhancement>
        <Button size="small" appearance="transparent" icon={<ChevronDownRegular />} iconPosition="after" aria-label={`${total} rows: by stream, ${label}`}>
          {total}
        </Button>
      </PopoverTrigger>
      <PopoverSurface aria-label={`Rows by stream, ${label}`}>
        <dl className={styles.list}>
          {streams.map((s) => (
            <div key={s.stream} className={styles.group}>
              <dt className={styles.stream}>{s.stream}</dt>
              <dd className={styles.rows}>{s.rows.toLocaleString()}</dd>
            </div>
          ))}
          {unattributed > 0 && (
            <div className={styles.group}>
              <dt className={styles.other}>not by stream</dt>
              <dd className={styles.rows}>{unattributed.toLocaleString()}</dd>
            </div>
          )}
        </dl>
        {/* rows merged on their keys are deliberate: the store browser may count fewer (issue 38) */}
        <p className={styles.note}>{FIRST_RUN_TEXTS.rowsMerged}</p>
      </PopoverSurface>
    </Popover>
  );
}
