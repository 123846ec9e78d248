import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Dataset } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type EventCases, type ModelPath } from '../testing';
import { datasetPageActors } from './datasetPage.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { datasetPageMachine, selectBusy, selectIsLiked } from './datasetPage.machine';

const BASE = 'http://api.test/api';
const l = (path: string) => ({ href: `${BASE}${path}` });
const full: Dataset = {
  id: 'd1',
  alias: 'sales/monthly',
  title: 'Sales',
  description: 'Old',
  continuousPoll: true,
  likedByProfiles: [],
  _links: {
    self: l('/datasets/d1'),
    data: l('/datasets/d1/data'),
    'like dataset': l('/datasets/d1/like'),
    'add subscription': l('/datasets/d1/subscriptions'),
    'edit dataset': l('/datasets/d1'),
    'delete dataset': l('/datasets/d1'),
  },
};
const liked: Dataset = { ...full, likedByProfiles: [{ id: 'p1' }], _links: { ...full._links, 'add subscription': undefined as never, 'delete subscription': l('/datasets/d1/subscriptions') } };
const bare: Dataset = { id: 'd2', title: 'Plain', _links: { self: l('/datasets/d2') } };

const input = { workspaceId: 'w1', idOrAlias: 'sales/monthly', viewer: { id: 'p1', email: 'ada@example.com' } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });
const notFound = new ApiFailure({ kind: 'response', status: 404, message: '[404] Not found' });
const rows = [{ month: 'Jan', revenue: 3 }];

// Each region is walked on its own: the events of the other regions are left out (no payloads),
// so the product of the three regions does not multiply the paths.
const none: readonly object[] = [];
const quietActions = { 'user.like': none, 'user.watch': none, 'user.unwatch': none, 'user.delete': none, 'user.dismiss': none };
const quietDescription = { 'user.edit': none };
const quietRows = { 'xstate.done.actor.rows': none, 'xstate.error.actor.rows': none };

const suites: Record<string, EventCases> = {
  'loading and rows': {
    'xstate.done.actor.load': [{ output: full }, { output: bare }],
    'xstate.error.actor.load': [{ error: notFound }, { error: offline }],
    'xstate.done.actor.rows': [{ output: rows }],
    'xstate.error.actor.rows': [{ error: offline }],
    ...quietActions,
    ...quietDescription,
  },
  actions: {
    'xstate.done.actor.load': [{ output: full }],
    'xstate.error.actor.load': none,
    'user.choose': [{ subscription: 'ALERTS' }, { subscription: 'ALL' }],
    'xstate.done.actor.like': [{ output: undefined }],
    'xstate.error.actor.like': [{ error: offline }],
    'xstate.done.actor.subscribe': [{ output: undefined }],
    'xstate.error.actor.subscribe': [{ error: offline }],
    'xstate.done.actor.unsubscribe': [{ output: undefined }],
    'xstate.error.actor.unsubscribe': [{ error: offline }],
    'xstate.done.actor.reload': [{ output: liked }, { output: full }],
    'xstate.error.actor.reload': [{ error: offline }],
    'xstate.done.actor.remove': [{ output: undefined }],
    'xstate.error.actor.remove': [{ error: offline }],
    ...quietDescription,
    ...quietRows,
  },
  description: {
    'xstate.done.actor.load': [{ output: full }],
    'xstate.error.actor.load': none,
    'user.change': [{ text: '<script>alert(1)</script> **New**' }],
    'xstate.done.actor.saveDescription': [{ output: { ...full, description: 'New' } }],
    'xstate.error.actor.saveDescription': [{ error: offline }],
    ...quietActions,
    ...quietRows,
  },
};

const allPaths: ModelPath[] = [];

describe.each(Object.entries(suites))('datasetPage: %s (model-based)', (_name, events) => {
  const paths = modelPaths(datasetPageMachine, { input, events });
  allPaths.push(...paths);

  it('walks every transition of this region', () => {
    expect(paths.length).toBeGreaterThan(0);
    expect(unwalkedTransitions(datasetPageMachine, paths, { input, events })).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(datasetPageMachine, path, {
      input,
      states: {
        loading: (_s, log) => expect(log.invocations.at(-1)).toMatchObject({ id: 'load', input: { workspaceId: 'w1', idOrAlias: 'sales/monthly' } }),
        notFound: (s) => expect(s.context.loadError).toBeNull(),
        failed: (s) => expect(s.context.loadError).toBe('We were unable to connect.'),
        ready: (s, log) => {
          // Exactly one view is recorded per load, with the loaded dataset.
          const views = log.actions.filter((a) => a.name === 'recordView');
          expect(views).toHaveLength(1);
          expect(views[0]?.params).toMatchObject({ dataset: { id: s.context.dataset?.id } });
        },
        'ready.rows.none': (s) => expect(s.context.rows).toEqual([]),
        'ready.rows.loading': (_s, log) => expect(log.invocations.filter((i) => i.id === 'rows').at(-1)?.input).toMatchObject({ dataset: { id: 'd1' } }),
        'ready.rows.shown': (s) => expect(s.context.rows).toEqual(rows),
        'ready.rows.failed': (s) => expect(s.context.rowsError).toBe('We were unable to connect.'),
        'ready.actions.liking': (s, log) => {
          // Like when the viewer is not in likedByProfiles, unlike when they are.
          expect(log.invocations.filter((i) => i.id === 'like').at(-1)?.input).toMatchObject({ liked: !selectIsLiked(s as never) });
          expect(selectBusy(s as never)).toBe(true);
        },
        'ready.actions.subscribing': (_s, log) => {
          const choices = path.steps.filter((step) => step.event.type === 'user.choose');
          const subscribes = log.invocations.filter((i) => i.id === 'subscribe');
          expect(subscribes.at(-1)?.input).toMatchObject({ subscription: (choices[subscribes.length - 1]?.event as { subscription?: string }).subscription });
        },
        'ready.actions.unsubscribing': (s) => expect(s.context.dataset?._links?.['delete subscription']).toBeDefined(),
        'ready.description.editing': (s) => expect(typeof s.context.draft).toBe('string'),
        'ready.description.saving': (s, log) =>
          expect(log.invocations.filter((i) => i.id === 'saveDescription').at(-1)?.input).toMatchObject({ description: s.context.draft }),
        deleted: (_s, log) => expect(log.actions.some((a) => a.name === 'goBack')).toBe(false),
        gone: (_s, log) => expect(log.actions.filter((a) => a.name === 'goBack').map((a) => a.params)).toEqual([{ workspaceId: 'w1' }]),
      },
    });
  });
});

describe('datasetPage coverage and scenarios', () => {
  it('the suites together visit every state', () => {
    expect(unvisitedStates(datasetPageMachine, allPaths)).toEqual([]);
  });

  it('a 404 shows not found; another failure can be retried', () => {
    expect(pathOf(datasetPageMachine, [{ type: 'xstate.error.actor.load', error: notFound }], { input }).state.value).toBe('notFound');
    const retried = pathOf(datasetPageMachine, [{ type: 'xstate.error.actor.load', error: offline }, { type: 'user.retry' }], { input });
    expect(retried.state.value).toBe('loading');
  });

  it('without links nothing is offered', () => {
    const path = pathOf(datasetPageMachine, [{ type: 'xstate.done.actor.load', output: bare }], { input });
    for (const type of ['user.like', 'user.watch', 'user.unwatch', 'user.delete', 'user.edit'] as const) expect(path.state.can({ type })).toBe(false);
    expect(path.state.matches({ ready: { rows: 'none' } })).toBe(true);
  });

  it('polls the rows every 5 s only with continuousPoll', async () => {
    const polled = pathOf(datasetPageMachine, [
      { type: 'xstate.done.actor.load', output: full },
      { type: 'xstate.done.actor.rows', output: rows },
      { type: 'xstate.after.POLL.datasetPage.ready.rows.shown' },
    ], { input });
    expect(polled.state.matches({ ready: { rows: 'loading' } })).toBe(true);
    await replayPath(datasetPageMachine, polled, { input });
    const still = pathOf(datasetPageMachine, [{ type: 'xstate.done.actor.load', output: { ...full, continuousPoll: false } }, { type: 'xstate.done.actor.rows', output: rows }], { input });
    expect(still.state.can({ type: 'xstate.after.POLL.datasetPage.ready.rows.shown' })).toBe(false);
  });

  it('the real actors load by alias, record nothing themselves, and PATCH {description}', async () => {
    const fake = fakeFetch({ body: full }, { body: rows }, { body: { ...full, description: 'New' } });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const views: unknown[] = [];
    const machine = datasetPageMachine.provide({ actors: datasetPageActors(client), actions: { recordView: (_, p) => void views.push(p), goBack: () => undefined } });
    const actor = createActor(machine, { input }).start();
    await waitFor(actor, (s) => s.matches({ ready: { rows: 'shown' } }));
    actor.send({ type: 'user.edit' });
    actor.send({ type: 'user.change', text: 'New' });
    actor.send({ type: 'user.save' });
    await waitFor(actor, (s) => s.context.dataset?.description === 'New');
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${BASE}/workspaces/w1/datasets/sales/monthly`, `GET ${BASE}/datasets/d1/data`, `PATCH ${BASE}/datasets/d1`]);
    expect(fake.calls[2]?.body).toEqual({ description: 'New' });
    expect(views).toHaveLength(1);
    actor.stop();
  });
});

describe('datasetPage, checked by hand', () => {
  it('cancels each request when the page is left before it answers', async () => {
    const inputs = {
      load: { workspaceId: 'w1', idOrAlias: 'sales/monthly' },
      rows: { dataset: full },
      like: { dataset: full, liked: true },
      subscribe: { dataset: full, subscription: 'ALL' },
      unsubscribe: { dataset: liked },
      reload: { dataset: full },
      remove: { dataset: full },
      saveDescription: { dataset: full, description: 'Monthly sales' },
    };
    expect(await requestsCancelledOnStop(datasetPageActors, inputs)).toEqual({ load: true, rows: true, like: true, subscribe: true, unsubscribe: true, reload: true, remove: true, saveDescription: true });
  });
});
