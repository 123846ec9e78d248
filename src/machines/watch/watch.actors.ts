import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { refreshPipeline, unwatchPipeline, watchPipeline } from '../../api/pipelines';
import type { Pipeline } from '../../domain/resources';
import type { SubscribeInput, WatchInput } from './watch.machine';

/** `watchMachine.provide({ actors: watchActors(client) })`. */
export function watchActors(client: ApiClient) {
  return {
    subscribe: fromPromise<unknown, SubscribeInput>(({ input, signal }) => watchPipeline(client, input.pipeline, input.subscription, { signal })),
    unsubscribe: fromPromise<unknown, WatchInput>(({ input, signal }) => unwatchPipeline(client, input.pipeline, { signal })),
    refresh: fromPromise<Pipeline, WatchInput>(({ input, signal }) => refreshPipeline(client, input.pipeline, { signal })),
  };
}
