import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { refreshPipeline, startJob, stopJob, verifyPipeline } from '../../api/pipelines';
import type { Job, Pipeline } from '../../domain/resources';
import type { PipelineInput } from './jobRun.machine';

/** `jobRunMachine.provide({ actors: jobRunActors(client) })`. */
export function jobRunActors(client: ApiClient) {
  return {
    start: fromPromise<Job | undefined, PipelineInput>(({ input, signal }) => startJob(client, input.pipeline, { signal })),
    stop: fromPromise<unknown, PipelineInput>(({ input, signal }) => stopJob(client, input.pipeline, { signal })),
    verify: fromPromise<unknown, PipelineInput>(({ input, signal }) => verifyPipeline(client, input.pipeline, { signal })),
    refresh: fromPromise<Pipeline, PipelineInput>(({ input, signal }) => refreshPipeline(client, input.pipeline, { signal })),
  };
}
