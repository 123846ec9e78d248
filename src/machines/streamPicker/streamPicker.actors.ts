import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { pipelineStreams, verifyPipeline } from '../../api/pipelines';
import { REL } from '../../domain/relations';
import { jobSchema, type Job, type PipelineStreams } from '../../domain/resources';
import type { JobRef, PipelineRef } from './streamPicker.machine';

/** `streamPickerMachine.provide({ actors: streamPickerActors(client) })`: the pipeline's 'streams', its 'verify pipeline', the job's 'self'. */
export function streamPickerActors(client: ApiClient) {
  return {
    loadStreams: fromPromise<PipelineStreams, PipelineRef>(({ input, signal }) => pipelineStreams(client, input.pipeline, { signal })),
    startDiscovery: fromPromise<Job | undefined, PipelineRef>(({ input, signal }) => verifyPipeline(client, input.pipeline, { signal })),
    readJob: fromPromise<Job, JobRef>(({ input, signal }) => client.follow(input.job, REL.self, { signal, schema: jobSchema })),
  };
}
