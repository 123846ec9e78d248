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
import { DocumentTextRegular } from '@fluentui/react-icons';
import { useEffect, useState } from 'react';
import { listPipelineJobs, pipelineMetrics, turnJobsPage } from '../../../../../api/pipelines';
import { formatJobDate } from '../../../../../domain/constants';
import { embeddedList, hasLink } from '../../../../../domain/hal';
import { jobReason } from '../../../../../domain/jobReason';
import { formatDuration, isActiveJob, jobSeconds } from '../../../../../domain/jobs';
import { REL } from '../../../../../domain/relations';
import type { Job, JobsCollection, Metric, Pipeline } from '../../../../../domain/resources';
import { failureText } from '../../../../../machines/failureText';
import { useNow } from '../../../../components/useNow';
import { useRuntime } from '../../../../runtime';
import { JobStatusBadge } from '../../../../components/jobs/JobStatusBadge';
import { MetricsChart } from './MetricsChart';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  paging: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
  reason: { color: tokens.colorNeutralForeground3 },
  table: { tableLayout: 'auto' },
});

/** History: the metrics chart, the job list and Newer/Older. `reloadKey` changes when a run ends. */
export function HistoryTab({ pipeline, reloadKey, onOpenLog }: { pipeline: Pipeline; reloadKey: number; onOpenLog: (job: Job) => void }) {
  const { client } = useRuntime();
  const [page, setPage] = useState<JobsCollection | null>(null);
  const [metrics, setMetrics] = useState<Metric[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [turning, setTurning] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const fail = (failure: unknown) => signal.aborted || setError(failureText(failure));
    listPipelineJobs(client, pipeline, { signal }).then(setPage, fail);
    if (hasLink(pipeline, REL.metrics)) pipelineMetrics(client, pipeline, { signal }).then(setMetrics, () => signal.aborted || setMetrics([]));
    else setMetrics([]);
    return () => controller.abort();
    // The pipeline object changes on every 5 s poll; the history reloads only when a run ends.
  }, [client, pipeline.id, reloadKey]);

  const turn = (rel: 'next' | 'prev') => {
    if (page === null) return;
    setTurning(true);
    turnJobsPage(client, page, rel).then(
      (next) => {
        setPage(next);
        setTurning(false);
      },
      (failure: unknown) => {
        setError(failureText(failure));
        setTurning(false);
      },
    );
  };

  if (error !== null)
    return (
      <MessageBar intent="error">
        <MessageBarBody>{error}</MessageBarBody>
      </MessageBar>
    );
  const jobs = page === null ? null : embeddedList(page, 'jobs');
  return (
    <JobsTable jobs={jobs} metrics={metrics} page={page} turning={turning} turn={turn} onOpenLog={onOpenLog} />
  );
}

function JobsTable({ jobs, metrics, page, turning, turn, onOpenLog }: { jobs: readonly Job[] | null; metrics: Metric[] | null; page: JobsCollection | null; turning: boolean; turn: (rel: 'next' | 'prev') => void; onOpenLog: (job: Job) => void }) {
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
        <Table size="small" aria-label="Jobs" className={styles.table}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Created</TableHeaderCell>
              <TableHeaderCell>Duration</TableHeaderCell>
              <TableHeaderCell>Rows</TableHeaderCell>
              <TableHeaderCell>Why</TableHeaderCell>
              <TableHeaderCell>Log</TableHeaderCell>
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
                <TableCell>{job.rowsLoaded === null || job.rowsLoaded === undefined ? '' : job.rowsLoaded.toLocaleString()}</TableCell>
                <TableCell className={styles.reason}>{jobReason(job)}</TableCell>
                <TableCell>
                  <Button size="small" appearance="subtle" icon={<DocumentTextRegular />} disabled={!hasLink(job, REL.logs)} onClick={() => onOpenLog(job)} aria-label={`Log of job ${formatJobDate(job.created)}`}>
                    Log
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
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
