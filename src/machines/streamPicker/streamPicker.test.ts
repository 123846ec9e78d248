import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Job, PipelineStreams } from '../../domain/resources';
import { STREAM_TEXTS } from '../../domain/streamSelection';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ModelStep, ReplayLog } from '../testing';
import { heldActors } from '../testing/deferred.fixture';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { streamPickerActors } from './streamPicker.actors';
import { extractorOf, streamPickerMachine, type JobRef, type PipelineRef, type StreamPickerContext } from './streamPicker.machine';

const API = 'http://api.test/api';
const PIPELINE = { id: 'p1', _links: { self: { href: `${API}/pipelines/p1` }, streams: { href: `${API}/pipelines/p1/streams` } } };
const verifyLink = { 'verify pipeline': { href: `${API}/pipelines/p1/verification` } };
const notYet: PipelineStreams = { extractors: [{ name: 'tap-pg', discovered: null, streams: null, select: null }], _links: { self: { href: `${API}/pipelines/p1/streams` }, ...verifyLink } };
const found: PipelineStreams = {
  extractors: [{ name: 'tap-pg', discovered: '2026-11-29T06:00:00Z', streams: [{ name: 'public-orders', properties: [{ name: 'id', type: 'integer', automatic: true }] }], select: null }],
  _links: { self: { href: `${API}/pipelines/p1/streams` }, ...verifyLink },
};
/** a caller who may not run jobs: the answer offers no 'verify pipeline' */
const readOnly: PipelineStreams = { ...notYet, _links: { self: { href: `${API}/pipelines/p1/streams` } } };
const job = (status: Job['status']): Job => ({ id: 'j1', type: 'PIPELINE_VERIFY', status, created: '2026-11-29T06:00:00Z', _links: { self: { href: `${API}/jobs/j1` } } });
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.loadStreams': [{ output: notYet }, { output: found }, { output: readOnly }],
  'xstate.error.actor.loadStreams': [{ error: offline }],
  'xstate.done.actor.startDiscovery': [{ output: job('QUEUED') }, { output: undefined }],
  'xstate.error.actor.startDiscovery': [{ error: offline }],
  'xstate.done.actor.readJob': [{ output: job('RUNNING') }, { output: job('COMPLETE') }, { output: job('ERROR') }],
  'xstate.error.actor.readJob': [{ error: offline }],
};
const input = { pipeline: PIPELINE, component: 'tap-pg' };
// a discovery that completed reloads the streams: two reloads walk every transition
const options = { input, events, stopWhen: (s: { context: StreamPickerContext; value: unknown }) => s.context.job?.status === 'COMPLETE' && s.value === 'ready' };
const paths = modelPaths(streamPickerMachine, options);

function checkStep(before: ModelStep, after: ModelStep): void {
  const event = after.event as { type: string; output?: unknown; error?: unknown };
  const was = before.state.context as StreamPickerContext;
  const now = after.state.context as StreamPickerContext;
  switch (event.type) {
    case 'user.discover':
      // offered only where the answer links 'verify pipeline'
      expect(was.streams?._links?.['verify pipeline']).toBeDefined();
      expect(after.state.matches('starting')).toBe(true);
      expect(now.message).toBeNull();
      break;
    case 'xstate.done.actor.loadStreams':
      expect(now.streams).toBe(event.output);
      expect(after.state.matches('ready')).toBe(true);
      break;
    case 'xstate.error.actor.loadStreams':
      expect(after.state.matches('failed')).toBe(true);
      expect(now.message).toBe('We were unable to connect.');
      break;
    case 'xstate.done.actor.startDiscovery':
      if (event.output === undefined) expect(now.message).toBe(STREAM_TEXTS.notStarted);
      else expect(after.state.matches('waiting')).toBe(true);
      break;
    case 'xstate.done.actor.readJob': {
      const status = (event.output as Job).status;
      // running: ask again; complete: read the streams again; any other end: say so, keep what was shown
      const expected = status === 'RUNNING' ? 'waiting' : status === 'COMPLETE' ? 'loading' : 'ready';
      expect(after.state.matches(expected)).toBe(true);
      if (status === 'ERROR') {
        expect(now.message).toBe(STREAM_TEXTS.discoveryFailed);
        expect(now.streams).toBe(was.streams);
      }
      break;
    }
    case 'xstate.error.actor.readJob':
      expect(after.state.matches('waiting')).toBe(true);
      break;
  }
}

describe('streamPicker machine (model-based)', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(streamPickerMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(streamPickerMachine, paths, options)).toEqual([]);
  });

  it('keeps the rules on every step', () => {
    for (const path of paths) for (let i = 1; i < path.steps.length; i += 1) checkStep(path.steps[i - 1]!, path.steps[i]!);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(streamPickerMachine, path, {
      input,
      states: {
        checking: (s, log: ReplayLog) => expect(log.invocations.at(-1)?.input).toEqual({ job: (s.context as StreamPickerContext).job }),
        starting: (_s, log: ReplayLog) => expect(log.invocations.at(-1)?.id).toBe('startDiscovery'),
      },
    });
  });
});

describe('streamPicker against the API', () => {
  it("reads the 'streams' link, POSTs 'verify pipeline', follows the job to its end and reads the streams again", async () => {
    const fake = fakeFetch(
      { status: 200, body: notYet },
      { status: 200, body: job('QUEUED') },
      { status: 200, body: job('COMPLETE') },
      { status: 200, body: found },
    );
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(streamPickerMachine.provide({ actors: streamPickerActors(client), delays: { jobPoll: 0 } }), { input }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(extractorOf(actor.getSnapshot().context)?.streams).toBeNull();
    actor.send({ type: 'user.discover' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.job?.status === 'COMPLETE', { timeout: 2000 });
    expect(extractorOf(actor.getSnapshot().context)?.streams?.map((s) => s.name)).toEqual(['public-orders']);
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${API}/pipelines/p1/streams`, `POST ${API}/pipelines/p1/verification`, `GET ${API}/jobs/j1`, `GET ${API}/pipelines/p1/streams`]);
    actor.stop();
  });
});

describe('streamPicker, checked by hand', () => {
  const UNABLE = 'We were unable to connect.';
  const POLL = 5_000; // LOG_POLL_MS: a running job is read every 5 s

  /** The machine with actors the test answers, on a clock it moves. */
  function start() {
    const { calls, held, answer, fail } = heldActors();
    const actors = {
      loadStreams: held<PipelineRef, PipelineStreams>('loadStreams', ({ pipeline }) => (pipeline === PIPELINE ? 'PIPELINE' : 'another pipeline')),
      startDiscovery: held<PipelineRef, Job | undefined>('startDiscovery', ({ pipeline }) => (pipeline === notYet ? 'notYet' : 'another answer')),
      readJob: held<JobRef, Job>('readJob', ({ job: j }) => `${j.id} ${j.status}`),
    };
    const clock = new SimulatedClock();
    const actor = createActor(streamPickerMachine.provide({ actors }), { input, clock }).start();
    return { actor, calls, clock, answer, fail };
  }

  it("extractorOf is the component's own entry, and nothing before the streams are read", () => {
    const two: PipelineStreams = { ...found, extractors: [{ name: 'tap-other', discovered: null, streams: null, select: null }, ...found.extractors] };
    expect(extractorOf({ streams: two, component: 'tap-pg' })?.name).toBe('tap-pg');
    expect(extractorOf({ streams: two, component: 'tap-missing' })).toBeUndefined();
    expect(extractorOf({ streams: null, component: 'tap-pg' })).toBeUndefined();
  });

  it('a failed read of the streams says why; Retry reads them again with the message gone', async () => {
    const { actor, calls, fail, answer } = start();
    await fail('loadStreams', 0, offline);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.message).toBe(UNABLE);
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.message).toBeNull();
    await answer('loadStreams', 1, found);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(calls).toEqual(['loadStreams PIPELINE', 'loadStreams PIPELINE']);
    actor.stop();
  });

  it('a discovery that fails to start says why and can be started again, the message gone', async () => {
    const { actor, calls, fail, answer } = start();
    await answer('loadStreams', 0, notYet);
    actor.send({ type: 'user.discover' });
    await fail('startDiscovery', 0, offline);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.message).toBe(UNABLE);
    expect(actor.getSnapshot().context.streams).toBe(notYet);
    actor.send({ type: 'user.discover' });
    expect(actor.getSnapshot().value).toBe('starting');
    expect(actor.getSnapshot().context.message).toBeNull();
    expect(calls).toEqual(['loadStreams PIPELINE', 'startDiscovery notYet', 'startDiscovery notYet']);
    actor.stop();
  });

  it('reads the job every 5 s with the job last read, through a lost answer, until it ends in failure', async () => {
    const { actor, calls, clock, answer, fail } = start();
    await answer('loadStreams', 0, notYet);
    actor.send({ type: 'user.discover' });
    await answer('startDiscovery', 0, job('QUEUED'));
    clock.increment(POLL - 1);
    expect(calls).toHaveLength(2);
    clock.increment(1);
    expect(calls.at(-1)).toBe('readJob j1 QUEUED');
    await answer('readJob', 0, job('RUNNING'));
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context.job?.status).toBe('RUNNING');
    clock.increment(POLL);
    expect(calls.at(-1)).toBe('readJob j1 RUNNING');
    // a lost answer is not the end: asked again a poll later
    await fail('readJob', 1, offline);
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(POLL);
    expect(calls.at(-1)).toBe('readJob j1 RUNNING');
    await answer('readJob', 2, job('ERROR'));
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.message).toBe(STREAM_TEXTS.discoveryFailed);
    expect(actor.getSnapshot().context.job?.status).toBe('ERROR');
    expect(actor.getSnapshot().context.streams).toBe(notYet);
    expect(calls).toEqual(['loadStreams PIPELINE', 'startDiscovery notYet', 'readJob j1 QUEUED', 'readJob j1 RUNNING', 'readJob j1 RUNNING']);
    actor.stop();
  });

  it('cancels each request when the editor is left before it answers', async () => {
    const inputs = { loadStreams: { pipeline: PIPELINE }, startDiscovery: { pipeline: notYet }, readJob: { job: job('RUNNING') } };
    expect(await requestsCancelledOnStop(streamPickerActors, inputs)).toEqual({ loadStreams: true, startDiscovery: true, readJob: true });
  });
});
