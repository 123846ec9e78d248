import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { pathTo } from '../../../../../domain/routes';
import { useJob } from '../../../../data/pipelines';
import { useRoute } from '../../../../shell/useRoute';
import { LogModal } from '../../../../components/jobs/LogModal';

/**
 * /lab/{ws}/pipelines?pipeline={id}&job={id} opens that run's log (the dataset page's freshness
 * line links here). Closing it drops the query, so the back button does not reopen it.
 */
export function RunLogFromLink({ workspaceId }: { workspaceId: string }) {
  const route = useRoute();
  const jobId = route?.name === 'pipelines' ? route.query.job : undefined;
  const navigate = useNavigate();
  const job = useJob(jobId);

  if (job.state.status === 'failed') {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{`The run could not be opened: ${job.state.message}`}</MessageBarBody>
      </MessageBar>
    );
  }
  if (job.state.status !== 'ready') return null;
  return <LogModal job={job.state.data} onClose={() => navigate(pathTo('pipelines', { workspaceId }), { replace: true })} />;
}
