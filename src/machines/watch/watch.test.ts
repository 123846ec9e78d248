import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Pipeline } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { watchActors } from './watch.actors';
import { selectModalOpen, watchMachine } from './watch.machine';

const BASE = 'http://api.test/api';
const unwatched: Pipeline = { id: 'p1', _links: { self: { href: `${BASE}/pipelines/p1` }, 'add subscription': { href: `${BASE}/pipelines/p1/subscriptions` } } };
const watched: Pipeline = { id: 'p1', _links: { self: { href: `${BASE}/pipelines/p1` }, 'delete subscription': { href: `${BASE}/subscriptions/s1` } } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'user.choose': [{ subscription: 'ALERTS' }, { subscription: 'ALL' }],
  'xstate.done.actor.subscribe': [{ output: undefined }],
  'xstate.error.actor.subscribe': [{ error: offline }],
  'xstate.done.actor.unsubscribe': [{ output: undefined }],
  'xstate.error.actor.unsubscribe': [{ error: offline }],
  'xstate.done.actor.refresh': [{ output: watched }, { output: unwatched }],
  'xstate.error.actor.refresh': [{ error: offline }],
};

describe.each([
  ['unwatched', unwatched],
  ['watched', watched],
] as const)('watch from a %s pipeline (model-based)', (_, pipeline) => {
  const input = { pipeline };
  const paths = modelPaths(watchMachine, { input, events });

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(watchMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(watchMachine, paths, { input, events })).toEqual([]);
  });

  it.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(watchMachine, path, {
      input,
      states: {
        choosing: (s) => expect(selectModalOpen(s as never)).toBe(true),
        subscribing: (s, log: ReplayLog) => {
          // The k-th subscribe carries the type of the k-th choice.
          const subscribes = log.invocations.filter((i) => i.id === 'subscribe');
          const choices = path.steps.filter((step) => step.event.type === 'user.choose');
          const choice = choices[subscribes.length - 1]?.event as { subscription?: string } | undefined;
          expect(subscribes.at(-1)?.input).toMatchObject({ subscription: choice?.subscription });
        },
      },
    });
  });
});

describe('watch scenarios', () => {
  it('Errors subscribes ALERTS and ends watching', () => {
    const path = pathOf(
      watchMachine,
      [{ type: 'user.watch' }, { type: 'user.choose', subscription: 'ALERTS' }, { type: 'xstate.done.actor.subscribe', output: undefined }, { type: 'xstate.done.actor.refresh', output: watched }],
      { input: { pipeline: unwatched } },
    );
    expect(path.state.value).toBe('watching');
  });

  it('without an add subscription link Watch does nothing', () => {
    expect(createActor(watchMachine, { input: { pipeline: { id: 'p', _links: {} } } }).getSnapshot().can({ type: 'user.watch' })).toBe(false);
  });

  it('the real actors POST {type} to add subscription and DELETE delete subscription', async () => {
    const fake = fakeFetch({ status: 201 }, { body: watched }, { status: 204 }, { body: unwatched });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(watchMachine.provide({ actors: watchActors(client) }), { input: { pipeline: unwatched } });
    actor.start();
    actor.send({ type: 'user.watch' });
    actor.send({ type: 'user.choose', subscription: 'ALL' });
    for (let i = 0; i < 50 && !actor.getSnapshot().matches('watching'); i += 1) await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'user.unwatch' });
    for (let i = 0; i < 50 && !actor.getSnapshot().matches('notWatching'); i += 1) await new Promise((r) => setTimeout(r, 0));
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`POST ${BASE}/pipelines/p1/subscriptions`, `GET ${BASE}/pipelines/p1`, `DELETE ${BASE}/subscriptions/s1`, `GET ${BASE}/pipelines/p1`]);
    expect(fake.calls[0]?.body).toEqual({ type: 'ALL' });
    actor.stop();
  });
});
