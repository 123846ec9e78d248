import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { readLogPage } from '../../api/logs';
import { REL } from '../../domain/relations';
import { jobSchema, type Job, type LogEntry } from '../../domain/resources';
import type { ReadJobInput, ReadPageInput } from './logStream.machine';

/** `logStreamMachine.provide({ actors: logStreamActors(client) })`. */
export function logStreamActors(client: ApiClient) {
  return {
    readPage: fromPromise<LogEntry[], ReadPageInput>(({ input, signal }) => readLogPage(client, input.job, { sequence: input.sequence, size: input.size }, { signal })),
    readJob: fromPromise<Job, ReadJobInput>(({ input, signal }) => client.follow(input.job, REL.self, { signal, schema: jobSchema })),
  };
}
