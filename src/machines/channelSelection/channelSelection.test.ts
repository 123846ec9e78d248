import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { selectedChannel } from '../../domain/library';
import type { Channel } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { channelSelectionActors } from './channelSelection.actors';
import { channelSelectionMachine, selectSelected, type ChannelSelectionContext, type ChannelSelectionSnapshot, type LoadChannelsInput } from './channelSelection.machine';

const API = 'http://api.test/api';
const workspace = { id: 'w', _links: { channels: { href: `${API}/workspaces/w/channels` } } };
const channels: Channel[] = [
  { id: 'c1', name: 'Sales' },
  { id: 'c2', name: 'Weekly review' },
];
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.loadChannels': [{ output: channels }, { output: [] }],
  'xstate.error.actor.loadChannels': [{ error: offline }],
  'user.select': [{ name: 'Sales' }, { name: 'Weekly review' }, { name: 'Unknown' }],
  'route.changed': [{ search: '' }, { search: 'in:sales' }],
};

describe.each(['', 'in:weekly-review'])('channel selection from search "%s" (model-based)', (search) => {
  const input = { workspace, search };
  const paths = modelPaths(channelSelectionMachine, { input, events });

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(channelSelectionMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(channelSelectionMachine, paths, { input, events })).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    const log = await replayPath(channelSelectionMachine, path, {
      input,
      states: {
        '*': (s) => {
          const context = s.context as ChannelSelectionContext;
          // the selection is always the channel the search names, or none
          expect(selectSelected(s as ChannelSelectionSnapshot)).toEqual(selectedChannel(context.search, context.channels));
        },
      },
    });
    checkNavigation(path.steps.map((s) => s.event), log);
  });
});

/** Each click on a known channel navigates once, to the toggled search; nothing else navigates. */
function checkNavigation(stepEvents: readonly { type: string }[], log: ReplayLog): void {
  const navigations = log.actions.filter((a) => a.name === 'showSearch');
  const clicks = stepEvents.filter((e) => e.type === 'user.select');
  expect(navigations.length).toBeLessThanOrEqual(clicks.length);
  for (const call of navigations) {
    const { workspaceId, search } = call.params as { workspaceId: string; search: string };
    expect(workspaceId).toBe('w');
    expect(['', 'in:sales', 'in:weekly-review']).toContain(search);
    expect((call.context as ChannelSelectionContext).search).toBe(search);
  }
}

describe('channel selection scenarios', () => {
  it('the real actor reads the source channels through the workspace’s channels link', async () => {
    const fake = fakeFetch({ body: { _embedded: { channels }, page: { size: 99, totalElements: 2, totalPages: 1, number: 0 } } });
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const shown: string[] = [];
    const actor = createActor(channelSelectionMachine.provide({ actors: channelSelectionActors(client), actions: { showSearch: (_, { search }) => shown.push(search) } }), {
      input: { workspace, search: 'in:sales' },
    }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(selectSelected(actor.getSnapshot())?.name).toBe('Sales');
    actor.send({ type: 'user.select', name: 'Sales' });
    actor.send({ type: 'route.changed', search: '' });
    actor.send({ type: 'user.select', name: 'Weekly review' });
    expect(shown).toEqual(['', 'in:weekly-review']);
    expect(selectSelected(actor.getSnapshot())?.name).toBe('Weekly review');
    const url = new URL(fake.calls[0]?.url ?? '');
    expect(`${url.origin}${url.pathname}`).toBe(`${API}/workspaces/w/channels`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ type: 'SOURCE', size: '99', sort: 'lastModified,desc' });
    actor.stop();
  });
});

// Independent checks (issue 40): the test's own actor and navigation, expectations from spec 002
// (the channels page: a chip per source channel, the selection kept in the address's search).
describe('channel selection, checked by hand', () => {
  function start(load: () => Promise<Channel[]>, search = '') {
    const shown: string[] = [];
    let loads = 0;
    const loadChannels = fromPromise<Channel[], LoadChannelsInput>(() => {
      loads += 1;
      return load();
    });
    const machine = channelSelectionMachine.provide({ actors: { loadChannels }, actions: { showSearch: (_, { search: next }) => void shown.push(next) } });
    const actor = createActor(machine, { input: { workspace, search } }).start();
    return { actor, shown, loads: () => loads };
  }

  it('follows the address when it changes by itself (back, a link), without navigating again', async () => {
    const { actor, shown } = start(() => Promise.resolve(channels));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(selectSelected(actor.getSnapshot())).toBeUndefined();
    actor.send({ type: 'route.changed', search: 'in:weekly-review' });
    expect(selectSelected(actor.getSnapshot())?.name).toBe('Weekly review');
    actor.send({ type: 'route.changed', search: '' });
    expect(selectSelected(actor.getSnapshot())).toBeUndefined();
    expect(shown).toEqual([]);
    actor.stop();
  });

  it('says why the channels failed, and a retry reads them again', async () => {
    let fail = true;
    const { actor, loads } = start(() => (fail ? Promise.reject(new Error('disk on fire')) : Promise.resolve(channels)));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('disk on fire');
    fail = false;
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(loads()).toBe(2);
    expect(actor.getSnapshot().context).toMatchObject({ channels, error: null });
    actor.stop();
  });

  it('cancels the request for channels when the page is left before it answers', async () => {
    const fake = fakeFetch({ hang: true });
    const client = createApiClient({
      baseURL: API,
      getToken: () => Promise.resolve('t'),
      fetch: fake.fetch,
      retryDelay: () => 0,
    });
    const actor = createActor(channelSelectionMachine.provide({ actors: channelSelectionActors(client), actions: { showSearch: () => undefined } }), { input: { workspace, search: '' } }).start();
    await vi.waitFor(() => expect(fake.calls).toHaveLength(1));
    actor.stop();
    expect(fake.calls[0]?.signal?.aborted).toBe(true);
  });
});
