import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { DataStore, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { dataStoreListActors } from './dataStoreList.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { dataStoreListMachine, LIST_POLL_MS, selectConfirmOpen, type TargetInput, type WorkspaceInput } from './dataStoreList.machine';

const BASE = 'http://api.test/api';
const workspace: Workspace = { id: 'w1', name: 'Acme', _links: { self: { href: `${BASE}/workspaces/w1` }, datastores: { href: `${BASE}/workspaces/w1/datastores` } } };
const embedded: DataStore = { id: 'm', name: 'Default store', managed: true, default: true, status: 'READY', _links: { self: { href: `${BASE}/datastores/m` } } };
const checking: DataStore = { id: 's1', name: 'Warehouse', status: 'PROVISIONING', _links: { self: { href: `${BASE}/datastores/s1` }, 'delete datastore': { href: `${BASE}/datastores/s1` } } };
const ready: DataStore = { ...checking, status: 'READY', _links: { ...checking._links, 'make-default': { href: `${BASE}/datastores/s1/default` } } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.list': [{ output: [embedded, checking] }, { output: [embedded, ready] }],
  'xstate.error.actor.list': [{ error: offline }],
  'xstate.done.actor.makeDefault': [{ output: undefined }],
  'xstate.error.actor.makeDefault': [{ error: offline }],
  'xstate.done.actor.refreshWorkspace': [{ output: workspace }],
  'xstate.error.actor.refreshWorkspace': [{ error: offline }],
  'xstate.done.actor.remove': [{ output: undefined }],
  'xstate.error.actor.remove': [{ error: offline }],
  // Every store of the list is offered; the links decide which the machine acts on.
  'user.makeDefault': [{ store: embedded }, { store: ready }],
  'user.delete': [{ store: embedded }, { store: ready }],
};

describe('the data stores list (model-based)', () => {
  const input = { workspace };
  const options = { input, events, stopWhen: (s: { context: { error: string | null } }) => s.context.error !== null };
  const paths = modelPaths(dataStoreListMachine, options);

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(dataStoreListMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(dataStoreListMachine, paths, options)).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(dataStoreListMachine, path, {
      input,
      states: {
        confirming: (s) => expect(selectConfirmOpen(s as never)).toBe(true),
        ready: (s) => expect(selectConfirmOpen(s as never)).toBe(false),
        // Only a store carrying the link is acted on: the embedded default store never is.
        makingDefault: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { store: DataStore }).store.id).toBe('s1'),
        deleting: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { store: DataStore }).store.id).toBe('s1'),
      },
    });
  });
});

describe('data stores list scenarios', () => {
  it('re-reads the list every 5 s while a store is being checked, and stops once none is', async () => {
    const path = pathOf(dataStoreListMachine, [{ type: 'xstate.done.actor.list', output: [embedded, checking] }, { type: 'xstate.after.listPoll.dataStoreList.ready' }, { type: 'xstate.done.actor.list', output: [embedded, ready] }], { input: { workspace } });
    expect(path.state.matches('ready')).toBe(true);
    const log = await replayPath(dataStoreListMachine, path, { input: { workspace } });
    expect(log.clock.now()).toBe(LIST_POLL_MS);
    expect(path.state.can({ type: 'xstate.after.listPoll.dataStoreList.ready' })).toBe(false);
  });

  it('the real actors: make-default PUTs, then re-reads the workspace and the stores; delete DELETEs and tells the page', async () => {
    const page = (stores: DataStore[]) => ({ body: { page: { size: 100, totalElements: stores.length, totalPages: 1, number: 0 }, _embedded: { datastores: stores } } });
    const fake = fakeFetch(page([embedded, ready]), { status: 200, body: ready }, { body: workspace }, page([ready, embedded]), { status: 204 }, page([embedded]));
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(dataStoreListMachine.provide({ actors: dataStoreListActors(client) }), { input: { workspace } }).start();
    const deleted: string[] = [];
    actor.on('datastore.deleted', (event) => void deleted.push(event.message));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.makeDefault', store: ready });
    await waitFor(actor, (s) => s.matches('ready') && s.context.stores?.[0]?.id === 's1');
    actor.send({ type: 'user.delete', store: ready });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.stores?.length === 1);
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET ${BASE}/workspaces/w1/datastores?size=100`,
      `PUT ${BASE}/datastores/s1/default`,
      `GET ${BASE}/workspaces/w1`,
      `GET ${BASE}/workspaces/w1/datastores?size=100`,
      `DELETE ${BASE}/datastores/s1`,
      `GET ${BASE}/workspaces/w1/datastores?size=100`,
    ]);
    expect(deleted).toEqual(['Warehouse deleted']);
    actor.stop();
  });
});

describe('dataStoreList, checked by hand', () => {
  // The replays check the machine against paths it made itself; these check what a page sees,
  // through actors the test provides. Failure texts are spec 000 §8's for a network failure.
  const UNABLE = 'We were unable to connect.';
  type Step<T> = { resolve: (value: T) => void; reject: (error: unknown) => void };
  function start() {
    const calls: string[] = [];
    const pending: Step<unknown>[] = [];
    const answer = <T,>(name: string, describeInput: (input: never) => string) =>
      fromPromise<T, never>(({ input }) => {
        calls.push(`${name} ${describeInput(input)}`);
        return new Promise<T>((resolve, reject) => void pending.push({ resolve: resolve as (value: unknown) => void, reject }));
      });
    const actors = {
      list: answer<DataStore[]>('list', (input: WorkspaceInput) => input.workspace.name),
      makeDefault: answer<unknown>('makeDefault', (input: TargetInput) => input.store.id),
      refreshWorkspace: answer<Workspace>('refreshWorkspace', (input: WorkspaceInput) => input.workspace.name),
      remove: answer<unknown>('remove', (input: TargetInput) => input.store.id),
    };
    const actor = createActor(dataStoreListMachine.provide({ actors: actors as never }), { input: { workspace } }).start();
    /** Settles the request made last, and waits for the machine to act on it. */
    const settle = async (outcome: { ok: unknown } | { fail: unknown }) => {
      const step = pending.shift()!;
      if ('ok' in outcome) step.resolve(outcome.ok);
      else step.reject(outcome.fail);
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { actor, calls, settle, context: () => actor.getSnapshot().context };
  }

  it('shows a failed read and reads again on Retry, the message gone', async () => {
    const { actor, calls, settle, context } = start();
    await settle({ fail: offline });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(context().error).toBe(UNABLE);
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(context().error).toBeNull();
    await settle({ ok: [embedded, ready] });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(calls).toEqual(['list Acme', 'list Acme']);
    actor.stop();
  });

  it('keeps the list when make-default fails, saying why, with no store chosen', async () => {
    const { actor, calls, settle, context } = start();
    await settle({ ok: [embedded, ready] });
    actor.send({ type: 'user.makeDefault', store: ready });
    expect(context().target?.id).toBe('s1');
    await settle({ fail: offline });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(context()).toMatchObject({ error: UNABLE, target: null });
    expect(context().stores?.map((s) => s.id)).toEqual(['m', 's1']);
    expect(calls).toEqual(['list Acme', 'makeDefault s1']);
    actor.stop();
  });

  it('after make-default reads the list again with the workspace it re-read, or with the old one and the failure', async () => {
    const renamed: Workspace = { ...workspace, name: 'Acme 2' };
    const good = start();
    await good.settle({ ok: [embedded, ready] });
    good.actor.send({ type: 'user.makeDefault', store: ready });
    await good.settle({ ok: undefined });
    await good.settle({ ok: renamed });
    expect(good.actor.getSnapshot().value).toBe('loading');
    expect(good.context()).toMatchObject({ workspace: renamed, target: null, error: null });
    expect(good.calls).toEqual(['list Acme', 'makeDefault s1', 'refreshWorkspace Acme', 'list Acme 2']);
    good.actor.stop();

    const bad = start();
    await bad.settle({ ok: [embedded, ready] });
    bad.actor.send({ type: 'user.makeDefault', store: ready });
    await bad.settle({ ok: undefined });
    await bad.settle({ fail: offline });
    expect(bad.actor.getSnapshot().value).toBe('loading');
    expect(bad.context()).toMatchObject({ workspace, target: null, error: UNABLE });
    expect(bad.calls).toEqual(['list Acme', 'makeDefault s1', 'refreshWorkspace Acme', 'list Acme']);
    bad.actor.stop();
  });

  it('asks before deleting: Cancel keeps the store, Confirm deletes it and keeps the dialog open until it is done', async () => {
    const { actor, calls, settle, context } = start();
    await settle({ ok: [embedded, ready] });
    actor.send({ type: 'user.delete', store: ready });
    expect(selectConfirmOpen(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(context().target).toBeNull();
    expect(selectConfirmOpen(actor.getSnapshot())).toBe(false);

    actor.send({ type: 'user.delete', store: ready });
    actor.send({ type: 'user.confirm' });
    expect(actor.getSnapshot().value).toBe('deleting');
    expect(selectConfirmOpen(actor.getSnapshot())).toBe(true);
    await settle({ ok: undefined });
    // gone from the list before the list is read again (which has not answered)
    expect(actor.getSnapshot().value).toBe('loading');
    expect(context().stores?.map((s) => s.id)).toEqual(['m']);
    expect(context().target).toBeNull();
    expect(calls).toEqual(['list Acme', 'remove s1', 'list Acme']);
    actor.stop();
  });

  it('keeps a store whose delete failed, saying why', async () => {
    const { actor, settle, context } = start();
    await settle({ ok: [embedded, ready] });
    actor.send({ type: 'user.delete', store: ready });
    actor.send({ type: 'user.confirm' });
    await settle({ fail: offline });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(context()).toMatchObject({ error: UNABLE, target: null });
    expect(context().stores?.map((s) => s.id)).toEqual(['m', 's1']);
    actor.stop();
  });

  it('cancels each request when the page is left before it answers', async () => {
    const inputs = { list: { workspace }, makeDefault: { store: ready }, refreshWorkspace: { workspace }, remove: { store: ready } };
    expect(await requestsCancelledOnStop(dataStoreListActors, inputs)).toEqual({ list: true, makeDefault: true, refreshWorkspace: true, remove: true });
  });
});
