import {
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { DocumentTextRegular, TableRegular } from '@fluentui/react-icons';
import { formatJobDate } from '../../../../../domain/constants';
import { embeddedList, hasLink } from '../../../../../domain/hal';
import { jobReason } from '../../../../../domain/jobReason';
import { LOADED_DATA_TEXTS } from '../../../../../domain/loadedData';
import { formatDuration, isActiveJob, jobSeconds } from '../../../../../domain/jobs';
import { REL } from '../../../../../domain/relations';
import type { Job, JobsCollection, Metric, Pipeline } from '../../../../../domain/resources';
import { InAppLink } from '../../../../components/InAppLink';
import { useNow } from '../../../../components/useNow';
import { usePipelineJobs, usePipelineMetrics } from '../../../../data/pipelines';
import { JobStatusBadge } from '../../../../components/jobs/JobStatusBadge';
import { MetricsChart } from './MetricsChart';
import { RowsCell } from '../../../../components/jobs/RowsCell';
import { StatePanel } from './StatePanel';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  paging: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
  reason: { color: tokens.colorNeutralForeground3 },
  table: { tableLayout: 'auto' },
  // on a phone the six columns are wider than the card: the table scrolls sideways, not the page
  scroller: { overflowX: 'auto', maxWidth: '100%' },
  // On a phone the Log column stays pinned at the right edge, over the columns scrolling under it,
  // with a shadow that says there is more beside it (issue 38: it sat off-screen with no cue)
  logColumn: {
    '@media (max-width: 767px)': {
      position: 'sticky',
      right: 0,
      zIndex: 1,
      backgroundColor: tokens.colorNeutralBackground1,
      boxShadow: `-6px 0 6px -4px ${tokens.colorNeutralShadowAmbient}`,
    },
  },
  logCell: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'nowrap', whiteSpace: 'nowrap' },
  tablesLink: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS },
});

/** History: where the next run resumes, the metrics chart, the job list and Newer/Older. `reloadKey` changes when a run ends. */
export function HistoryTab({ pipeline, reloadKey, onOpenLog, tablesOf }: { pipeline: Pipeline; reloadKey: number; onOpenLog: (job: Job) => void; tablesOf: (job: Job) => string | null }) {
  const styles = useStyles();
  // The pipeline object changes on every 5 s poll; the history reloads only when a run ends.
  const jobsQuery = usePipelineJobs(pipeline, reloadKey);
  const metricsQuery = usePipelineMetrics(pipeline, reloadKey);

  if (jobsQuery.state.status === 'failed')
    return (
      <MessageBar intent="error">
        <MessageBarBody>{jobsQuery.state.message}</MessageBarBody>
      </MessageBar>
    );
  const page = jobsQuery.data ?? null;
  const jobs = page === null ? null : embeddedList(page, 'jobs');
  // no metrics link, or metrics that could not be read: the chart has no series (not an error)
  const metrics = metricsQuery.state.status === 'ready' ? metricsQuery.state.data : metricsQuery.state.status === 'loading' ? null : [];
  return (
    <div className={styles.stack}>
      <StatePanel pipeline={pipeline} reloadKey={reloadKey} />
      <JobsTable jobs={jobs} metrics={metrics} page={page} turning={jobsQuery.following} turn={jobsQuery.turn} onOpenLog={onOpenLog} tablesOf={tablesOf} />
    </div>
  );
}

function JobsTable({
  jobs,
  metrics,
  page,
  turning,
  turn,
  onOpenLog,
  tablesOf,
}: {
  jobs: readonly Job[] | null;
  metrics: Metric[] | null;
  page: JobsCollection | null;
  turning: boolean;
  turn: (rel: 'next' | 'prev') => void;
  onOpenLog: (job: Job) => void;
  tablesOf: (job: Job) => string | null;
}) {
  const styles = useStyles();
  const now = useNow(jobs?.some((job) => isActiveJob(job)) === true);
  return (
    <div className={styles.stack}>
      {metrics === null ? <Spinner size="tiny" /> : <MetricsChart metrics={metrics} />}
      {jobs === null ? (
        <Spinner size="small" label="Loading jobs" />
      ) : jobs.length === 0 ? (
        <Caption1>No jobs yet.</Caption1>
      ) : (
        <div className={styles.scroller}>
          <Table size="small" aria-label="Jobs" className={styles.table}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Created</TableHeaderCell>
                <TableHeaderCell>Duration</TableHeaderCell>
                <TableHeaderCell>Rows</TableHeaderCell>
                <TableHeaderCell>Why</TableHeaderCell>
                <TableHeaderCell className={styles.logColumn}>Log</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {jobs.map((job) => (
                <TableRow key={job.id} data-job-id={job.id}>
                  <TableCell>
                    <JobStatusBadge status={job.status} />
                  </TableCell>
                  <TableCell>{formatJobDate(job.created)}</TableCell>
                  <TableCell>{formatDuration(jobSeconds(job, now))}</TableCell>
                  <TableCell>
                    <RowsCell job={job} label={`job ${formatJobDate(job.created)}`} />
                  </TableCell>
                  <TableCell className={styles.reason}>{jobReason(job)}</TableCell>
                  <TableCell className={styles.logColumn}>
                    <div className={styles.logCell}>
                      <Button size="small" appearance="subtle" icon={<DocumentTextRegular />} disabled={!hasLink(job, REL.logs)} onClick={() => onOpenLog(job)} aria-label={`Log of job ${formatJobDate(job.created)}`}>
                        Log
                      </Button>
                      <JobTablesLink path={tablesOf(job)} label={`${LOADED_DATA_TEXTS.viewTables} of job ${formatJobDate(job.created)}`} />
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <div className={styles.paging}>
        <Button size="small" disabled={turning || page === null || !hasLink(page, 'prev')} onClick={() => turn('prev')}>
          Newer
        </Button>
        <Button size="small" disabled={turning || page === null || !hasLink(page, 'next')} onClick={() => turn('next')}>
          Older
        </Button>
      </div>
    </div>
  );
}

/** A completed run's way to the tables it loaded (issue 38). */
function JobTablesLink({ path, label }: { path: string | null; label: string }) {
  const styles = useStyles();
  if (path === null) return null;
  return (
    <InAppLink to={path} className={styles.tablesLink} aria-label={label}>
      <TableRegular aria-hidden /> Tables
    </InAppLink>
  );
}
