import { Button, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentTextRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import type { HalLike } from '../../../domain/hal';
import type { Job } from '../../../domain/resources';
import { useMachines } from '../../MachinesProvider';
import { workspaceMachines } from '../../machineAreas/workspace';
import { DateText } from '../../components/DateText';
import { JobStatusBadge } from '../../components/jobs/JobStatusBadge';
import { LogModal } from '../../components/jobs/LogModal';

const useStyles = makeStyles({
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * The workspace's last deployment under the Deploy settings: its status, commit and time, and its
 * log (what was created, updated or refused). Followed every few seconds while it is queued or
 * running (latestDeploymentMachine); `deploying` turning false means one was just started, so it
 * is looked up again.
 */
export function DeploymentStatus({ workspace, deploying }: { workspace: HalLike; deploying: boolean }) {
  const styles = useStyles();
  const machines = useMachines(workspaceMachines);
  const poller = useActorRef(machines.latestDeployment, { input: { params: { workspace } } });
  const job = useSelector(poller, (s) => s.context.value);
  const [logOf, setLogOf] = useState<Job | null>(null);

  // The poll stops by itself once the job has ended; a deployment just started starts it again.
  const wasDeploying = useRef(deploying);
  useEffect(() => {
    if (wasDeploying.current && !deploying) {
      poller.send({ type: 'poll.start' });
      poller.send({ type: 'user.refresh' });
    }
    wasDeploying.current = deploying;
  }, [deploying, poller]);

  if (job === undefined) return null;
  return (
    <div className={styles.row} role="status" aria-label="Last deployment">
      {job === null ? (
        <Caption1 className={styles.muted}>Not deployed yet.</Caption1>
      ) : (
        <>
          <Caption1>Last deployment</Caption1>
          <JobStatusBadge status={job.status} />
          {job.commitId && <Caption1 className={styles.muted}>{`commit ${job.commitId.slice(0, 7)}`}</Caption1>}
          <Caption1 className={styles.muted}>
            <DateText iso={job.endTime ?? job.startTime ?? job.created} withTime />
          </Caption1>
          <Button size="small" appearance="subtle" icon={<DocumentTextRegular />} onClick={() => setLogOf(job)}>
            View log
          </Button>
        </>
      )}
      {logOf !== null && <LogModal job={logOf} onClose={() => setLogOf(null)} />}
    </div>
  );
}
