import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, toPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { ApiFailure } from '../../api/errors';
import type { Job, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { landingActors } from './landing.actors';
import { landingMachine } from './landing.machine';

const input = { workspaceId: 'w 1' };
const member: Workspace = { id: 'w 1', name: 'Demo', appProperties: { HOME_PAGE: 'news' } };
const plainMember: Workspace = { id: 'w 1', name: 'Demo' };
const admin: Workspace = { id: 'w 1', name: 'Demo', _links: { 'update delete workspace': { href: '/api/workspaces/w1' } } };
const job = (type: string, status: Job['status']): Job => ({ id: `${type}-${status}`, type, status, created: '2024-01-01T00:00:00Z' });
const setupRunning = [job('PROFILE_INIT', 'RUNNING'), job('PIPELINE_RUN', 'ERROR')];
const setupDone = [job('PROFILE_INIT', 'COMPLETE'), job('PIPELINE_RUN', 'RUNNING')];
const notFound = new ApiFailure({ kind: 'response', status: 404, message: '[404] Not Found' });

const events = {
  'xstate.done.actor.loadWorkspace': [{ output: member }, { output: plainMember }, { output: admin }],
  'xstate.error.actor.loadWorkspace': [{ error: notFound }],
  'xstate.done.actor.loadJobs': [{ output: setupRunning }, { output: setupDone }, { output: [] }],
  'xstate.error.actor.loadJobs': [{ error: new ApiFailure({ kind: 'network', message: 'We were unable to connect.' }) }],
};

const ROUTES = ['/l/w%201/news', '/l/w%201/feed', '/setup/tasks/w%201', '/lab'];

describe('landing machine (model-based)', () => {
  const paths = modelPaths(landingMachine, { input, events });

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(landingMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(landingMachine, paths, { input, events })).toEqual([]);
  });

  it('every landing route of spec 000 section 4 is an outcome of some path', () => {
    const outcomes = new Set(paths.filter((p) => p.state.status === 'done').map((p) => (p.state.output as { route: string }).route));
    expect([...outcomes].sort()).toEqual([...ROUTES].sort());
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(landingMachine, path, {
      input,
      states: {
        loadingWorkspace: (_s, log: ReplayLog) => expect(log.invocations.at(-1)).toEqual({ id: 'loadWorkspace', src: 'loadWorkspace', input }),
        loadingJobs: (_s, log: ReplayLog) => expect(log.invocations.at(-1)).toEqual({ id: 'loadJobs', src: 'loadJobs', input }),
        failed: (snapshot) => expect(['response', 'network']).toContain(snapshot.context.error?.kind),
        done: (snapshot) => expect(ROUTES).toContain(snapshot.output?.route),
      },
    });
  });
});

describe('landing scenarios', () => {
  const land = (...evts: Parameters<typeof pathOf>[1]) => pathOf(landingMachine, evts, { input });

  it('a member lands on the HOME_PAGE, without reading jobs', async () => {
    const path = land({ type: 'xstate.done.actor.loadWorkspace', output: member });
    expect(path.state.output).toEqual({ route: '/l/w%201/news' });
    const log = await replayPath(landingMachine, path, { input });
    expect(log.invocations.map((i) => i.id)).toEqual(['loadWorkspace']);
  });

  it("a member without HOME_PAGE lands on 'feed'", () => {
    expect(land({ type: 'xstate.done.actor.loadWorkspace', output: plainMember }).state.output).toEqual({ route: '/l/w%201/feed' });
  });

  it('an admin with an unfinished PROFILE_ job goes to setup tasks', async () => {
    const path = land({ type: 'xstate.done.actor.loadWorkspace', output: admin }, { type: 'xstate.done.actor.loadJobs', output: setupRunning });
    expect(path.state.output).toEqual({ route: '/setup/tasks/w%201' });
    const log = await replayPath(landingMachine, path, { input });
    expect(log.invocations.map((i) => i.id)).toEqual(['loadWorkspace', 'loadJobs']);
  });

  it('an admin whose setup is complete goes to the Lab', () => {
    expect(land({ type: 'xstate.done.actor.loadWorkspace', output: admin }, { type: 'xstate.done.actor.loadJobs', output: setupDone }).state.output).toEqual({
      route: '/lab',
    });
  });

  it('a failure keeps the ApiError and can be retried', async () => {
    const path = land({ type: 'xstate.error.actor.loadWorkspace', error: notFound }, { type: 'user.retry' }, { type: 'xstate.done.actor.loadWorkspace', output: member });
    expect(path.steps[1]?.state.context.error).toEqual({ kind: 'response', status: 404, message: '[404] Not Found' });
    expect(path.state.context.error).toBeUndefined();
    await replayPath(landingMachine, path, { input });
  });
});

describe('landing with the real actors', () => {
  it('reads the workspace and, for an admin, its jobs, then outputs the route', async () => {
    const fake = fakeFetch({ body: admin }, { body: { _embedded: { jobs: setupRunning } } });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch });
    const actor = createActor(landingMachine.provide({ actors: landingActors(client) }), { input });
    actor.start();
    await expect(toPromise(actor)).resolves.toEqual({ route: '/setup/tasks/w%201' });
    expect(fake.calls.map((c) => c.url)).toEqual(['http://api.test/api/workspaces/w%201', 'http://api.test/api/workspaces/w%201/jobs?type=PROFILE_IMPORT,PROFILE_COLLABORATE,PROFILE_PUBLISH,PROFILE_CONFIGURE_PIPELINE,PROFILE_CONFIGURE_DATASTORE&size=100']);
  });
});

// Independent checks (issue 40): the error kept for the error view, and the requests cancelled.
describe('landing, checked by hand', () => {
  it('keeps the jobs failure for the error view, and a retry starts again from the workspace', async () => {
    const asked: string[] = [];
    let failJobs = true;
    const actors = {
      loadWorkspace: fromPromise<Workspace, { workspaceId: string }>(() => {
        asked.push('workspace');
        return Promise.resolve(admin);
      }),
      loadJobs: fromPromise<readonly Job[], { workspaceId: string }>(() => {
        asked.push('jobs');
        return failJobs ? Promise.reject(new ApiFailure({ kind: 'network', message: 'We were unable to connect.' })) : Promise.resolve([]);
      }),
    };
    const actor = createActor(landingMachine.provide({ actors }), { input }).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ kind: 'network', message: 'We were unable to connect.' });
    failJobs = false;
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().context.error).toBeUndefined();
    await expect(toPromise(actor)).resolves.toEqual({ route: '/lab' });
    expect(asked).toEqual(['workspace', 'jobs', 'workspace', 'jobs']);
  });

  it('cancels the workspace and the jobs requests when the landing is left before they answer', async () => {
    const signals: AbortSignal[] = [];
    const client = (fake: ReturnType<typeof fakeFetch>) =>
      createApiClient({
        baseURL: 'http://api.test/api',
        getToken: () => Promise.resolve('t'),
        fetch: (url, init) => {
          if (init?.signal) signals.push(init.signal);
          return fake.fetch(url, init);
        },
      });
    for (const [fake, calls] of [
      [fakeFetch({ hang: true }), 1],
      [fakeFetch({ body: admin }, { hang: true }), 2],
    ] as const) {
      const actor = createActor(landingMachine.provide({ actors: landingActors(client(fake)) }), { input }).start();
      await vi.waitFor(() => expect(fake.calls).toHaveLength(calls));
      actor.stop();
    }
    expect(signals).toHaveLength(3);
    expect([signals[0]?.aborted, signals[2]?.aborted]).toEqual([true, true]);
  });
});
