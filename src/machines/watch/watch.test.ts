import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Pipeline } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { watchActors } from './watch.actors';
import { selectModalOpen, watchMachine, type SubscribeInput, type WatchInput } from './watch.machine';

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

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
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

// Independent checks (issue 40): the test's own actors, each answering as the test says; the
// states the view shows (the choice dialog open or not, the error line) written out here.
describe('watch, checked by hand', () => {
  type Answer = 'ok' | 'fail';
  function start(pipeline: Pipeline, answers: { subscribe?: Answer; unsubscribe?: Answer; refresh?: Answer } = {}) {
    const calls: string[] = [];
    const answer = <T>(name: keyof typeof answers, value: T) => (answers[name] === 'fail' ? Promise.reject(new Error(`${name} refused`)) : Promise.resolve(value));
    const actors = {
      subscribe: fromPromise<unknown, SubscribeInput>(({ input: asked }) => {
        calls.push(`subscribe ${asked.subscription}`);
        return answer('subscribe', undefined);
      }),
      unsubscribe: fromPromise<unknown, WatchInput>(() => {
        calls.push('unsubscribe');
        return answer('unsubscribe', undefined);
      }),
      refresh: fromPromise<Pipeline, WatchInput>(() => {
        calls.push('refresh');
        return answer('refresh', pipeline === unwatched ? watched : unwatched);
      }),
    };
    const actor = createActor(watchMachine.provide({ actors }), { input: { pipeline } }).start();
    return { actor, calls };
  }

  it('opens the choice on Watch, closes it on cancel, and shows it while subscribing', () => {
    const { actor, calls } = start(unwatched, {});
    expect(selectModalOpen(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'user.watch' });
    expect(selectModalOpen(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('notWatching');
    expect(selectModalOpen(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'user.watch' });
    actor.send({ type: 'user.choose', subscription: 'ALERTS' });
    expect(actor.getSnapshot().value).toBe('subscribing');
    expect(selectModalOpen(actor.getSnapshot())).toBe(true);
    expect(calls).toEqual(['subscribe ALERTS']);
    actor.stop();
  });

  it('keeps the choice open and says why when subscribing fails; choosing again clears it', async () => {
    const { actor, calls } = start(unwatched, { subscribe: 'fail' });
    actor.send({ type: 'user.watch' });
    actor.send({ type: 'user.choose', subscription: 'ALL' });
    await waitFor(actor, (s) => s.matches('choosing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('subscribe refused');
    expect(calls).toEqual(['subscribe ALL']);
    actor.send({ type: 'user.choose', subscription: 'ALL' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.stop();
  });

  it('stays watching and says why when unwatching fails; unwatching again clears it', async () => {
    const { actor, calls } = start(watched, { unsubscribe: 'fail' });
    expect(actor.getSnapshot().value).toBe('watching');
    actor.send({ type: 'user.unwatch' });
    await waitFor(actor, (s) => s.matches('watching') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('unsubscribe refused');
    expect(calls).toEqual(['unsubscribe']);
    actor.send({ type: 'user.unwatch' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.stop();
  });

  it('says why when the pipeline cannot be read again, and shows what it knew', async () => {
    const { actor } = start(watched, { refresh: 'fail' });
    actor.send({ type: 'user.unwatch' });
    await waitFor(actor, (s) => s.context.error !== null);
    // the pipeline kept is the one still carrying 'delete subscription'
    expect(actor.getSnapshot().value).toBe('watching');
    expect(actor.getSnapshot().context.error).toBe('refresh refused');
    actor.stop();
  });

  it('clears an earlier error when Watch is pressed again', async () => {
    const { actor } = start(unwatched, { refresh: 'fail' });
    actor.send({ type: 'user.watch' });
    actor.send({ type: 'user.choose', subscription: 'ALL' });
    await waitFor(actor, (s) => s.matches('notWatching') && s.context.error !== null);
    actor.send({ type: 'user.watch' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.stop();
  });

  it('cancels each request when the page is left before it answers', async () => {
    const signals: AbortSignal[] = [];
    const client = (fake: ReturnType<typeof fakeFetch>) =>
      createApiClient({
        baseURL: BASE,
        getToken: () => Promise.resolve('t'),
        fetch: (url, init) => {
          if (init?.signal) signals.push(init.signal);
          return fake.fetch(url, init);
        },
        retryDelay: () => 0,
      });
    // subscribe hangs; then unsubscribe hangs; then the refresh after a subscribe hangs
    const cases = [
      { pipeline: unwatched, fake: fakeFetch({ hang: true }), send: [{ type: 'user.watch' }, { type: 'user.choose', subscription: 'ALL' }] as const },
      { pipeline: watched, fake: fakeFetch({ hang: true }), send: [{ type: 'user.unwatch' }] as const },
      { pipeline: unwatched, fake: fakeFetch({ status: 201 }, { hang: true }), send: [{ type: 'user.watch' }, { type: 'user.choose', subscription: 'ALL' }] as const },
    ];
    for (const [i, { pipeline, fake, send }] of cases.entries()) {
      const actor = createActor(watchMachine.provide({ actors: watchActors(client(fake)) }), { input: { pipeline } }).start();
      for (const event of send) actor.send(event);
      await vi.waitFor(() => expect(fake.calls).toHaveLength(i === 2 ? 2 : 1));
      actor.stop();
    }
    expect(signals).toHaveLength(4);
    expect([signals[0], signals[1], signals[3]].map((s) => s?.aborted)).toEqual([true, true, true]);
  });
});
