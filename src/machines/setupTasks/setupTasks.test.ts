import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Job, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { setupTasksActors } from './setupTasks.actors';
import { setupTasksMachine, TASKS_POLL_MS } from './setupTasks.machine';

const BASE = 'http://api.test/api';
const workspace: Workspace = { id: 'w1', name: 'Acme', _links: { self: { href: `${BASE}/workspaces/w1` }, jobs: { href: `${BASE}/workspaces/w1/jobs` } } };
const open: Job = { id: 'j1', type: 'PROFILE_IMPORT', status: 'QUEUED', created: '2026-01-01T00:00:00Z', _links: { self: { href: `${BASE}/jobs/j1` }, 'delete job': { href: `${BASE}/jobs/j1` } } };
const done: Job = { ...open, status: 'COMPLETE', commitId: '0123456789abcdef' };
const locked: Job = { id: 'j2', type: 'PROFILE_PUBLISH', status: 'COMPLETE', created: '2026-01-02T00:00:00Z', _links: { self: { href: `${BASE}/jobs/j2` } } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.list': [{ output: [open, locked] }, { output: [done, locked] }],
  'xstate.error.actor.list': [{ error: offline }],
  'xstate.done.actor.dismiss': [{ output: undefined }],
  'xstate.error.actor.dismiss': [{ error: offline }],
  // Every task is offered; its links decide whether the machine acts.
  'user.dismiss': [{ task: open }, { task: locked }],
};

describe('the setup tasks view (model-based)', () => {
  const input = { workspace };
  const options = { input, events, stopWhen: (s: { context: { error: string | null } }) => s.context.error !== null };
  const paths = modelPaths(setupTasksMachine, options);

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(setupTasksMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(setupTasksMachine, paths, options)).toEqual([]);
  });

  it.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(setupTasksMachine, path, {
      input,
      states: {
        // Only a task carrying 'delete job' is dismissed.
        dismissing: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { task: Job }).task.id).toBe('j1'),
        ready: (s) => expect((s as { context: { tasks: Job[] | null } }).context.tasks).not.toBeNull(),
      },
    });
  });
});

describe('setup tasks scenarios', () => {
  it('re-reads every 5 s while a task is in progress, and stops once all are completed', async () => {
    const path = pathOf(setupTasksMachine, [{ type: 'xstate.done.actor.list', output: [open, locked] }, { type: 'xstate.after.tasksPoll.setupTasks.ready' }, { type: 'xstate.done.actor.list', output: [done, locked] }], { input: { workspace } });
    expect(path.state.matches('ready')).toBe(true);
    const log = await replayPath(setupTasksMachine, path, { input: { workspace } });
    expect(log.clock.now()).toBe(TASKS_POLL_MS);
    expect(path.state.can({ type: 'xstate.after.tasksPoll.setupTasks.ready' })).toBe(false);
  });

  it('puts open tasks first', () => {
    const path = pathOf(setupTasksMachine, [{ type: 'xstate.done.actor.list', output: [locked, open] }], { input: { workspace } });
    const tasks = (path.state.context as { tasks: readonly Job[] | null }).tasks;
    expect(tasks?.map((t) => t.id)).toEqual(['j1', 'j2']);
  });

  it('the real actors: lists the PROFILE_ types through the jobs link and DELETEs the task to dismiss it', async () => {
    const page = (jobs: Job[]) => ({ body: { page: { size: 100, totalElements: jobs.length, totalPages: 1, number: 0 }, _embedded: { jobs } } });
    const fake = fakeFetch(page([open, locked]), { status: 204 }, page([locked]));
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(setupTasksMachine.provide({ actors: setupTasksActors(client) }), { input: { workspace } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.dismiss', task: open });
    await waitFor(actor, (s) => s.matches('ready') && s.context.tasks?.length === 1);
    const types = 'PROFILE_IMPORT,PROFILE_COLLABORATE,PROFILE_PUBLISH,PROFILE_CONFIGURE_PIPELINE,PROFILE_CONFIGURE_DATASTORE';
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${BASE}/workspaces/w1/jobs?type=${types}&size=100`, `DELETE ${BASE}/jobs/j1`, `GET ${BASE}/workspaces/w1/jobs?type=${types}&size=100`]);
    actor.stop();
  });
});
