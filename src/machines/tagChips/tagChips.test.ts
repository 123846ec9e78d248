import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Tag } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import { tagChipsActors } from './tagChips.actors';
import { tagChipsMachine, type TagChipsContext, type TagChipsInput } from './tagChips.machine';

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

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
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

// Independent checks (issue 40): the test's own actor (a promise the test settles), expected
// values written here from spec 002 (Explore: a slider of tag chips), not from the machine.
describe('tag chips, checked by hand', () => {
  function start() {
    const calls: { workspaceId: string }[] = [];
    const answers: { resolve: (tags: { name: string }[]) => void; reject: (error: unknown) => void }[] = [];
    const loadTags = fromPromise<readonly Tag[], TagChipsInput>(
      ({ input }) =>
        new Promise((resolve, reject) => {
          calls.push(input);
          answers.push({ resolve: (tags) => resolve(tags.map((tag, i) => ({ id: `t${i}`, ...tag }))), reject });
        }),
    );
    const actor = createActor(tagChipsMachine.provide({ actors: { loadTags } }), { input: { workspaceId: 'w7' } }).start();
    return { actor, calls, answers };
  }

  it('starts loading the workspace tags with an empty list and no error', () => {
    const { actor, calls } = start();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context).toEqual({ workspaceId: 'w7', tags: [], error: null });
    expect(calls).toEqual([{ workspaceId: 'w7' }]);
    // the invocation is named, so the view and the replays can tell it apart
    expect(Object.keys(actor.getSnapshot().children)).toEqual(['loadTags']);
    actor.stop();
  });

  it('keeps the named tags in the order given and drops blank ones', async () => {
    const { actor, answers } = start();
    answers[0]!.resolve([{ name: 'kpi' }, { name: ' ' }, { name: 'sales' }, { name: '' }]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.tags.map((t) => t.name)).toEqual(['kpi', 'sales']);
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.stop();
  });

  it('says why the tags failed, and a retry reads them again and clears the error', async () => {
    const { actor, calls, answers } = start();
    answers[0]!.reject(new Error('disk on fire'));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('disk on fire');
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(calls).toHaveLength(2);
    answers[1]!.resolve([{ name: 'kpi' }]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ tags: [{ name: 'kpi' }], error: null });
    actor.stop();
  });

  it('ignores a retry once the tags are shown', async () => {
    const { actor, calls, answers } = start();
    answers[0]!.resolve([]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(calls).toHaveLength(1);
    actor.stop();
  });

  it('passes the abort signal to the tag request, so leaving the page cancels it', async () => {
    let signal: AbortSignal | undefined;
    const fake = fakeFetch({ body: { _embedded: { tags: [] }, _links: { self: { href: 'x' } }, page: { size: 99, totalElements: 0, totalPages: 0, number: 0 } } });
    const client = createApiClient({
      baseURL: 'http://api.test/api',
      getToken: () => Promise.resolve('t'),
      fetch: (url, init) => {
        signal = init?.signal ?? undefined;
        return fake.fetch(url, init);
      },
      retryDelay: () => 0,
    });
    const actor = createActor(tagChipsMachine.provide({ actors: tagChipsActors(client) }), { input: { workspaceId: 'w' } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(signal).toBeInstanceOf(AbortSignal);
    actor.stop();
  });
});
