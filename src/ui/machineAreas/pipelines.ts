import { pathTo } from '../../domain/routes';
import { jobRunActors } from '../../machines/jobRun/jobRun.actors';
import { jobRunMachine } from '../../machines/jobRun/jobRun.machine';
import { oauthConnectActions, oauthConnectActors } from '../../machines/oauthConnect/oauthConnect.actors';
import { oauthConnectMachine } from '../../machines/oauthConnect/oauthConnect.machine';
import { pipelineFormActors } from '../../machines/pipelineForm/pipelineForm.actors';
import { pipelineFormMachine } from '../../machines/pipelineForm/pipelineForm.machine';
import { streamPickerActors } from '../../machines/streamPicker/streamPicker.actors';
import { streamPickerMachine } from '../../machines/streamPicker/streamPicker.machine';
import { watchActors } from '../../machines/watch/watch.actors';
import { watchMachine } from '../../machines/watch/watch.machine';
import { machineArea } from './area';

/** The Lab's pipelines list and editor (spec 001 §2, §4, §7; issue 37). */
export const pipelinesMachines = machineArea('pipelines', ({ client, navigate }) => ({
  jobRun: jobRunMachine.provide({ actors: jobRunActors(client) }),
  watch: watchMachine.provide({ actors: watchActors(client) }),
  // an extractor's streams in the pipeline editor (issue 37, item 6)
  streamPicker: streamPickerMachine.provide({ actors: streamPickerActors(client) }),
  pipelineForm: pipelineFormMachine.provide({
    actors: pipelineFormActors(client),
    actions: {
      // replace: the back button from the saved pipeline should not land on /new again
      showPipeline: (_, { workspaceId, pipelineId, toast, toastIntent }) => navigate(pathTo('pipeline', { workspaceId, pipelineId }), { replace: true, state: { toast, toastIntent } }),
      showRuns: (_, { workspaceId, toast }) => navigate(pathTo('pipelines', { workspaceId }), { replace: true, state: { toast } }),
      close: (_, { workspaceId }) => navigate(pathTo('pipelines', { workspaceId })),
    },
  }),
  // OAuth connect of a data source's OAUTH setting (spec 001 §4, §7)
  oauthConnect: oauthConnectMachine.provide({ actors: oauthConnectActors(client), actions: oauthConnectActions }),
}));
