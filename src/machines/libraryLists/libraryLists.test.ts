import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { LIBRARY_TEXT } from '../../domain/library';
import type { Channel } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ModelStep } from '../testing';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { libraryListsActors } from './libraryLists.actors';
import { canDelete, canRename, canToggleScope, libraryListsMachine, selectConfirmOpen, selectDialogOpen, type LibraryKind, type LibraryListsContext, type LibraryListsSnapshot, type SaveListInput } from './libraryLists.machine';
import type { HalLike } from '../../domain/hal';
import { deferred } from '../testing/deferred.fixture';

const API = 'http://api.test/api';
const workspace = { id: 'w', _links: { channels: { href: `${API}/workspaces/w/channels` }, 'create channel': { href: `${API}/workspaces/w/channels/n1` } } };
const mine: Channel = {
  id: 'l1',
  name: 'Picks',
  description: 'for later',
  type: 'LIST',
  scope: 'PROFILE',
  canDelete: true,
  _links: {
    self: { href: `${API}/channels/l1` },
    'update channel': { href: `${API}/channels/l1` },
    'delete channel': { href: `${API}/channels/l1` },
    'add workspace-scope': { href: `${API}/channels/l1/scope/workspace` },
  },
};
const theirs: Channel = { id: 'l2', name: 'Team', type: 'LIST', scope: 'WORKSPACE', canDelete: false, _links: { self: { href: `${API}/channels/l2` } } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.loadChannels': [{ output: [mine, theirs] }],
  'xstate.error.actor.loadChannels': [{ error: offline }],
  'xstate.done.actor.saveList': [{ output: mine }],
  'xstate.error.actor.saveList': [{ error: offline }],
  'xstate.done.actor.deleteList': [{ output: undefined }],
  'xstate.error.actor.deleteList': [{ error: offline }],
  'xstate.done.actor.toggleScope': [{ output: { ...mine, scope: 'WORKSPACE' } }],
  'xstate.error.actor.toggleScope': [{ error: offline }],
  'user.rename': [{ channel: mine }, { channel: theirs }],
  'user.delete': [{ channel: mine }, { channel: theirs }],
  'user.toggleScope': [{ channel: mine }, { channel: theirs }],
  'user.changeName': [{ name: '  ' }, { name: 'New picks' }],
  'user.changeDescription': [{ description: 'notes' }],
};

/** What must hold after each step. */
function checkStep(before: ModelStep, after: ModelStep): void {
  const now = after.state.context as LibraryListsContext;
  const snapshot = after.state as LibraryListsSnapshot;
  expect(selectDialogOpen(snapshot)).toBe(now.dialog !== null);
  if (snapshot.matches('confirming') || snapshot.matches('deleting')) expect(now.pending && canDelete(now.pending)).toBe(true);
  if (after.event.type === 'user.submit' && snapshot.matches('editing')) expect(now.dialog?.error).toBe(LIBRARY_TEXT.nameRequired);
  // only a row with canDelete ever gets an action
  for (const type of ['user.rename', 'user.delete', 'user.toggleScope']) {
    if (after.event.type === type && (after.event as unknown as { channel: Channel }).channel.canDelete !== true) {
      expect(after.state.value).toBe(before.state.value);
    }
  }
  expect(selectConfirmOpen(snapshot)).toBe(snapshot.matches('confirming') || snapshot.matches('deleting'));
}

describe.each(['LIST', 'SOURCE'] as const)('library rows of kind %s (model-based)', (kind) => {
  const input = { workspace, kind };
  const paths = modelPaths(libraryListsMachine, { input, events });

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(libraryListsMachine, paths)).toEqual([]);
    if (kind === 'LIST') expect(unwalkedTransitions(libraryListsMachine, paths, { input, events })).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    for (let i = 1; i < path.steps.length; i += 1) checkStep(path.steps[i - 1]!, path.steps[i]!);
    const log = await replayPath(libraryListsMachine, path, { input });
    for (const call of log.invocations.filter((c) => c.src === 'saveList')) {
      const { dialog } = call.input as { dialog: { name: string } };
      expect(dialog.name.trim()).not.toBe('');
    }
  });
});

describe('library rows with the real actors', () => {
  const page = (channels: Channel[]) => ({ body: { _embedded: { channels }, page: { size: 99, totalElements: channels.length, totalPages: 1, number: 0 } } });

  it('creates a private LIST by create channel, then reloads', async () => {
    const fake = fakeFetch(page([]), { status: 201, body: mine }, page([mine]));
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(libraryListsMachine.provide({ actors: libraryListsActors(client) }), { input: { workspace, kind: 'LIST' } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.create' });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.dialog?.error).toBe('Name is required');
    actor.send({ type: 'user.changeName', name: ' Picks ' });
    actor.send({ type: 'user.submit' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.channels.length === 1);
    expect(fake.calls[1]).toMatchObject({ method: 'PUT', url: `${API}/workspaces/w/channels/n1`, body: { name: 'Picks', description: '', type: 'LIST', scope: 'PROFILE' } });
    actor.stop();
  });

  it('toggles scope by the offered link and deletes by delete channel after confirmation', async () => {
    const fake = fakeFetch(page([mine]), { body: { ...mine, scope: 'WORKSPACE' } }, page([mine]), { status: 204 }, page([]));
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(libraryListsMachine.provide({ actors: libraryListsActors(client) }), { input: { workspace, kind: 'LIST' } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.toggleScope', channel: mine });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.delete', channel: mine });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.channels.length === 0);
    expect(fake.calls.map((c) => `${c.method} ${c.url.split('?')[0]}`)).toEqual([
      `GET ${API}/workspaces/w/channels`,
      `PUT ${API}/channels/l1/scope/workspace`,
      `GET ${API}/workspaces/w/channels`,
      `DELETE ${API}/channels/l1`,
      `GET ${API}/workspaces/w/channels`,
    ]);
    actor.stop();
  });
});

// Independent checks (issue 40): the actors are the test's own and answer when the test says; the
// dialogs, inputs and texts expected are written here by hand.
describe('libraryLists, checked by hand', () => {
  type Call = { name: string; input: unknown; answer: ReturnType<typeof deferred<unknown>> };

  function start(kind: 'LIST' | 'SOURCE' = 'LIST', space: typeof workspace | { id: string; _links: Record<string, { href: string }> } = workspace) {
    const calls: Call[] = [];
    function scripted<TOutput, TInput>(name: string) {
      return fromPromise<TOutput, TInput>(({ input: given }) => {
        const answer = deferred<unknown>();
        calls.push({ name, input: given, answer });
        return answer.promise as Promise<TOutput>;
      });
    }
    const actors = {
      loadChannels: scripted<Channel[], { readonly workspace: HalLike; readonly kind: LibraryKind }>('loadChannels'),
      saveList: scripted<Channel, SaveListInput>('saveList'),
      deleteList: scripted<void, { channel: Channel }>('deleteList'),
      toggleScope: scripted<Channel, { channel: Channel }>('toggleScope'),
    };
    const actor = createActor(libraryListsMachine.provide({ actors }), { input: { workspace: space, kind } }).start();
    const last = async (name: string) => {
      await waitFor(actor, () => calls.at(-1)?.name === name, { timeout: 1_000 });
      return calls.at(-1)!;
    };
    return { actor, calls, last };
  }

  it('loads the rows of its kind; a failure says why and Retry loads again', async () => {
    const { actor, calls, last } = start('SOURCE');
    const first = await last('loadChannels');
    expect(first.input).toEqual({ workspace, kind: 'SOURCE' });
    first.answer.reject(offline);
    await waitFor(actor, (s) => s.matches('failed'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.error).toBe('We were unable to connect.');
    actor.send({ type: 'user.retry' });
    (await last('loadChannels')).answer.resolve([mine]);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ channels: [mine], error: null });
    expect(calls.map((c) => c.name)).toEqual(['loadChannels', 'loadChannels']);
    // sources are not created here
    actor.send({ type: 'user.create' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.stop();
  });

  it('a list is created only where the workspace offers create channel', async () => {
    const { actor, last } = start('LIST', { id: 'w', _links: { channels: { href: `${API}/workspaces/w/channels` } } });
    (await last('loadChannels')).answer.resolve([]);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    actor.send({ type: 'user.create' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.stop();
  });

  it('renames in a dialog holding the list\'s name and description; a failed save keeps the dialog with why', async () => {
    const { actor, last } = start();
    (await last('loadChannels')).answer.resolve([mine, theirs]);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    actor.send({ type: 'user.rename', channel: mine });
    expect(actor.getSnapshot().context.dialog).toEqual({ mode: 'rename', channel: mine, name: 'Picks', description: 'for later', error: null });
    actor.send({ type: 'user.changeName', name: '  ' });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.dialog?.error).toBe('Name is required');
    actor.send({ type: 'user.changeName', name: 'Keep' });
    expect(actor.getSnapshot().context.dialog?.error).toBeNull();
    actor.send({ type: 'user.changeDescription', description: 'notes' });
    actor.send({ type: 'user.submit' });
    const save = await last('saveList');
    expect(save.input).toEqual({ workspace, dialog: { mode: 'rename', channel: mine, name: 'Keep', description: 'notes', error: null } });
    save.answer.reject(offline);
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.dialog).toEqual({ mode: 'rename', channel: mine, name: 'Keep', description: 'notes', error: 'We were unable to connect.' });
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.dialog).toBeNull();
    // a list without a description opens with an empty one; a saved dialog closes and the rows reload
    actor.send({ type: 'user.create' });
    expect(actor.getSnapshot().context.dialog).toEqual({ mode: 'create', channel: null, name: '', description: '', error: null });
    actor.send({ type: 'user.changeName', name: 'New' });
    actor.send({ type: 'user.submit' });
    (await last('saveList')).answer.resolve(mine);
    await waitFor(actor, (s) => s.matches('loading'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.dialog).toBeNull();
    actor.stop();
  });

  it('a failed delete or scope change keeps the rows and says why; the next action clears it', async () => {
    const { actor, last } = start();
    (await last('loadChannels')).answer.resolve([mine]);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    actor.send({ type: 'user.delete', channel: mine });
    expect(actor.getSnapshot().context.pending).toEqual(mine);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.pending).toBeNull();
    actor.send({ type: 'user.delete', channel: mine });
    actor.send({ type: 'user.confirm' });
    const removal = await last('deleteList');
    expect(removal.input).toEqual({ channel: mine });
    removal.answer.reject(offline);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ pending: null, actionError: 'We were unable to connect.', channels: [mine] });
    actor.send({ type: 'user.toggleScope', channel: mine });
    expect(actor.getSnapshot().context).toMatchObject({ pending: mine, actionError: null });
    const toggle = await last('toggleScope');
    expect(toggle.input).toEqual({ channel: mine });
    toggle.answer.reject(offline);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ pending: null, actionError: 'We were unable to connect.' });
    actor.send({ type: 'user.reload' });
    expect(actor.getSnapshot().context.actionError).toBeNull();
    (await last('loadChannels')).answer.resolve([mine]);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    actor.send({ type: 'user.delete', channel: mine });
    actor.send({ type: 'user.confirm' });
    (await last('deleteList')).answer.resolve(undefined);
    await waitFor(actor, (s) => s.matches('loading'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.pending).toBeNull();
    actor.stop();
  });

  it('row actions only on a row with canDelete, and each only by its own link', async () => {
    const self = { href: `${API}/channels/l1` };
    const linkedNotOwn: Channel = { ...mine, id: 'l3', canDelete: false };
    const noScope: Channel = { ...mine, id: 'l4', _links: { self, 'update channel': self, 'delete channel': self } };
    const withdrawOnly: Channel = { ...mine, id: 'l5', scope: 'WORKSPACE', _links: { self, 'withdraw workspace-scope': { href: `${API}/channels/l1/scope/workspace` } } };
    const bare: Channel = { ...mine, id: 'l6', _links: { self } };
    const allowed = (c: Channel) => [canRename(c), canDelete(c), canToggleScope(c)];
    expect(allowed(mine)).toEqual([true, true, true]);
    expect(allowed(linkedNotOwn)).toEqual([false, false, false]);
    expect(allowed(noScope)).toEqual([true, true, false]);
    expect(allowed(withdrawOnly)).toEqual([false, false, true]);
    expect(allowed(bare)).toEqual([false, false, false]);

    const { actor, calls, last } = start();
    (await last('loadChannels')).answer.resolve([linkedNotOwn, noScope]);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    for (const type of ['user.rename', 'user.delete', 'user.toggleScope'] as const) actor.send({ type, channel: linkedNotOwn });
    actor.send({ type: 'user.toggleScope', channel: noScope });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.pending).toBeNull();
    expect(calls.map((c) => c.name)).toEqual(['loadChannels']);
    actor.stop();
  });

  it('renaming a list without a description opens the dialog with an empty one', async () => {
    const { description: _none, ...undescribed } = mine;
    const { actor, last } = start();
    (await last('loadChannels')).answer.resolve([undescribed]);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    actor.send({ type: 'user.rename', channel: undescribed });
    expect(actor.getSnapshot().context.dialog).toEqual({ mode: 'rename', channel: undescribed, name: 'Picks', description: '', error: null });
    actor.stop();
  });

  it('a scope change that succeeds reloads the rows with no list pending', async () => {
    const { actor, calls, last } = start();
    (await last('loadChannels')).answer.resolve([mine]);
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 1_000 });
    actor.send({ type: 'user.toggleScope', channel: mine });
    (await last('toggleScope')).answer.resolve({ ...mine, scope: 'WORKSPACE' });
    await waitFor(actor, (s) => s.matches('loading'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.pending).toBeNull();
    expect(calls.map((c) => c.name)).toEqual(['loadChannels', 'toggleScope', 'loadChannels']);
    actor.stop();
  });

  it("the real save renames by the list's 'update channel' and creates by 'create channel', name and description trimmed", async () => {
    const fake = fakeFetch({ body: { ...mine, name: 'Keep' } }, { status: 201, body: mine });
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const save = (dialog: SaveListInput['dialog']) => toPromise(createActor(libraryListsActors(client).saveList, { input: { workspace, dialog } }).start());
    await save({ mode: 'rename', channel: mine, name: ' Keep ', description: ' notes ', error: null });
    await save({ mode: 'create', channel: null, name: 'New', description: '  more  ', error: null });
    expect(fake.calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', `${API}/channels/l1`, { name: 'Keep', description: 'notes' }],
      ['PUT', `${API}/workspaces/w/channels/n1`, { name: 'New', description: 'more', type: 'LIST', scope: 'PROFILE' }],
    ]);
  });

  it('cancels a new list being created when the page is left', async () => {
    const dialog = { mode: 'create' as const, channel: null, name: 'New', description: '', error: null };
    expect(await requestsCancelledOnStop(libraryListsActors, { saveList: { workspace, dialog } })).toEqual({ saveList: true });
  });

  it('cancels each request when the page is left', async () => {
    const dialog = { mode: 'rename' as const, channel: mine, name: 'Picks', description: '', error: null };
    expect(await requestsCancelledOnStop(libraryListsActors, { loadChannels: { workspace, kind: 'LIST' }, saveList: { workspace, dialog }, deleteList: { channel: mine }, toggleScope: { channel: mine } })).toEqual({
      loadChannels: true,
      saveList: true,
      deleteList: true,
      toggleScope: true,
    });
  });
});
