import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { getJob } from '../../../../../api/pipelines';
import { pathTo } from '../../../../../domain/routes';
import type { Job } from '../../../../../domain/resources';
import { failureText } from '../../../../../machines/failureText';
import { useRuntime } from '../../../../runtime';
import { useRoute } from '../../../../shell/useRoute';
import { LogModal } from '../../../../components/jobs/LogModal';

/**
 * /lab/{ws}/pipelines?pipeline={id}&job={id} opens that run's log (the dataset page's freshness
 * line links here). Closing it drops the query, so the back button does not reopen it.
 */
export function RunLogFromLink({ workspaceId }: { workspaceId: string }) {
  const route = useRoute();
  const jobId = route?.name === 'pipelines' ? route.query.job : undefined;
  const { client } = useRuntime();
  const navigate = useNavigate();
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setJob(null);
    setError(null);
    if (jobId === undefined || jobId === '') return undefined;
    const controller = new AbortController();
    getJob(client, jobId, { signal: controller.signal }).then(
      (found) => !controller.signal.aborted && setJob(found),
      (failure: unknown) => !controller.signal.aborted && setError(failureText(failure)),
    );
    return () => controller.abort();
  }, [client, jobId]);

  if (error !== null) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{`The run could not be opened: ${error}`}</MessageBarBody>
      </MessageBar>
    );
  }
  if (job === null) return null;
  return <LogModal job={job} onClose={() => navigate(pathTo('pipelines', { workspaceId }), { replace: true })} />;
}
