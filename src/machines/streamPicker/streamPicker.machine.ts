import { assign, setup } from 'xstate';
import { LOG_POLL_MS } from '../../domain/constants';
import { hasLink, type HalLike } from '../../domain/hal';
import { isActiveJob } from '../../domain/jobs';
import { REL } from '../../domain/relations';
import type { Job, PipelineStreams } from '../../domain/resources';
import { STREAM_TEXTS } from '../../domain/streamSelection';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The streams of one extractor in the pipeline editor (issue 37, item 6): read from the saved
// pipeline's 'streams' link; 'Discover streams' starts its 'verify pipeline' job, follows that job
// until it ends, and reads the streams again. Which of them are ticked is the form's, not this
// machine's: a `{extractor}._select` property the form saves with the pipeline.

export type Extractor = PipelineStreams['extractors'][number];

export type StreamPickerInput = { readonly pipeline: HalLike; readonly component: string };
export type PipelineRef = { readonly pipeline: HalLike };
export type JobRef = { readonly job: Job };

export type StreamPickerContext = {
  readonly pipeline: HalLike;
  readonly component: string;
  readonly streams: PipelineStreams | null;
  readonly job: Job | null;
  readonly message: string | null;
};

export type StreamPickerEvent = { readonly type: 'user.discover' } | { readonly type: 'user.retry' };

/** The extractor's entry of the answer: its streams, when it was discovered, its rules. */
export function extractorOf(context: Pick<StreamPickerContext, 'streams' | 'component'>): Extractor | undefined {
  return context.streams?.extractors.find((e) => e.name === context.component);
}

export const streamPickerMachine = setup({
  types: {
    context: {} as StreamPickerContext,
    events: {} as StreamPickerEvent,
    input: {} as StreamPickerInput,
  },
  actors: {
    loadStreams: notProvidedActor<PipelineStreams, PipelineRef>('loadStreams'),
    startDiscovery: notProvidedActor<Job | undefined, PipelineRef>('startDiscovery'),
    readJob: notProvidedActor<Job, JobRef>('readJob'),
  },
  delays: { jobPoll: LOG_POLL_MS },
  guards: {
    canDiscover: ({ context }) => context.streams !== null && hasLink(context.streams, REL.verifyPipeline),
    stillRunning: (_, { job }: { job: Job }) => isActiveJob(job),
    completed: (_, { job }: { job: Job }) => job.status === 'COMPLETE',
    noJob: (_, { job }: { job: Job | undefined }) => job === undefined,
  },
}).createMachine({
  id: 'streamPicker',
  context: ({ input }) => ({ pipeline: input.pipeline, component: input.component, streams: null, job: null, message: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadStreams',
        src: 'loadStreams',
        input: ({ context }) => ({ pipeline: context.pipeline }),
        onDone: { target: 'ready', actions: assign({ streams: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ message: ({ event }) => failureText(event.error) }) },
      },
    },
    ready: {
      on: { 'user.discover': { guard: 'canDiscover', target: 'starting', actions: assign({ message: null }) } },
    },
    starting: {
      invoke: {
        id: 'startDiscovery',
        src: 'startDiscovery',
        input: ({ context }) => ({ pipeline: context.streams! }),
        onDone: [
          { guard: { type: 'noJob', params: ({ event }) => ({ job: event.output }) }, target: 'ready', actions: assign({ message: STREAM_TEXTS.notStarted }) },
          { target: 'waiting', actions: assign({ job: ({ event }) => event.output ?? null }) },
        ],
        onError: { target: 'ready', actions: assign({ message: ({ event }) => failureText(event.error) }) },
      },
    },
    // the discovery runs as a job: read it every few seconds until it ends
    waiting: { after: { jobPoll: 'checking' } },
    checking: {
      invoke: {
        id: 'readJob',
        src: 'readJob',
        input: ({ context }) => ({ job: context.job! }),
        onDone: [
          { guard: { type: 'stillRunning', params: ({ event }) => ({ job: event.output }) }, target: 'waiting', actions: assign({ job: ({ event }) => event.output }) },
          { guard: { type: 'completed', params: ({ event }) => ({ job: event.output }) }, target: 'loading', actions: assign({ job: ({ event }) => event.output }) },
          { target: 'ready', actions: assign({ job: ({ event }) => event.output, message: STREAM_TEXTS.discoveryFailed }) },
        ],
        // a lost answer is not the job's end: ask again
        onError: { target: 'waiting' },
      },
    },
    failed: {
      on: { 'user.retry': { target: 'loading', actions: assign({ message: null }) } },
    },
  },
});
