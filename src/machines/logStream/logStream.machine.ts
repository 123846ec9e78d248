import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { LOG_POLL_MS } from '../../domain/constants';
import { isActiveJob } from '../../domain/jobs';
import { appendLogLines, lastSequence } from '../../domain/logView';
import type { Job, LogEntry } from '../../domain/resources';
import { apiErrorOf } from '../apiError';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The log modal's stream (spec 001 §2 "Log modal", §4, §9): read the lines after the last
// sequence held, page after page while pages come back full; while the job is active wait 5 s,
// re-read the job and read on; stop once the job has ended and its last lines are in. A body that
// does not parse cancels the stream (spec §8: nothing shown beyond stopping).

export type LogStreamContext = {
  readonly job: Job;
  readonly pageSize: number;
  readonly lines: readonly LogEntry[];
  /** The spinner shows for up to 5 s while an active job has no lines yet. */
  readonly spinning: boolean;
  readonly error: string | null;
};

export type LogStreamEvent = { readonly type: 'user.retry' };
export type LogStreamInput = { readonly job: Job; readonly pageSize?: number | undefined };
export type ReadPageInput = { readonly job: Job; readonly sequence: number; readonly size: number };
export type ReadJobInput = { readonly job: Job };

/** Lines per request: big enough that a 100,000-line log is 100 requests, small enough to parse at once. */
export const LOG_PAGE_SIZE = 1_000;

export const logStreamMachine = setup({
  types: {
    context: {} as LogStreamContext,
    events: {} as LogStreamEvent,
    input: {} as LogStreamInput,
  },
  actors: {
    readPage: notProvidedActor<LogEntry[], ReadPageInput>('readPage'),
    readJob: notProvidedActor<Job, ReadJobInput>('readJob'),
  },
  actions: {
    append: assign(({ context }, params: { page: readonly LogEntry[] }) => {
      const lines = appendLogLines(context.lines, params.page);
      return { lines, spinning: context.spinning && lines.length === 0 };
    }),
  },
  delays: { logPoll: LOG_POLL_MS },
  guards: {
    pageFull: ({ context }, params: { count: number }) => params.count >= context.pageSize,
    jobActive: ({ context }) => isActiveJob(context.job),
    parseFailure: (_, params: { error: unknown }) => apiErrorOf(params.error).kind === 'parse',
  },
}).createMachine({
  id: 'logStream',
  context: ({ input }) => ({
    job: input.job,
    pageSize: Math.max(1, Math.floor(input.pageSize ?? LOG_PAGE_SIZE)),
    lines: [],
    spinning: isActiveJob(input.job),
    error: null,
  }),
  initial: 'streaming',
  states: {
    streaming: {
      initial: 'reading',
      states: {
        reading: {
          invoke: {
            id: 'readPage',
            src: 'readPage',
            input: ({ context }) => ({ job: context.job, sequence: lastSequence(context.lines), size: context.pageSize }),
            onDone: [
              { guard: { type: 'pageFull', params: ({ event }) => ({ count: event.output.length }) }, target: 'reading', reenter: true, actions: { type: 'append', params: ({ event }) => ({ page: event.output }) } },
              { guard: 'jobActive', target: 'waiting', actions: { type: 'append', params: ({ event }) => ({ page: event.output }) } },
              { target: '#logStream.ended', actions: { type: 'append', params: ({ event }) => ({ page: event.output }) } },
            ],
            onError: [
              { guard: { type: 'parseFailure', params: ({ event }) => ({ error: event.error }) }, target: '#logStream.cancelled' },
              { target: '#logStream.failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
            ],
          },
        },
        waiting: {
          after: { logPoll: 'checkingJob' },
        },
        checkingJob: {
          // The first 5 s wait is the spinner's: after it an empty log reads 'No logs yet'.
          entry: assign({ spinning: false }),
          invoke: {
            id: 'readJob',
            src: 'readJob',
            input: ({ context }) => ({ job: context.job }),
            // The job's last lines may have been written after the previous read: read once more.
            onDone: { target: 'reading', actions: assign({ job: ({ event }) => event.output }) },
            onError: { target: '#logStream.failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
          },
        },
      },
    },
    ended: { entry: assign({ spinning: false }) },
    cancelled: { entry: assign({ spinning: false }) },
    failed: {
      entry: assign({ spinning: false }),
      on: { 'user.retry': { target: 'streaming', actions: assign({ error: null }) } },
    },
  },
});

export type LogStreamSnapshot = SnapshotFrom<typeof logStreamMachine>;

/** Download is offered only when the job is neither queued nor running (spec 001 §2). */
export function selectCanDownload(snapshot: LogStreamSnapshot): boolean {
  return !isActiveJob(snapshot.context.job);
}

/** 'No logs yet' once the spinner is over and nothing came. */
export function selectNoLogs(snapshot: LogStreamSnapshot): boolean {
  return snapshot.context.lines.length === 0 && !snapshot.context.spinning && !snapshot.matches({ streaming: 'reading' });
}
