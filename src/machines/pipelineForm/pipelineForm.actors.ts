import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { pipelineLineage } from '../../api/lineage';
import { findDataPlugin, getPipeline, initialisePipeline, listPipelineNames, savePipeline } from '../../api/pipelineForm';
import { startJob } from '../../api/pipelines';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { PipelineLineage } from '../../domain/lineageResources';
import type { Pipeline } from '../../domain/resources';
import { componentFromExisting, componentFromPlugin } from './editorComponents';
import type { LoadedForm, PipelineFormInput, SavePipelineInput } from './pipelineForm.machine';

/** `pipelineFormMachine.provide({ actors: pipelineFormActors(client), actions: { showPipeline, showRuns, close } })`. */
export function pipelineFormActors(client: ApiClient) {
  return {
    loadForm: fromPromise<LoadedForm, PipelineFormInput>(async ({ input, signal }) => {
      const pipeline = input.pipelineId === null ? await initialisePipeline(client, input.workspace, { signal }) : await getPipeline(client, input.pipelineId, { signal });
      const components = (pipeline._embedded?.dataComponents ?? []).map(componentFromExisting);
      if (input.dataPluginId !== null && input.dataPluginId !== '') {
        const plugin = await findDataPlugin(client, input.workspace, input.dataPluginId, { signal });
        if (!components.some((c) => c.name === plugin.name)) components.push(componentFromPlugin(plugin));
      }
      // Without the workspace's pipelines link there is simply nothing to be triggered by.
      const triggers = hasLink(input.workspace, REL.pipelines) ? await listPipelineNames(client, input.workspace, { signal }) : [];
      return { pipeline, components, triggers };
    }),
    savePipeline: fromPromise<Pipeline, SavePipelineInput>(({ input, signal }) => savePipeline(client, input.pipeline, input.rel, input.body, { signal })),
    startJob: fromPromise<unknown, { pipeline: Pipeline }>(({ input, signal }) => startJob(client, input.pipeline, { signal })),
    loadImpact: fromPromise<PipelineLineage, { pipeline: Pipeline }>(({ input, signal }) => pipelineLineage(client, input.pipeline, { signal })),
  };
}
