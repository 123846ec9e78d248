import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { DATA_STORE_TEXTS } from '../../domain/dataStores';
import type { DataPlugin, DataStore, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { dataStoreFormActors } from './dataStoreForm.actors';
import { dataStoreFormMachine, defaultStoreName, propertiesToSave, saveFailure, selectBusy, selectCanSave, STORE_POLL_MS, type DataStoreFormInput, type LoadedStore, type SaveStoreInput, type StoreInput } from './dataStoreForm.machine';
import { deferred } from '../testing/deferred.fixture';

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

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
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

// Independent checks (issue 40): the actors and the router's moves are the test's own, and the
// expected bodies, messages and texts are written here by hand.
describe('dataStoreForm, checked by hand', () => {
  type Call = { name: string; input: unknown; answer: ReturnType<typeof deferred<unknown>> };

  function start(input: DataStoreFormInput) {
    const calls: Call[] = [];
    const moves: { name: string; params: unknown }[] = [];
    function scripted<TOutput, TInput>(name: string) {
      return fromPromise<TOutput, TInput>(({ input: given }) => {
        const answer = deferred<unknown>();
        calls.push({ name, input: given, answer });
        return answer.promise as Promise<TOutput>;
      });
    }
    const machine = dataStoreFormMachine.provide({
      actors: {
        load: scripted<LoadedStore, DataStoreFormInput>('load'),
        save: scripted<DataStore, SaveStoreInput>('save'),
        refresh: scripted<DataStore, StoreInput>('refresh'),
        remove: scripted<unknown, StoreInput>('remove'),
      },
      actions: { showStore: (_, params) => void moves.push({ name: 'showStore', params }), close: (_, params) => void moves.push({ name: 'close', params }) },
    });
    const actor = createActor(machine, { input }).start();
    const saved: string[] = [];
    actor.on('datastore.saved', (event) => void saved.push(event.message));
    const last = async (name: string) => {
      await waitFor(actor, () => calls.at(-1)?.name === name, { timeout: 1_000 });
      return calls.at(-1)!;
    };
    return { actor, calls, moves, saved, last };
  }
  const existing: DataStoreFormInput = { workspaceId: 'w1', workspace, datastoreId: 's1', dataPluginId: null, validate: false };
  const fresh: DataStoreFormInput = { workspaceId: 'w1', workspace, datastoreId: null, dataPluginId: plugin.id, validate: false };
  const state = (actor: { getSnapshot: () => { value: unknown } }) => actor.getSnapshot().value;

  it('a failed load says why; Retry loads again with the same input; Close leaves without a message', async () => {
    const { actor, calls, moves, last } = start(existing);
    (await last('load')).answer.reject(offline);
    await waitFor(actor, (s) => s.matches('failed'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.loadError).toBe('We were unable to connect.');
    actor.send({ type: 'user.close' });
    expect(moves).toEqual([{ name: 'close', params: { workspaceId: 'w1', message: null } }]);
    actor.send({ type: 'user.retry' });
    const again = await last('load');
    expect(calls.map((c) => c.name)).toEqual(['load', 'load']);
    expect(again.input).toEqual({ workspaceId: 'w1', workspace, datastoreId: 's1', dataPluginId: null, validate: false });
    again.answer.resolve({ store: ready, plugin });
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ loadError: null, store: ready, plugin, name: 'Warehouse', properties: { host: 'db', password: '***' }, nameTyped: false });
    actor.stop();
  });

  it('typing clears only that field\'s error; a save sends the trimmed name and the set properties, and a 400 shows field errors', async () => {
    const { actor, saved, last } = start(existing);
    (await last('load')).answer.resolve({ store: ready, plugin });
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    actor.send({ type: 'user.name', value: '  Lake  ' });
    actor.send({ type: 'user.setProperty', key: 'port', value: undefined });
    actor.send({ type: 'user.setProperty', key: 'host', value: 'db2' });
    expect(actor.getSnapshot().context).toMatchObject({ name: '  Lake  ', nameTyped: true, properties: { host: 'db2', password: '***', port: undefined } });
    actor.send({ type: 'user.save' });
    expect(selectBusy(actor.getSnapshot())).toBe(true);
    const save = await last('save');
    expect(save.input).toEqual({ workspace, store: ready, body: { name: 'Lake', properties: { host: 'db2', password: '***' } } });
    const twoFields = new ApiFailure({
      kind: 'response',
      status: 400,
      message: '[400]',
      body: {
        timestamp: 't',
        status: 400,
        error: 'Bad Request',
        message: '  Check the form  ',
        path: '/x',
        errors: [
          { field: 'name', objectName: 'dataStore', defaultMessage: 'is taken' },
          { field: 'properties.host', objectName: 'dataStore', defaultMessage: 'is unreachable' },
          { field: 'name', objectName: 'dataStore', defaultMessage: 'second word on the name' },
        ],
      },
    });
    save.answer.reject(twoFields);
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ banner: 'Check the form', fieldErrors: { name: 'is taken', 'properties.host': 'is unreachable' } });
    actor.send({ type: 'user.setProperty', key: 'host', value: 'db3' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'is taken' });
    actor.send({ type: 'user.name', value: 'Lake' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    // the next save clears the banner, and its answer replaces store, name and properties
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().context.banner).toBeNull();
    const renamed: DataStore = { ...ready, name: 'Lake', properties: { host: 'db3' } };
    (await last('save')).answer.resolve(renamed);
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ store: renamed, name: 'Lake', properties: { host: 'db3' }, banner: null, fieldErrors: {} });
    expect(saved).toEqual(['Lake Saved']);
    actor.stop();
  });

  it('a new store is saved with its plugin and opened with a toast naming it', async () => {
    const { actor, moves, last } = start(fresh);
    (await last('load')).answer.resolve({ store: null, plugin });
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.name).toBe('PostgreSQL');
    actor.send({ type: 'user.save' });
    const save = await last('save');
    expect(save.input).toEqual({ workspace, store: null, body: { name: 'PostgreSQL', properties: {}, dataPlugin: plugin.id } });
    save.answer.resolve({ ...provisioning, id: 's7', name: 'Lake' });
    await waitFor(actor, (s) => s.status === 'done', { timeout: 1_000 });
    expect(moves).toEqual([{ name: 'showStore', params: { workspaceId: 'w1', datastoreId: 's7', message: 'Lake Saved' } }]);
    actor.stop();
  });

  it('?validate=true saves once on load; a store without the delete link cannot be deleted', async () => {
    const { actor, calls, last } = start({ ...existing, validate: true });
    const noDelete: DataStore = { ...ready, _links: links({ 'update datastore': `${BASE}/datastores/s1` }) };
    (await last('load')).answer.resolve({ store: noDelete, plugin });
    const save = await last('save');
    expect(actor.getSnapshot().context.validatePending).toBe(false);
    save.answer.reject(silent);
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.banner).toBe('An unexpected error occurred');
    expect(calls.map((c) => c.name)).toEqual(['load', 'save']);
    actor.send({ type: 'user.delete' });
    expect(state(actor)).toBe('editing');
    actor.stop();
    // a new store's link with ?validate=true and no plugin: saved as it is, for the server to refuse
    const bare = start({ ...fresh, dataPluginId: null, validate: true });
    (await bare.last('load')).answer.resolve({ store: null, plugin: null });
    expect((await bare.last('save')).input).toEqual({ workspace, store: null, body: { name: '', properties: {} } });
    bare.actor.stop();
  });

  it('deletes after the confirmation and leaves saying what was deleted; Cancel goes back; a failure shows a banner', async () => {
    const { actor, moves, last } = start(existing);
    (await last('load')).answer.resolve({ store: ready, plugin });
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    actor.send({ type: 'user.delete' });
    expect(state(actor)).toBe('confirming');
    actor.send({ type: 'user.cancel' });
    expect(state(actor)).toBe('editing');
    actor.send({ type: 'user.delete' });
    actor.send({ type: 'user.confirm' });
    expect(selectBusy(actor.getSnapshot())).toBe(true);
    const first = await last('remove');
    expect(first.input).toEqual({ store: ready });
    first.answer.reject(offline);
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.banner).toBe('We were unable to connect.');
    expect(selectBusy(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'user.delete' });
    actor.send({ type: 'user.confirm' });
    (await last('remove')).answer.resolve(undefined);
    await waitFor(actor, (s) => s.status === 'done', { timeout: 1_000 });
    expect(moves).toEqual([{ name: 'close', params: { workspaceId: 'w1', message: 'Warehouse deleted' } }]);
    actor.stop();
  });

  it('a failed re-read of a store being checked shows a banner and keeps the store', async () => {
    vi.useFakeTimers();
    try {
      const { actor, last } = start(existing);
      (await last('load')).answer.resolve({ store: provisioning, plugin });
      await vi.waitFor(() => expect(actor.getSnapshot().matches('editing')).toBe(true));
      await vi.advanceTimersByTimeAsync(STORE_POLL_MS);
      expect(state(actor)).toBe('refreshing');
      const refresh = await last('refresh');
      expect(refresh.input).toEqual({ store: provisioning });
      refresh.answer.reject(offline);
      await vi.waitFor(() => expect(actor.getSnapshot().matches('editing')).toBe(true));
      expect(actor.getSnapshot().context).toMatchObject({ banner: 'We were unable to connect.', store: provisioning });
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('names a store by its name, else its plugin\'s label, else the plugin\'s name', () => {
    expect(defaultStoreName(null, { ...plugin, label: undefined })).toBe('target-postgres');
    expect(defaultStoreName(null, null)).toBe('');
    expect(defaultStoreName(ready, plugin)).toBe('Warehouse');
  });

  it('a refusal without a body, or a body without a message, reads "An unexpected error occurred" and keeps the fields it names', () => {
    expect(saveFailure(new ApiFailure({ kind: 'response', status: 404, message: '[404]' }))).toStrictEqual({ banner: DATA_STORE_TEXTS.unexpected, fieldErrors: {} });
    const fieldsOnly = new ApiFailure({ kind: 'response', status: 400, message: '[400]', body: { errors: [{ field: 'name', objectName: 'dataStore', defaultMessage: 'is taken' }] } as never });
    expect(saveFailure(fieldsOnly)).toEqual({ banner: DATA_STORE_TEXTS.unexpected, fieldErrors: { name: 'is taken' } });
  });

  it('a save sends the settings that have a value (an empty text or false is a value)', () => {
    expect(propertiesToSave({ host: 'db', port: undefined, ssl: false, schema: '' })).toEqual({ host: 'db', ssl: false, schema: '' });
    expect(Object.keys(propertiesToSave({ a: undefined }))).toEqual([]);
  });

  it('starts with no name; Close while editing leaves without a message; a deleted store is named as stored, whatever was typed', async () => {
    const { actor, moves, last } = start(existing);
    expect(actor.getSnapshot().context.name).toBe('');
    (await last('load')).answer.resolve({ store: ready, plugin });
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    actor.send({ type: 'user.close' });
    expect(moves).toEqual([{ name: 'close', params: { workspaceId: 'w1', message: null } }]);
    actor.send({ type: 'user.name', value: 'Renamed, not saved' });
    actor.send({ type: 'user.delete' });
    actor.send({ type: 'user.confirm' });
    (await last('remove')).answer.resolve(undefined);
    await waitFor(actor, (s) => s.status === 'done', { timeout: 1_000 });
    expect(moves.at(-1)).toEqual({ name: 'close', params: { workspaceId: 'w1', message: 'Warehouse deleted' } });
  });

  it('only a store being provisioned is re-read every 5 s, and its answer goes back to the form; a new store is busy while it opens', async () => {
    vi.useFakeTimers();
    try {
      for (const [input, loaded] of [[fresh, { store: null, plugin }], [existing, { store: ready, plugin }]] as const) {
        const { actor, calls, last } = start(input);
        (await last('load')).answer.resolve(loaded);
        await vi.waitFor(() => expect(actor.getSnapshot().matches('editing')).toBe(true));
        await vi.advanceTimersByTimeAsync(STORE_POLL_MS * 3);
        expect(state(actor)).toBe('editing');
        expect(calls.map((c) => c.name)).toEqual(['load']);
        actor.stop();
      }
      const { actor, last } = start(existing);
      (await last('load')).answer.resolve({ store: provisioning, plugin });
      await vi.waitFor(() => expect(actor.getSnapshot().matches('editing')).toBe(true));
      await vi.advanceTimersByTimeAsync(STORE_POLL_MS);
      (await last('refresh')).answer.resolve(ready);
      await vi.waitFor(() => expect(actor.getSnapshot().matches('editing')).toBe(true));
      expect(actor.getSnapshot().context.store).toBe(ready);
      actor.stop();
      const created = start(fresh);
      (await created.last('load')).answer.resolve({ store: null, plugin });
      await vi.waitFor(() => expect(created.actor.getSnapshot().matches('editing')).toBe(true));
      created.actor.send({ type: 'user.save' });
      (await created.last('save')).answer.resolve(provisioning);
      await vi.waitFor(() => expect(created.actor.getSnapshot().status).toBe('done'));
      expect(selectBusy(created.actor.getSnapshot())).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Save needs the plugin and the workspace\'s link for a new store, and the store\'s own link for a stored one', () => {
    const context = (over: object) => ({ ...fresh, store: null, plugin, name: 'Warehouse', nameTyped: true, properties: {}, banner: null, fieldErrors: {}, loadError: null, validatePending: false, ...over }) as never;
    expect(selectCanSave(context({}))).toBe(true);
    expect(selectCanSave(context({ plugin: null }))).toBe(false);
    expect(selectCanSave(context({ workspace: { ...workspace, _links: { self: { href: `${BASE}/workspaces/w1` } } } }))).toBe(false);
    const noUpdate = { ...ready, _links: links({ 'delete datastore': `${BASE}/datastores/s1` }) };
    expect(selectCanSave(context({ store: noUpdate }))).toBe(false);
    expect(selectCanSave(context({ store: ready }))).toBe(true);
  });

  it('the real load reads a plugin only when one is named, by the store or the input', async () => {
    const pluginPage = { body: { page: { size: 9999, totalElements: 1, totalPages: 1, number: 0 }, _embedded: { dataplugins: [plugin] } } };
    const load = async (input: DataStoreFormInput, ...replies: Parameters<typeof fakeFetch>) => {
      const fake = fakeFetch(...replies);
      const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
      const actor = createActor(dataStoreFormActors(client).load, { input }).start();
      const output = await new Promise<LoadedStore>((resolve, reject) => actor.subscribe({ complete: () => resolve(actor.getSnapshot().output as LoadedStore), error: reject }));
      return { output, urls: fake.calls.map((c) => c.url) };
    };
    for (const dataPluginId of [null, '']) expect(await load({ ...fresh, dataPluginId })).toEqual({ output: { store: null, plugin: null }, urls: [] });
    const named = await load(fresh, pluginPage);
    expect(named.output).toEqual({ store: null, plugin });
    expect(named.urls).toEqual([`${BASE}/workspaces/w1/dataplugins?sort=label&size=9999`]);
    const stored = await load(existing, { body: ready }, pluginPage);
    expect(stored.output.plugin).toEqual(plugin);
    expect(stored.urls).toEqual([`${BASE}/datastores/s1`, `${BASE}/workspaces/w1/dataplugins?sort=label&size=9999`]);
  });

  it('cancels each request when the page is left', async () => {
    expect(await requestsCancelledOnStop(dataStoreFormActors, { load: existing, save: { workspace, store: ready, body: { name: 'x', properties: {} } }, refresh: { store: ready }, remove: { store: ready } })).toEqual({
      load: true,
      save: true,
      refresh: true,
      remove: true,
    });
    // a new store's form reads only its plugin
    expect(await requestsCancelledOnStop(dataStoreFormActors, { load: fresh })).toEqual({ load: true });
  });
});
