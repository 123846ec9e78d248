import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Pipeline } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { jobRunActors } from './jobRun.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { isPipelineActive, jobRunMachine, ROW_POLL_MS, selectBusy, selectShowsStop } from './jobRun.machine';

const BASE = 'http://api.test/api';
const links = {
  self: { href: `${BASE}/pipelines/p1` },
  'create job': { href: `${BASE}/pipelines/p1/jobs` },
  'withdraw job': { href: `${BASE}/pipelines/p1/jobs/stopped` },
  'verify pipeline': { href: `${BASE}/pipelines/p1/verification` },
};
const job = (status: 'RUNNING' | 'COMPLETE') => ({ id: 'j1', type: 'PIPELINE_RUN', status, created: '2026-01-01T00:00:00Z' });
const idle: Pipeline = { id: 'p1', name: 'Orders', _links: links, _embedded: { 'latest job': job('COMPLETE') } };
const running: Pipeline = { ...idle, _embedded: { 'latest job': job('RUNNING') } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.refresh': [{ output: running }, { output: idle }],
  'xstate.error.actor.refresh': [{ error: offline }],
  'xstate.done.actor.start': [{ output: undefined }],
  'xstate.error.actor.start': [{ error: offline }],
  'xstate.done.actor.stop': [{ output: undefined }],
  'xstate.error.actor.stop': [{ error: offline }],
  'xstate.done.actor.verify': [{ output: undefined }],
  'xstate.error.actor.verify': [{ error: offline }],
};

describe.each([
  ['idle', idle],
  ['running', running],
] as const)('jobRun from a pipeline whose latest job is %s (model-based)', (_, pipeline) => {
  const input = { pipeline };
  // runsEnded counts up on every end seen: one end is enough to walk every transition.
  const options = { input, events, stopWhen: (s: { context: { runsEnded: number } }) => s.context.runsEnded > 1 };
  const paths = modelPaths(jobRunMachine, options);

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(jobRunMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(jobRunMachine, paths, options)).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(jobRunMachine, path, {
      input,
      states: {
        active: (s) => expect(selectShowsStop(s as never)).toBe(true),
        idle: (s) => expect(selectShowsStop(s as never)).toBe(false),
        starting: (s, log: ReplayLog) => {
          expect(selectBusy(s as never)).toBe(true);
          expect(log.invocations.at(-1)?.id).toBe('start');
        },
      },
    });
  });
});

describe('jobRun scenarios', () => {
  it('start → RUNNING → polls every 5 s → COMPLETE counts one ended run', async () => {
    const path = pathOf(
      jobRunMachine,
      [
        { type: 'user.start' },
        { type: 'xstate.done.actor.start', output: undefined },
        { type: 'xstate.done.actor.refresh', output: running },
        { type: 'xstate.after.rowPoll.jobRun.active' },
        { type: 'xstate.done.actor.refresh', output: running },
        { type: 'xstate.after.rowPoll.jobRun.active' },
        { type: 'xstate.done.actor.refresh', output: idle },
      ],
      { input: { pipeline: idle } },
    );
    expect(path.state.value).toBe('idle');
    expect(path.state.context.runsEnded).toBe(1);
    const log = await replayPath(jobRunMachine, path, { input: { pipeline: idle } });
    expect(log.clock.now()).toBe(2 * ROW_POLL_MS);
  });

  it('a pipeline without create job / verify links ignores Start and Verify', () => {
    const bare: Pipeline = { id: 'p1', _links: { self: links.self } };
    const snapshot = createActor(jobRunMachine, { input: { pipeline: bare } }).getSnapshot();
    expect(snapshot.can({ type: 'user.start' })).toBe(false);
    expect(snapshot.can({ type: 'user.verify' })).toBe(false);
  });

  it('a failed start keeps the reason and still re-reads the pipeline', () => {
    const path = pathOf(jobRunMachine, [{ type: 'user.start' }, { type: 'xstate.error.actor.start', error: offline }], { input: { pipeline: idle } });
    expect(path.state.value).toBe('refreshing');
    expect(path.state.context.error).toBe('We were unable to connect.');
  });

  it('the real actors: start POSTs create job, stop PUTs withdraw job, refresh reads self', async () => {
    const fake = fakeFetch({ status: 201, body: job('RUNNING') }, { body: running }, { status: 200 }, { body: idle });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const clock = new SimulatedClock();
    const actor = createActor(jobRunMachine.provide({ actors: jobRunActors(client) }), { input: { pipeline: idle }, clock });
    actor.start();
    actor.send({ type: 'user.start' });
    await waitFor(() => actor.getSnapshot().matches('active'));
    actor.send({ type: 'user.stop' });
    await waitFor(() => actor.getSnapshot().matches('idle'));
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST ${BASE}/pipelines/p1/jobs`,
      `GET ${BASE}/pipelines/p1`,
      `PUT ${BASE}/pipelines/p1/jobs/stopped`,
      `GET ${BASE}/pipelines/p1`,
    ]);
    expect(actor.getSnapshot().context.runsEnded).toBe(1);
    actor.stop();
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  expect(condition()).toBe(true);
}

describe('jobRun, checked by hand', () => {
  const UNABLE = 'We were unable to connect.';
  const from = (pipeline: Pipeline, events: Parameters<typeof pathOf>[1]) => pathOf(jobRunMachine, events, { input: { pipeline } }).state;

  it('a failed verify or stop says why where the row was; a failed re-read keeps the row as it was', () => {
    const verify = from(idle, [{ type: 'user.verify' }, { type: 'xstate.error.actor.verify', error: offline }]);
    expect(verify.value).toBe('idle');
    expect(verify.context.error).toBe(UNABLE);
    const stop = from(running, [{ type: 'user.stop' }, { type: 'xstate.error.actor.stop', error: offline }]);
    expect(stop.value).toBe('active');
    expect(stop.context.error).toBe(UNABLE);
    const reread = from(idle, [{ type: 'user.refresh' }, { type: 'xstate.error.actor.refresh', error: offline }]);
    expect(reread.value).toBe('idle');
    expect(reread.context).toMatchObject({ pipeline: idle, error: UNABLE });
  });

  it("a start's failure stays shown after the re-read; a later poll's answer clears it; a missed poll changes nothing", () => {
    const started = from(idle, [{ type: 'user.start' }, { type: 'xstate.error.actor.start', error: offline }, { type: 'xstate.done.actor.refresh', output: running }]);
    expect(started.value).toBe('active');
    expect(started.context).toMatchObject({ pipeline: running, error: UNABLE });
    const missed = from(idle, [{ type: 'user.start' }, { type: 'xstate.error.actor.start', error: offline }, { type: 'xstate.done.actor.refresh', output: running }, { type: 'user.refresh' }, { type: 'xstate.error.actor.refresh', error: offline }]);
    expect(missed.value).toBe('active');
    expect(missed.context).toMatchObject({ pipeline: running, error: UNABLE, runsEnded: 0 });
    const polled = from(idle, [{ type: 'user.start' }, { type: 'xstate.error.actor.start', error: offline }, { type: 'xstate.done.actor.refresh', output: running }, { type: 'user.refresh' }, { type: 'xstate.done.actor.refresh', output: running }]);
    expect(polled.value).toBe('active');
    expect(polled.context.error).toBeNull();
  });

  it('a pipeline that never ran is idle; a verified one is read again', async () => {
    const never: Pipeline = { id: 'p1', _links: links };
    expect(isPipelineActive(never)).toBe(false);
    expect(from(never, []).value).toBe('idle');
    expect(from(idle, [{ type: 'user.verify' }, { type: 'xstate.done.actor.verify', output: undefined }]).value).toBe('refreshing');
    const log = await replayPath(jobRunMachine, pathOf(jobRunMachine, [{ type: 'user.verify' }], { input: { pipeline: idle } }), { input: { pipeline: idle } });
    expect(log.invocations).toEqual([{ id: 'verify', src: 'verify', input: { pipeline: idle } }]);
  });

  it('shows Stop while a job runs and is busy while a request is out, state by state', () => {
    const states: [string, ReturnType<typeof from>][] = [
      ['idle', from(idle, [])],
      ['starting', from(idle, [{ type: 'user.start' }])],
      ['verifying', from(idle, [{ type: 'user.verify' }])],
      ['refreshing', from(idle, [{ type: 'user.refresh' }])],
      ['active', from(running, [])],
      ['polling', from(running, [{ type: 'user.refresh' }])],
      ['stopping', from(running, [{ type: 'user.stop' }])],
    ];
    const showsStop = new Set(['active', 'polling', 'stopping']);
    const busy = new Set(['starting', 'verifying', 'refreshing', 'stopping']);
    for (const [name, snapshot] of states) {
      expect(snapshot.value, name).toBe(name);
      expect(selectShowsStop(snapshot as never), name).toBe(showsStop.has(name));
      expect(selectBusy(snapshot as never), name).toBe(busy.has(name));
    }
  });

  it('cancels each request when the row goes away before it answers', async () => {
    const inputs = { start: { pipeline: idle }, stop: { pipeline: running }, verify: { pipeline: idle }, refresh: { pipeline: idle } };
    expect(await requestsCancelledOnStop(jobRunActors, inputs)).toEqual({ start: true, stop: true, verify: true, refresh: true });
  });
});
