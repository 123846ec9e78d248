import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Dataset } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type EventCases, type ModelPath } from '../testing';
import { datasetPageActors, recordViewAction } from './datasetPage.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { datasetPageMachine, isNotFound as isNotFoundOf, selectBusy, selectIsLiked, type DatasetInput, type LikeInput, type LoadInput, type SaveDescriptionInput, type SubscribeInput } from './datasetPage.machine';
import { heldActors } from '../testing/deferred.fixture';
import type { DataRow } from '../../api/datasets';

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
  function start(viewer = input.viewer) {
    const { calls, pending, held } = heldActors();
    const actions: string[] = [];
    const machine = datasetPageMachine.provide({
      actors: {
        load: held<LoadInput, Dataset>('load', (i) => `${i.workspaceId} ${i.idOrAlias}`),
        rows: held<DatasetInput, DataRow[]>('rows', (i) => i.dataset.id),
        like: held<LikeInput, unknown>('like', (i) => `${i.dataset.id} ${String(i.liked)}`),
        subscribe: held<SubscribeInput, unknown>('subscribe', (i) => `${i.dataset.id} ${i.subscription}`),
        unsubscribe: held<DatasetInput, unknown>('unsubscribe', (i) => i.dataset.id),
        reload: held<DatasetInput, Dataset>('reload', (i) => `${i.dataset.id} ${i.dataset.description ?? ''}`),
        remove: held<DatasetInput, unknown>('remove', (i) => i.dataset.id),
        saveDescription: held<SaveDescriptionInput, Dataset>('saveDescription', (i) => `${i.dataset.id} ${i.description}`),
      },
      actions: {
        recordView: (_, p) => void actions.push(`recordView ${p.dataset.id}`),
        goBack: (_, p) => void actions.push(`goBack ${p.workspaceId}`),
      },
    });
    const actor = createActor(machine, { input: { ...input, viewer } }).start();
    const answer = (id: string, n: number) => pending[id]![n]!;
    const context = () => actor.getSnapshot().context;
    return { actor, calls, actions, answer, context };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const actionsState = (actor: { getSnapshot: () => { value: unknown } }) => (actor.getSnapshot().value as { ready: { actions: string } }).ready.actions;

  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts from its input with nothing read, and loads by workspace and id or alias', () => {
    const { actor, calls, context } = start();
    expect(context()).toEqual({ ...input, dataset: null, rows: undefined, rowsError: null, loadError: null, error: null, draft: '', descriptionError: null });
    expect(calls).toEqual(['load w1 sales/monthly']);
    expect(selectIsLiked(actor.getSnapshot())).toBe(false);
    expect(selectBusy(actor.getSnapshot())).toBe(false);
    actor.stop();
  });

  it('records one view of the loaded dataset and reads its rows; a failure of the rows says why and is cleared by a reload', async () => {
    const { actor, calls, actions, answer, context } = start();
    answer('load', 0).resolve(full);
    await waitFor(actor, (s) => s.matches({ ready: { rows: 'loading' } }));
    expect(context().dataset).toEqual(full);
    expect(actions).toEqual(['recordView d1']);
    expect(calls).toEqual(['load w1 sales/monthly', 'rows d1']);
    answer('rows', 0).reject(offline);
    await waitFor(actor, (s) => s.matches({ ready: { rows: 'failed' } }));
    expect(context().rowsError).toBe('We were unable to connect.');
    expect(context().rows).toBeUndefined();
    actor.send({ type: 'user.reloadRows' });
    expect(actor.getSnapshot().matches({ ready: { rows: 'loading' } })).toBe(true);
    answer('rows', 1).resolve(rows);
    await waitFor(actor, (s) => s.matches({ ready: { rows: 'shown' } }));
    expect(context().rows).toEqual(rows);
    expect(context().rowsError).toBeNull();
    actor.send({ type: 'user.reloadRows' });
    expect(calls.filter((c) => c === 'rows d1')).toHaveLength(3);
    expect(actions).toEqual(['recordView d1']);
    actor.stop();
  });

  it('a dataset without data, or drawn as a mermaid diagram, has no rows and asks for none', async () => {
    for (const dataset of [bare, { ...full, visualisation: JSON.stringify({ mermaid: { options: {} } }) }]) {
      const { actor, calls, answer, context } = start();
      answer('load', 0).resolve(dataset);
      await waitFor(actor, (s) => s.matches('ready'));
      expect(actor.getSnapshot().matches({ ready: { rows: 'none' } })).toBe(true);
      expect(context().rows).toEqual([]);
      expect(calls).toEqual(['load w1 sales/monthly']);
      actor.stop();
    }
  });

  it('a 404 is not found with no message; another failure says why, and retry loads again with the message cleared', async () => {
    const missing = start();
    missing.answer('load', 0).reject(notFound);
    await waitFor(missing.actor, (s) => s.matches('notFound'));
    expect(missing.context().loadError).toBeNull();
    missing.actor.stop();
    for (const error of [offline, new ApiFailure({ kind: 'response', status: 500, message: '[500] Server error' })]) {
      const { actor, calls, answer, context } = start();
      answer('load', 0).reject(error);
      await waitFor(actor, (s) => s.matches('failed'));
      expect(context().loadError).toBe(error === offline ? 'We were unable to connect.' : '[500] Server error');
      actor.send({ type: 'user.retry' });
      expect(actor.getSnapshot().matches('loading')).toBe(true);
      expect(context().loadError).toBeNull();
      expect(calls).toEqual(['load w1 sales/monthly', 'load w1 sales/monthly']);
      actor.stop();
    }
  });

  it('reads the rows again 5 s after they are shown, only with continuousPoll', async () => {
    vi.useFakeTimers();
    for (const continuousPoll of [true, false]) {
      const { actor, calls, answer } = start();
      answer('load', 0).resolve({ ...full, continuousPoll });
      await vi.advanceTimersByTimeAsync(0);
      answer('rows', 0).resolve(rows);
      await vi.advanceTimersByTimeAsync(4_999);
      expect(calls.filter((c) => c.startsWith('rows'))).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls.filter((c) => c.startsWith('rows'))).toHaveLength(continuousPoll ? 2 : 1);
      actor.stop();
    }
  });

  it('like asks to like when the viewer has not, unlike when they have, then reads the dataset again', async () => {
    const { actor, calls, answer, context } = start();
    answer('load', 0).resolve(full);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.like' });
    expect(actionsState(actor)).toBe('liking');
    expect(selectBusy(actor.getSnapshot())).toBe(true);
    expect(calls.at(-1)).toBe('like d1 true');
    answer('like', 0).resolve(undefined);
    await waitFor(actor, (s) => s.matches({ ready: { actions: 'reloading' } }));
    expect(selectBusy(actor.getSnapshot())).toBe(true);
    expect(calls.at(-1)).toBe('reload d1 Old');
    answer('reload', 0).resolve(liked);
    await waitFor(actor, (s) => s.matches({ ready: { actions: 'idle' } }));
    expect(context().dataset).toEqual(liked);
    expect(selectIsLiked(actor.getSnapshot())).toBe(true);
    expect(selectBusy(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'user.like' });
    expect(calls.at(-1)).toBe('like d1 false');
    actor.stop();
  });

  it('a failed like says why, and dismiss clears it', async () => {
    const { actor, answer, context } = start();
    answer('load', 0).resolve(full);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.like' });
    answer('like', 0).reject(offline);
    await waitFor(actor, (s) => s.matches({ ready: { actions: 'idle' } }));
    expect(context().error).toBe('We were unable to connect.');
    actor.send({ type: 'user.dismiss' });
    expect(context().error).toBeNull();
    actor.stop();
  });

  it('each action clears the message of the one before', async () => {
    for (const [event, state, dataset] of [
      [{ type: 'user.like' }, 'liking', full],
      [{ type: 'user.watch' }, 'choosingWatch', full],
      [{ type: 'user.unwatch' }, 'unsubscribing', liked],
      [{ type: 'user.delete' }, 'confirmingDelete', full],
    ] as const) {
      const { actor, answer, context } = start();
      answer('load', 0).resolve(dataset);
      await waitFor(actor, (s) => s.matches('ready'));
      actor.send({ type: 'user.like' });
      answer('like', 0).reject(offline);
      await waitFor(actor, (s) => s.context.error !== null);
      actor.send(event);
      expect(actionsState(actor)).toBe(state);
      expect(context().error).toBeNull();
      actor.stop();
    }
  });

  it('watch offers the choice, subscribes with it and reads the dataset again; a failure keeps the choice open with the message; cancel leaves', async () => {
    const { actor, calls, answer, context } = start();
    answer('load', 0).resolve(full);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.unwatch' });
    expect(actionsState(actor)).toBe('idle');
    actor.send({ type: 'user.watch' });
    expect(actionsState(actor)).toBe('choosingWatch');
    expect(selectBusy(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'user.cancel' });
    expect(actionsState(actor)).toBe('idle');
    actor.send({ type: 'user.watch' });
    actor.send({ type: 'user.choose', subscription: 'ALERTS' });
    expect(actionsState(actor)).toBe('subscribing');
    expect(selectBusy(actor.getSnapshot())).toBe(true);
    expect(calls.at(-1)).toBe('subscribe d1 ALERTS');
    answer('subscribe', 0).reject(offline);
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actionsState(actor)).toBe('choosingWatch');
    expect(context().error).toBe('We were unable to connect.');
    actor.send({ type: 'user.choose', subscription: 'ALL' });
    expect(context().error).toBeNull();
    expect(calls.at(-1)).toBe('subscribe d1 ALL');
    answer('subscribe', 1).resolve(undefined);
    await waitFor(actor, (s) => s.matches({ ready: { actions: 'reloading' } }));
    answer('reload', 0).reject(offline);
    await waitFor(actor, (s) => s.matches({ ready: { actions: 'idle' } }));
    expect(context().error).toBe('We were unable to connect.');
    expect(context().dataset).toEqual(full);
    actor.stop();
  });

  it('unwatch only while watching; a failure says why', async () => {
    const { actor, calls, answer, context } = start();
    answer('load', 0).resolve(liked);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.watch' });
    expect(actionsState(actor)).toBe('idle');
    actor.send({ type: 'user.unwatch' });
    expect(actionsState(actor)).toBe('unsubscribing');
    expect(selectBusy(actor.getSnapshot())).toBe(true);
    expect(calls.at(-1)).toBe('unsubscribe d1');
    answer('unsubscribe', 0).reject(offline);
    await waitFor(actor, (s) => s.matches({ ready: { actions: 'idle' } }));
    expect(context().error).toBe('We were unable to connect.');
    actor.send({ type: 'user.unwatch' });
    answer('unsubscribe', 1).resolve(undefined);
    await waitFor(actor, (s) => s.matches({ ready: { actions: 'reloading' } }));
    actor.stop();
  });

  it('delete asks first; a failure keeps the question with the message; done, it says so and goes back after 2 s', async () => {
    vi.useFakeTimers();
    const { actor, calls, actions, answer, context } = start();
    answer('load', 0).resolve(full);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'user.delete' });
    expect(actionsState(actor)).toBe('confirmingDelete');
    actor.send({ type: 'user.cancel' });
    expect(actionsState(actor)).toBe('idle');
    actor.send({ type: 'user.delete' });
    actor.send({ type: 'user.confirm' });
    expect(actionsState(actor)).toBe('deleting');
    expect(selectBusy(actor.getSnapshot())).toBe(true);
    expect(calls.at(-1)).toBe('remove d1');
    answer('remove', 0).reject(offline);
    await vi.advanceTimersByTimeAsync(0);
    expect(actionsState(actor)).toBe('confirmingDelete');
    expect(context().error).toBe('We were unable to connect.');
    actor.send({ type: 'user.confirm' });
    expect(context().error).toBeNull();
    answer('remove', 1).resolve(undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('deleted');
    await vi.advanceTimersByTimeAsync(1_999);
    expect(actions).toEqual(['recordView d1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('gone');
    expect(actor.getSnapshot().status).toBe('done');
    expect(actions).toEqual(['recordView d1', 'goBack w1']);
  });

  it('the description: edit starts from the saved text, a failed save says why and keeps the draft, the next save clears it, a save keeps the answer', async () => {
    const { actor, calls, answer, context } = start();
    answer('load', 0).resolve(full);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().matches({ ready: { description: 'display' } })).toBe(true);
    actor.send({ type: 'user.edit' });
    expect(actor.getSnapshot().matches({ ready: { description: 'editing' } })).toBe(true);
    expect(context().draft).toBe('Old');
    actor.send({ type: 'user.change', text: 'New text' });
    expect(context().draft).toBe('New text');
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().matches({ ready: { description: 'saving' } })).toBe(true);
    expect(calls.at(-1)).toBe('saveDescription d1 New text');
    answer('saveDescription', 0).reject(offline);
    await waitFor(actor, (s) => s.matches({ ready: { description: 'editing' } }));
    expect(context().descriptionError).toBe('We were unable to connect.');
    expect(context().draft).toBe('New text');
    actor.send({ type: 'user.save' });
    expect(context().descriptionError).toBeNull();
    answer('saveDescription', 1).resolve({ ...full, description: 'New text' });
    await waitFor(actor, (s) => s.matches({ ready: { description: 'display' } }));
    expect(context().dataset?.description).toBe('New text');
    expect(context().draft).toBe('');
    actor.stop();
  });

  it('cancelling the edit drops the draft and the message; a dataset with no description starts from nothing', async () => {
    const { actor, answer, context } = start();
    answer('load', 0).resolve({ ...full, description: undefined });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.edit' });
    expect(context().draft).toBe('');
    actor.send({ type: 'user.change', text: 'Draft' });
    actor.send({ type: 'user.save' });
    answer('saveDescription', 0).reject(offline);
    await waitFor(actor, (s) => s.context.descriptionError !== null);
    actor.send({ type: 'user.cancelEdit' });
    expect(actor.getSnapshot().matches({ ready: { description: 'display' } })).toBe(true);
    expect(context().draft).toBe('');
    expect(context().descriptionError).toBeNull();
    // editing again starts with no message
    actor.send({ type: 'user.edit' });
    actor.send({ type: 'user.change', text: 'Draft' });
    actor.send({ type: 'user.save' });
    answer('saveDescription', 1).reject(offline);
    await waitFor(actor, (s) => s.context.descriptionError !== null);
    actor.send({ type: 'user.cancelEdit' });
    actor.send({ type: 'user.edit' });
    expect(context().descriptionError).toBeNull();
    actor.stop();
  });

  it('the real load keeps a 404 from the shared error handler, and the view is recorded by PUT with a failure swallowed', async () => {
    const reported: unknown[] = [];
    const fake = fakeFetch({ status: 404, body: { status: 404, message: 'gone' } }, { status: 403, body: { status: 403, message: 'no' } });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0, onError: (f) => reported.push(f) });
    const actor = createActor(datasetPageActors(client).load, { input: { workspaceId: 'w1', idOrAlias: 'sales/monthly' } });
    const failed = new Promise<unknown>((resolve) => actor.subscribe({ error: resolve }));
    actor.start();
    expect(isNotFoundOf(await failed)).toBe(true);
    expect(reported).toEqual([]);
    const viewed = { ...full, _links: { ...full._links, 'view dataset': l('/datasets/d1/view') } };
    expect(recordViewAction(client)(undefined, { dataset: viewed })).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${BASE}/workspaces/w1/datasets/sales/monthly`, `PUT ${BASE}/datasets/d1/view`]);
  });

  it('the viewer liked the dataset when listed by id or by email, in any case', async () => {
    for (const [likedByProfiles, expected] of [
      [[{ id: 'p1' }], true],
      [[{ id: 'p9', email: ' ADA@example.com ' }], true],
      [[{ id: 'p9', email: 'bob@example.com' }], false],
      [[], false],
    ] as const) {
      const { actor, answer } = start();
      answer('load', 0).resolve({ ...full, likedByProfiles: likedByProfiles as never });
      await waitFor(actor, (s) => s.matches('ready'));
      expect(selectIsLiked(actor.getSnapshot())).toBe(expected);
      actor.stop();
    }
    await settle();
  });

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
