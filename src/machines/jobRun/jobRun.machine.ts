import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { LOG_POLL_MS } from '../../domain/constants';
import { hasLink } from '../../domain/hal';
import { isActiveJob } from '../../domain/jobs';
import { REL } from '../../domain/relations';
import type { Job, Pipeline } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// One pipeline row (spec 001 §4 "Jobs"): Start job creates a job, Stop job withdraws it, and while
// the latest job is queued or running the row re-reads the pipeline every 5 s. When a job it saw
// active has ended, `runsEnded` counts up so the row's History reloads once.

export type JobRunContext = {
  readonly pipeline: Pipeline;
  readonly error: string | null;
  readonly runsEnded: number;
};

export type JobRunEvent = { readonly type: 'user.start' } | { readonly type: 'user.stop' } | { readonly type: 'user.refresh' } | { readonly type: 'user.verify' };

export type JobRunInput = { readonly pipeline: Pipeline };
export type PipelineInput = { readonly pipeline: Pipeline };

/** Spec 001 §9: job and pipeline refresh every 5 s while active (the same 5 s as the log loader). */
export const ROW_POLL_MS = LOG_POLL_MS;

export function latestJobOf(pipeline: Pipeline) {
  return pipeline._embedded?.['latest job'] ?? null;
}

export function isPipelineActive(pipeline: Pipeline): boolean {
  const job = latestJobOf(pipeline);
  return job !== null && isActiveJob(job);
}

const refreshed = (pipeline: Pipeline) => ({ pipeline, error: null });

export const jobRunMachine = setup({
  types: {
    context: {} as JobRunContext,
    events: {} as JobRunEvent,
    input: {} as JobRunInput,
  },
  actors: {
    start: notProvidedActor<Job | undefined, PipelineInput>('start'),
    stop: notProvidedActor<unknown, PipelineInput>('stop'),
    verify: notProvidedActor<unknown, PipelineInput>('verify'),
    refresh: notProvidedActor<Pipeline, PipelineInput>('refresh'),
  },
  delays: { rowPoll: ROW_POLL_MS },
  guards: {
    active: ({ context }) => isPipelineActive(context.pipeline),
    canStart: ({ context }) => hasLink(context.pipeline, REL.createJob),
    canStop: ({ context }) => hasLink(context.pipeline, REL.withdrawJob),
    canVerify: ({ context }) => hasLink(context.pipeline, REL.verifyPipeline),
  },
}).createMachine({
  id: 'jobRun',
  context: ({ input }) => ({ pipeline: input.pipeline, error: null, runsEnded: 0 }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'active', target: 'active' }, { target: 'idle' }],
    },
    idle: {
      on: {
        'user.start': { guard: 'canStart', target: 'starting' },
        'user.verify': { guard: 'canVerify', target: 'verifying' },
        'user.refresh': 'refreshing',
      },
    },
    starting: {
      invoke: {
        id: 'start',
        src: 'start',
        input: ({ context }) => ({ pipeline: context.pipeline }),
        onDone: 'refreshing',
        // 409: a job is already queued or running; re-reading shows it.
        onError: { target: 'refreshing', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    verifying: {
      invoke: {
        id: 'verify',
        src: 'verify',
        input: ({ context }) => ({ pipeline: context.pipeline }),
        onDone: 'refreshing',
        onError: { target: 'idle', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    refreshing: {
      invoke: {
        id: 'refresh',
        src: 'refresh',
        input: ({ context }) => ({ pipeline: context.pipeline }),
        onDone: { target: 'checking', actions: assign(({ event, context }) => ({ ...refreshed(event.output), error: context.error })) },
        onError: { target: 'checking', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    active: {
      after: { rowPoll: 'polling' },
      on: {
        'user.stop': { guard: 'canStop', target: 'stopping' },
        'user.refresh': 'polling',
      },
    },
    polling: {
      invoke: {
        id: 'refresh',
        src: 'refresh',
        input: ({ context }) => ({ pipeline: context.pipeline }),
        onDone: [
          { guard: ({ event }) => isPipelineActive(event.output), target: 'active', actions: assign(({ event }) => refreshed(event.output)) },
          { target: 'idle', actions: assign(({ event, context }) => ({ ...refreshed(event.output), runsEnded: context.runsEnded + 1 })) },
        ],
        // A missed poll is tried again at the next interval; the row keeps what it showed.
        onError: 'active',
      },
    },
    stopping: {
      invoke: {
        id: 'stop',
        src: 'stop',
        input: ({ context }) => ({ pipeline: context.pipeline }),
        onDone: 'polling',
        onError: { target: 'active', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type JobRunSnapshot = SnapshotFrom<typeof jobRunMachine>;

/** The button reads Stop job while the latest job is queued or running. */
export function selectShowsStop(snapshot: JobRunSnapshot): boolean {
  return snapshot.matches('active') || snapshot.matches('polling') || snapshot.matches('stopping');
}

export function selectBusy(snapshot: JobRunSnapshot): boolean {
  return snapshot.matches('starting') || snapshot.matches('stopping') || snapshot.matches('verifying') || snapshot.matches('refreshing');
}
