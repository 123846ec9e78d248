import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { DataStore, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { dataStoreListActors } from './dataStoreList.actors';
import { dataStoreListMachine, LIST_POLL_MS, selectConfirmOpen } from './dataStoreList.machine';

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

  it.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
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
