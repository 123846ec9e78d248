import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { modelPaths, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
import { tagChipsActors } from './tagChips.actors';
import { tagChipsMachine, type TagChipsContext } from './tagChips.machine';

const input = { workspaceId: 'w' };
const boom = new Error('[500] boom');
const events = {
  'xstate.done.actor.loadTags': [{ output: [{ name: 'kpi' }, { name: '  ' }, { name: 'sales' }] }, { output: [] }],
  'xstate.error.actor.loadTags': [{ error: boom }],
};
const paths = modelPaths(tagChipsMachine, { input, events });

describe('tag chips machine, generated paths', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(tagChipsMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(tagChipsMachine, paths, { input, events })).toEqual([]);
  });

  it.each(paths.map((p) => [p.description, p] as const))('replays %s', async (_, path) => {
    await replayPath(tagChipsMachine, path, {
      input,
      states: {
        loading: (_s, { invocations }) => expect(invocations.at(-1)).toEqual({ id: 'loadTags', src: 'loadTags', input }),
        ready: (snapshot) => {
          const context = snapshot.context as TagChipsContext;
          // blank names never become chips
          expect(context.tags.every((tag) => tag.name.trim() !== '')).toBe(true);
          expect(context.error).toBeNull();
        },
        failed: (snapshot) => expect((snapshot.context as TagChipsContext).error).toBe(boom.message),
      },
    });
  });
});

describe('tag chips actors against the real client', () => {
  it('asks for the first 99 tags of the workspace', async () => {
    const fake = fakeFetch({ body: { _embedded: { tags: [{ id: '1', name: 'kpi', usage: 3 }] }, _links: { self: { href: 'x' } }, page: { size: 99, totalElements: 1, totalPages: 1, number: 0 } } });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(tagChipsMachine.provide({ actors: tagChipsActors(client) }), { input: { workspaceId: 'w 1' } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(fake.calls[0]?.url).toBe('http://api.test/api/workspaces/w%201/tags?page=0&size=99');
    expect(actor.getSnapshot().context.tags.map((t) => t.name)).toEqual(['kpi']);
    actor.stop();
  });
});
