import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { DATA_STORE_TEXTS } from '../../domain/dataStores';
import type { DataPlugin, DataStore, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { dataStoreFormActors } from './dataStoreForm.actors';
import { dataStoreFormMachine, defaultStoreName, saveFailure, selectBusy, selectCanSave, STORE_POLL_MS, type DataStoreFormInput } from './dataStoreForm.machine';

const BASE = 'http://api.test/api';
const workspace: Workspace = {
  id: 'w1',
  name: 'Acme',
  _links: { self: { href: `${BASE}/workspaces/w1` }, 'new datastore': { href: `${BASE}/workspaces/w1/datastores` }, dataplugins: { href: `${BASE}/workspaces/w1/dataplugins` } },
};
const plugin: DataPlugin = { id: 'loaders/target-postgres--builtin', name: 'target-postgres', label: 'PostgreSQL', pluginType: 'LOADER', settings: [{ name: 'host', kind: 'STRING' }, { name: 'password', kind: 'PASSWORD' }] };
const links = (extra: Record<string, string>) => ({ self: { href: `${BASE}/datastores/s1` }, ...Object.fromEntries(Object.entries(extra).map(([rel, href]) => [rel, { href }])) });
const provisioning: DataStore = {
  id: 's1',
  name: 'Warehouse',
  status: 'PROVISIONING',
  dataPlugin: plugin.id,
  properties: { host: 'db', password: '***' },
  _links: links({ 'update datastore': `${BASE}/datastores/s1`, 'delete datastore': `${BASE}/datastores/s1` }),
};
const ready: DataStore = { ...provisioning, status: 'READY', _links: links({ 'update datastore': `${BASE}/datastores/s1`, 'make-default': `${BASE}/datastores/s1/default`, 'delete datastore': `${BASE}/datastores/s1` }) };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });
const refused = new ApiFailure({
  kind: 'response',
  status: 400,
  message: '[400] Bad Request',
  body: { timestamp: '2026-11-22T00:00:00Z', status: 400, error: 'Bad Request', message: "Validation failed for object='dataStore'", path: '/api/workspaces/w1/datastores', errors: [{ field: 'properties.host', objectName: 'dataStore', defaultMessage: 'is required' }] },
});
const silent = new ApiFailure({ kind: 'response', status: 409, message: '[409]', body: { timestamp: '2026-11-22T00:00:00Z', status: 409, error: 'Conflict', message: '', path: '/api/datastores/s1', errors: [] } });

const events = {
  'xstate.done.actor.load': (s: { context: { datastoreId: string | null } }) => [{ output: s.context.datastoreId === null ? { store: null, plugin } : { store: provisioning, plugin } }],
  'xstate.error.actor.load': [{ error: offline }],
  'xstate.done.actor.save': [{ output: ready }],
  'xstate.error.actor.save': [{ error: refused }, { error: silent }],
  'xstate.done.actor.refresh': [{ output: ready }],
  'xstate.error.actor.refresh': [{ error: offline }],
  'xstate.done.actor.remove': [{ output: undefined }],
  'xstate.error.actor.remove': [{ error: offline }],
  'user.name': [{ value: '' }, { value: 'Lake' }],
  'user.setProperty': [{ key: 'host', value: 'db2' }],
};

const inputs: Array<[string, DataStoreFormInput]> = [
  ['a new store from ?dataplugin', { workspaceId: 'w1', workspace, datastoreId: null, dataPluginId: plugin.id, validate: false }],
  ['an existing store with ?validate=true', { workspaceId: 'w1', workspace, datastoreId: 's1', dataPluginId: null, validate: true }],
];

describe.each(inputs)('the data store form for %s (model-based)', (_, input) => {
  const options = { input, events: events as never, stopWhen: (s: { context: { banner: string | null; store: DataStore | null } }) => s.context.banner !== null && s.context.store?.status === 'READY' };
  const paths = modelPaths(dataStoreFormMachine, options);

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(dataStoreFormMachine, paths).filter((s) => !(input.datastoreId === null && ['confirming', 'deleting', 'refreshing'].includes(s.replace('dataStoreForm.', ''))))).toEqual([]);
    expect(unwalkedTransitions(dataStoreFormMachine, paths, options).filter((t) => input.datastoreId !== null || !/confirming|deleting|refresh|storePoll|user\.delete/.test(t))).toEqual([]);
  });

  it.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(dataStoreFormMachine, path, {
      input,
      states: {
        editing: (s) => {
          const c = s.context as Parameters<typeof selectCanSave>[0];
          if (c.name.trim() === '') expect(selectCanSave(c)).toBe(false);
          if (!c.nameTyped) expect(c.name).toBe(defaultStoreName(c.store, c.plugin));
        },
        saving: (s, log: ReplayLog) => {
          expect(selectBusy(s as never)).toBe(true);
          const body = (log.invocations.at(-1)?.input as { body: { name: string; dataPlugin?: string } }).body;
          expect(body.name).not.toBe('');
          // Only a new store names its plugin (spec §7: create also sends dataPlugin).
          expect(body.dataPlugin).toBe((s.context as { store: unknown }).store === null ? plugin.id : undefined);
        },
        leaving: (s, log: ReplayLog) => {
          const move = log.actions.at(-1);
          expect(['showStore', 'close']).toContain(move?.name);
          expect((move?.params as { message: string }).message).toMatch(move?.name === 'showStore' ? / Saved$/ : / deleted$/);
        },
      },
    });
  });
});

describe('data store form scenarios', () => {
  const newInput: DataStoreFormInput = { workspaceId: 'w1', workspace, datastoreId: null, dataPluginId: plugin.id, validate: false };

  it('names a new store after its plugin until the user types, and Save is disabled without a name', () => {
    const loaded = pathOf(dataStoreFormMachine, [{ type: 'xstate.done.actor.load', output: { store: null, plugin } }], { input: newInput });
    expect(loaded.state.context.name).toBe('PostgreSQL');
    const cleared = pathOf(dataStoreFormMachine, [{ type: 'xstate.done.actor.load', output: { store: null, plugin } }, { type: 'user.name', value: ' ' }], { input: newInput });
    expect(selectCanSave(cleared.state.context as never)).toBe(false);
    expect(cleared.state.can({ type: 'user.save' })).toBe(false);
  });

  it('a save error without a message reads "An unexpected error occurred"; a 400 brings field errors', () => {
    expect(saveFailure(silent)).toEqual({ banner: DATA_STORE_TEXTS.unexpected, fieldErrors: {} });
    expect(saveFailure(refused)).toEqual({ banner: "Validation failed for object='dataStore'", fieldErrors: { 'properties.host': 'is required' } });
    expect(saveFailure(new Error(''))).toEqual({ banner: 'An unexpected error occurred.', fieldErrors: {} });
  });

  it('re-reads a store whose check runs every 5 s, keeping what the user typed', async () => {
    const path = pathOf(
      dataStoreFormMachine,
      [
        { type: 'xstate.done.actor.load', output: { store: provisioning, plugin } },
        { type: 'user.setProperty', key: 'host', value: 'typed' },
        { type: 'xstate.after.storePoll.dataStoreForm.editing' },
        { type: 'xstate.done.actor.refresh', output: ready },
      ],
      { input: { ...newInput, datastoreId: 's1' } },
    );
    expect(path.state.context.store?.status).toBe('READY');
    expect(path.state.context.properties).toMatchObject({ host: 'typed' });
    const log = await replayPath(dataStoreFormMachine, path, { input: { ...newInput, datastoreId: 's1' } });
    expect(log.clock.now()).toBe(STORE_POLL_MS);
  });

  it('the real actors POST a new store to "new datastore" and PUT an update to "update datastore"', async () => {
    const fake = fakeFetch({ body: { page: { size: 9999, totalElements: 1, totalPages: 1, number: 0 }, _embedded: { dataplugins: [plugin] } } }, { status: 201, body: provisioning }, { body: ready });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const moves: unknown[] = [];
    const machine = dataStoreFormMachine.provide({ actors: dataStoreFormActors(client), actions: { showStore: (_, params) => void moves.push(params), close: (_, params) => void moves.push(params) } });
    const actor = createActor(machine, { input: newInput }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'user.setProperty', key: 'host', value: '127.0.0.1' });
    actor.send({ type: 'user.save' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${BASE}/workspaces/w1/dataplugins?sort=label&size=9999`, `POST ${BASE}/workspaces/w1/datastores`]);
    expect(fake.calls[1]?.body).toEqual({ name: 'PostgreSQL', properties: { host: '127.0.0.1' }, dataPlugin: plugin.id });
    expect(moves).toEqual([{ workspaceId: 'w1', datastoreId: 's1', message: 'Warehouse Saved' }]);
    actor.stop();

    const update = fakeFetch({ body: provisioning }, { body: { page: { size: 9999, totalElements: 1, totalPages: 1, number: 0 }, _embedded: { dataplugins: [plugin] } } }, { body: ready });
    const updateClient = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: update.fetch, retryDelay: () => 0 });
    const saved: string[] = [];
    const editor = createActor(dataStoreFormMachine.provide({ actors: dataStoreFormActors(updateClient) }), { input: { ...newInput, datastoreId: 's1', dataPluginId: null } }).start();
    editor.on('datastore.saved', (event) => void saved.push(event.message));
    await waitFor(editor, (s) => s.matches('editing'));
    editor.send({ type: 'user.save' });
    await waitFor(editor, (s) => s.matches('editing') && s.context.store?.status === 'READY');
    expect(update.calls.map((c) => `${c.method} ${c.url}`).at(-1)).toBe(`PUT ${BASE}/datastores/s1`);
    expect(update.calls.at(-1)?.body).toEqual({ name: 'Warehouse', properties: { host: 'db', password: '***' } });
    expect(saved).toEqual(['Warehouse Saved']);
    editor.stop();
  });
});
