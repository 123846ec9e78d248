import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { latestDeploymentActor, notificationCountActor, taskCountActor } from './polling.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import {
  createPollingMachine,
  DEPLOYMENT_POLL_MS,
  latestDeploymentMachine,
  notificationCountInput,
  notificationCountMachine,
  TASK_COUNT_POLL_MS,
  taskCountInput,
  taskCountMachine,
} from './polling.machine';

const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });
const events = {
  'xstate.done.actor.fetch': [{ output: 1 }, { output: 5 }],
  'xstate.error.actor.fetch': [{ error: offline }],
};
const input = { params: { page: 'x' } };

describe.each([
  ['silenced', true],
  ['shown', false],
] as const)('generic polling machine, errors %s (model-based)', (_, silenceErrors) => {
  const machine = createPollingMachine<number, { page: string }>({ id: 'poll', delayMs: 1_000, silenceErrors });
  const paths = modelPaths(machine, { input, events });

  it('reaches every state it can and walks every transition', () => {
    const unvisited = unvisitedStates(machine, paths);
    // 'stopped' is reached through poll.stop; 'error' only when errors are shown.
    expect(unvisited).toEqual(silenceErrors ? ['poll.error'] : []);
    expect(unwalkedTransitions(machine, paths, { input, events })).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(machine, path, {
      input,
      states: {
        fetching: (_s, log: ReplayLog) => expect(log.invocations.at(-1)).toEqual({ id: 'fetch', src: 'fetch', input: { params: { page: 'x' } } }),
        error: (snapshot) => expect(snapshot.context.error).toEqual(offline.apiError),
      },
    });
  });

  it('keeps the last value through a failure', () => {
    const path = pathOf(machine, [
      { type: 'xstate.done.actor.fetch', output: 5 },
      { type: 'xstate.after.pollInterval.poll.waiting' },
      { type: 'xstate.error.actor.fetch', error: offline },
    ], { input });
    expect(path.state.context.value).toBe(5);
    expect(path.state.value).toBe(silenceErrors ? 'waiting' : 'error');
  });
});

describe('polling controls', () => {
  const machine = createPollingMachine<number, null>({ id: 'poll', delayMs: 1_000, silenceErrors: true });

  it('user.refresh fetches now, without waiting for the interval', async () => {
    const path = pathOf(machine, [{ type: 'xstate.done.actor.fetch', output: 1 }, { type: 'user.refresh' }, { type: 'xstate.done.actor.fetch', output: 5 }], {
      input: { params: null },
    });
    const log = await replayPath(machine, path, { input: { params: null } });
    expect(log.clock.now()).toBe(0);
    expect(log.invocations).toHaveLength(2);
    expect(path.state.context.value).toBe(5);
  });

  it('poll.stop keeps the value and leaves no timer running; poll.start fetches again', async () => {
    const path = pathOf(machine, [{ type: 'xstate.done.actor.fetch', output: 1 }, { type: 'poll.stop' }, { type: 'poll.start' }], { input: { params: null } });
    expect(path.steps[2]?.state.value).toBe('stopped');
    expect(path.steps[2]?.state.context.value).toBe(1);
    const log = await replayPath(machine, path, { input: { params: null } });
    expect(log.invocations).toHaveLength(2);
  });

  it('starts stopped when paused, and poll.start fetches', () => {
    const path = pathOf(machine, [{ type: 'poll.start' }], { input: { params: null, paused: true } });
    expect(path.steps[0]?.state.value).toBe('stopped');
    expect(path.state.value).toBe('fetching');
  });

  it('a running actor does not fetch again while stopped, whatever the clock says', async () => {
    const clock = new SimulatedClock();
    let fetches = 0;
    const actor = createActor(
      machine.provide({
        actors: {
          fetch: fromPromise(() => {
            fetches += 1;
            return Promise.resolve(fetches);
          }),
        },
      }),
      { input: { params: null }, clock },
    );
    actor.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'poll.stop' });
    clock.increment(10_000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fetches).toBe(1);
    expect(actor.getSnapshot().value).toBe('stopped');
    actor.stop();
  });
});

describe('notification count', () => {
  const input = notificationCountInput;
  const cases = {
    'xstate.done.actor.fetch': [{ output: 3 }, { output: 4 }],
    'xstate.error.actor.fetch': [{ error: offline }],
  };

  it('walks every generated path with the 90 s interval', async () => {
    const paths = modelPaths(notificationCountMachine, { input, events: cases });
    expect(unwalkedTransitions(notificationCountMachine, paths, { input, events: cases })).toEqual([]);
    for (const path of paths) await replayPath(notificationCountMachine, path, { input });
  });

  it('rises when the clock passes 90 s, not before', async () => {
    const path = pathOf(notificationCountMachine, [
      { type: 'xstate.done.actor.fetch', output: 3 },
      { type: 'xstate.after.pollInterval.notificationCount.waiting' },
      { type: 'xstate.done.actor.fetch', output: 4 },
    ], { input });
    expect(path.state.context.value).toBe(4);
    // replayPath checks the delayed step has not fired at 89 999 ms, then fires at 90 000 ms.
    const log = await replayPath(notificationCountMachine, path, { input });
    expect(log.clock.now()).toBe(90_000);
    expect(log.invocations).toHaveLength(2);
  });

  it('silences errors: the last count stays and polling goes on', async () => {
    const path = pathOf(notificationCountMachine, [
      { type: 'xstate.done.actor.fetch', output: 3 },
      { type: 'xstate.after.pollInterval.notificationCount.waiting' },
      { type: 'xstate.error.actor.fetch', error: offline },
      { type: 'xstate.after.pollInterval.notificationCount.waiting' },
      { type: 'xstate.done.actor.fetch', output: 4 },
    ], { input });
    expect(path.steps[3]?.state.value).toBe('waiting');
    expect(path.steps[3]?.state.context).toMatchObject({ value: 3, error: undefined });
    const log = await replayPath(notificationCountMachine, path, { input });
    expect(log.clock.now()).toBe(180_000);
  });

  it('with the real actor and client, reads page.totalElements every 90 s', async () => {
    const page = (total: number) => ({ page: { size: 1, totalElements: total, totalPages: total, number: 0 } });
    const fake = fakeFetch({ body: page(2) }, { status: 500, body: 'down' }, { status: 500 }, { status: 500 }, { status: 500 }, { body: page(7) });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const clock = new SimulatedClock();
    const actor = createActor(notificationCountMachine.provide({ actors: { fetch: notificationCountActor(client) } }), { input, clock });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
    actor.start();
    await settle();
    expect(actor.getSnapshot().context.value).toBe(2);
    clock.increment(90_000);
    // four failed attempts (one call and three retries), silenced
    for (let i = 0; i < 100 && fake.calls.length < 5; i += 1) await settle();
    await settle();
    expect(fake.calls).toHaveLength(5);
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context.value).toBe(2);
    clock.increment(90_000);
    await settle();
    expect(actor.getSnapshot().context.value).toBe(7);
    expect(fake.calls.every((call) => call.url === 'http://api.test/api/notifications?size=1')).toBe(true);
    actor.stop();
  });
});

describe('task count', () => {
  const admin = { id: 'w1', _links: { 'update delete workspace': { href: '/api/workspaces/w1' }, jobs: { href: '/api/workspaces/w1/jobs' } } };
  const member = { id: 'w1' };

  it("polls for admins only, through the workspace's jobs link", () => {
    expect(taskCountInput(admin)).toEqual({ params: { workspace: admin }, paused: false });
    expect(taskCountInput(member)).toEqual({ params: { workspace: member }, paused: true });
    const noJobsLink = { id: 'w1', _links: { 'update delete workspace': { href: '/api/workspaces/w1' } } };
    expect(taskCountInput(noJobsLink).paused).toBe(true);
    expect(pathOf(taskCountMachine, [], { input: taskCountInput(member) }).state.value).toBe('stopped');
  });

  it(`walks every generated path with the ${TASK_COUNT_POLL_MS} ms interval`, async () => {
    const input = taskCountInput(admin);
    const paths = modelPaths(taskCountMachine, { input, events });
    expect(unvisitedStates(taskCountMachine, paths)).toEqual(['taskCount.error']);
    for (const path of paths) await replayPath(taskCountMachine, path, { input });
  });

  it("with the real actor, reads the server's count of queued and running jobs", async () => {
    const answer = (totalElements: number) => ({
      _embedded: { jobs: [{ id: 'j0', type: 'PIPELINE_RUN', status: 'RUNNING', created: '2024-01-01T00:00:00Z' }] },
      page: { size: 1, totalElements, totalPages: totalElements, number: 0 },
    });
    const fake = fakeFetch({ body: answer(12) }, { body: { page: { size: 1, totalElements: 0, totalPages: 0, number: 0 } } });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const clock = new SimulatedClock();
    const actor = createActor(taskCountMachine.provide({ actors: { fetch: taskCountActor(client) } }), { input: taskCountInput(admin), clock });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
    actor.start();
    await settle();
    // More active jobs than the one item on the page: the count is the server's total.
    expect(actor.getSnapshot().context.value).toBe(12);
    clock.increment(TASK_COUNT_POLL_MS);
    await settle();
    expect(actor.getSnapshot().context.value).toBe(0);
    expect(fake.calls.map((c) => c.url)).toEqual([
      'http://api.test/api/workspaces/w1/jobs?status=QUEUED,RUNNING&size=1',
      'http://api.test/api/workspaces/w1/jobs?status=QUEUED,RUNNING&size=1',
    ]);
    actor.stop();
  });
});

describe('latest deployment', () => {
  const workspace = { id: 'w1', _links: { jobs: { href: '/api/workspaces/w1/jobs' } } };
  const input = { params: { workspace } };
  const job = (status: string) => ({ id: 'j1', type: 'WORKSPACE_DEPLOY', status, created: '2026-01-01T00:00:00Z' });
  const cases = {
    'xstate.done.actor.fetch': [{ output: null }, { output: job('RUNNING') }, { output: job('COMPLETE') }],
    'xstate.error.actor.fetch': [{ error: offline }],
    'poll.start': [{}],
  };

  it(`walks every generated path with the ${DEPLOYMENT_POLL_MS} ms interval; errors keep the last deployment`, async () => {
    const paths = modelPaths(latestDeploymentMachine, { input, events: cases });
    expect(unvisitedStates(latestDeploymentMachine, paths)).toEqual(['latestDeployment.error']);
    // it stops by itself once there is no deployment or it has ended, and goes on while one runs
    for (const path of paths) {
      path.steps.forEach((step, i) => {
        if (step.event.type !== 'xstate.done.actor.fetch') return;
        const job = (step.event as unknown as { output: { status: string } | null }).output;
        expect(path.steps[i]?.state.value).toBe(job === null || job.status !== 'RUNNING' ? 'stopped' : 'waiting');
      });
    }
    expect(unwalkedTransitions(latestDeploymentMachine, paths, { input, events: cases })).toEqual([]);
    for (const path of paths) await replayPath(latestDeploymentMachine, path, { input });
    const kept = pathOf(latestDeploymentMachine, [
      { type: 'xstate.done.actor.fetch', output: job('RUNNING') },
      { type: 'xstate.after.pollInterval.latestDeployment.waiting' },
      { type: 'xstate.error.actor.fetch', error: offline },
    ], { input });
    expect(kept.state.context.value).toEqual(job('RUNNING'));
  });

  it("with the real actor, asks the workspace's jobs link for its newest WORKSPACE_DEPLOY job, null before the first", async () => {
    const fake = fakeFetch(
      { body: { page: { size: 1, totalElements: 0, totalPages: 0, number: 0 } } },
      { body: { _embedded: { jobs: [job('COMPLETE')] }, page: { size: 1, totalElements: 3, totalPages: 3, number: 0 } } },
    );
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const clock = new SimulatedClock();
    const actor = createActor(latestDeploymentMachine.provide({ actors: { fetch: latestDeploymentActor(client) } }), { input, clock });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
    actor.start();
    await settle();
    expect(actor.getSnapshot().context.value).toBeNull();
    // nothing deployed yet: it stops until the page starts it again
    expect(actor.getSnapshot().value).toBe('stopped');
    clock.increment(10 * DEPLOYMENT_POLL_MS);
    await settle();
    expect(fake.calls).toHaveLength(1);
    actor.send({ type: 'poll.start' });
    await settle();
    expect(actor.getSnapshot().context.value).toMatchObject({ id: 'j1', status: 'COMPLETE' });
    expect(actor.getSnapshot().value).toBe('stopped');
    expect(fake.calls.map((call) => call.url)).toEqual([
      'http://api.test/api/workspaces/w1/jobs?type=WORKSPACE_DEPLOY&size=1',
      'http://api.test/api/workspaces/w1/jobs?type=WORKSPACE_DEPLOY&size=1',
    ]);
    actor.stop();
  });
});

describe('polling, checked by hand', () => {
  it('a shown error heals: the next interval or a refresh fetches again', () => {
    const machine = createPollingMachine<number, { page: string }>({ id: 'poll', delayMs: 1_000, silenceErrors: false });
    const failed = [{ type: 'xstate.error.actor.fetch', error: offline }];
    expect(pathOf(machine, failed, { input }).state.value).toBe('error');
    expect(pathOf(machine, [...failed, { type: 'xstate.after.pollInterval.poll.error' }], { input }).state.value).toBe('fetching');
    expect(pathOf(machine, [...failed, { type: 'user.refresh' }], { input }).state.value).toBe('fetching');
  });

  it('the unread count needs no parameters', () => {
    expect(notificationCountInput).toEqual({ params: null });
  });

  it('cancels each count when its poller stops before it answers', async () => {
    const workspace = { id: 'w1', _links: { jobs: { href: '/api/workspaces/w1/jobs' } } };
    const actorsOf = (client: Parameters<typeof taskCountActor>[0]) => ({ unread: notificationCountActor(client), tasks: taskCountActor(client), deployment: latestDeploymentActor(client) });
    const inputs = { unread: { params: null }, tasks: { params: { workspace } }, deployment: { params: { workspace } } };
    expect(await requestsCancelledOnStop(actorsOf, inputs)).toEqual({ unread: true, tasks: true, deployment: true });
  });
});
