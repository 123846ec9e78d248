import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Job, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
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

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
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

// Independent checks (issue 40): the test's own actors (a list the test answers when it chooses),
// the expected lists written out here, from spec 001 §2–§4 (dismiss a task that offers it).
describe('setup tasks, checked by hand', () => {
  function start(dismiss: () => Promise<unknown> = () => Promise.resolve()) {
    const calls: string[] = [];
    const lists: { resolve: (jobs: Job[]) => void; reject: (error: unknown) => void }[] = [];
    const actors = {
      list: fromPromise<Job[], { workspace: Workspace }>(({ input: asked }) => {
        calls.push(`list ${asked.workspace.id}`);
        return new Promise((resolve, reject) => void lists.push({ resolve, reject }));
      }),
      dismiss: fromPromise<unknown, { task: Job }>(({ input: asked }) => {
        calls.push(`dismiss ${asked.task.id}`);
        return dismiss();
      }),
    };
    const actor = createActor(setupTasksMachine.provide({ actors }), { input: { workspace } }).start();
    return { actor, calls, lists };
  }
  const ids = (tasks: readonly Job[] | null) => tasks?.map((t) => t.id);

  it('takes a dismissed task off the list at once, before the list is read again', async () => {
    const { actor, calls, lists } = start();
    lists[0]!.resolve([open, locked]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.dismiss', task: open });
    await waitFor(actor, (s) => s.matches('loading') && lists.length === 2);
    expect(calls).toEqual(['list w1', 'dismiss j1', 'list w1']);
    expect(ids(actor.getSnapshot().context.tasks)).toEqual(['j2']);
    expect(actor.getSnapshot().context.target).toBeNull();
    actor.stop();
  });

  it('does not dismiss a task without a delete link', async () => {
    const { actor, calls, lists } = start();
    lists[0]!.resolve([open, locked]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.dismiss', task: locked });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(calls).toEqual(['list w1']);
    actor.stop();
  });

  it('keeps the task and says why when the dismiss fails', async () => {
    const { actor, lists } = start(() => Promise.reject(new Error('Job is running')));
    lists[0]!.resolve([open, locked]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.dismiss', task: open });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Job is running', target: null });
    expect(ids(actor.getSnapshot().context.tasks)).toEqual(['j1', 'j2']);
    // a new dismiss clears the message
    actor.send({ type: 'user.dismiss', task: open });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.stop();
  });

  it('says why the list failed, and a retry reads it again without the message', async () => {
    const { actor, calls, lists } = start();
    lists[0]!.reject(new Error('disk on fire'));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('disk on fire');
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(calls).toEqual(['list w1', 'list w1']);
    actor.stop();
  });

  it('cancels the list and the dismiss when the view is left before they answer', async () => {
    const signals: AbortSignal[] = [];
    const page = (jobs: Job[]) => ({ body: { page: { size: 100, totalElements: jobs.length, totalPages: 1, number: 0 }, _embedded: { jobs } } });
    const fake = fakeFetch({ hang: true }, page([open]), { hang: true });
    const client = createApiClient({
      baseURL: BASE,
      getToken: () => Promise.resolve('t'),
      fetch: (url, init) => {
        if (init?.signal) signals.push(init.signal);
        return fake.fetch(url, init);
      },
      retryDelay: () => 0,
    });
    const first = createActor(setupTasksMachine.provide({ actors: setupTasksActors(client) }), { input: { workspace } }).start();
    await vi.waitFor(() => expect(fake.calls).toHaveLength(1));
    first.stop();
    const second = createActor(setupTasksMachine.provide({ actors: setupTasksActors(client) }), { input: { workspace } }).start();
    await waitFor(second, (s) => s.matches('ready'));
    second.send({ type: 'user.dismiss', task: open });
    await vi.waitFor(() => expect(fake.calls).toHaveLength(3));
    second.stop();
    expect(signals).toHaveLength(3);
    expect([signals[0]?.aborted, signals[2]?.aborted]).toEqual([true, true]);
  });
});
