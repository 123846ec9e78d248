import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Notification, NotificationSettings, NotificationsCollection } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { inboxActors } from './inbox.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { heldActors } from '../testing/deferred.fixture';
import { inboxMachine, selectBusyId, selectCanLoadMore, selectCanMarkAllRead, type InboxLoad, type InboxSnapshot, type MarkAllInput, type PageInput, type SettingsInput, type TargetInput } from './inbox.machine';

const BASE = 'http://api.test/api';
const D = '00000000-0000-4000-8000-000000000001';
const unread: Notification = {
  id: 'n1',
  type: 'DATASET_COMMENT',
  resolved: false,
  created: '2026-11-23T10:00:00Z',
  _links: { self: { href: `${BASE}/notifications/n1` }, 'resolve notification': { href: `${BASE}/notifications/n1/resolved` }, 'delete notification': { href: `${BASE}/notifications/n1` } },
};
const read: Notification = { ...unread, resolved: true, _links: { self: { href: `${BASE}/notifications/n1` }, 'delete notification': { href: `${BASE}/notifications/n1` } } };
const older: Notification = { ...read, id: 'n2', created: '2026-11-20T10:00:00Z', _links: { self: { href: `${BASE}/notifications/n2` } } };
const pageOf = (items: Notification[], next: boolean): NotificationsCollection => ({
  page: { size: 1, totalElements: 2, totalPages: 2, number: next ? 0 : 1 },
  _embedded: { notifications: items },
  _links: { self: { href: `${BASE}/notifications?all=true&size=20` }, ...(next ? { next: { href: `${BASE}/notifications?all=true&size=20&page=1` } } : {}) },
});
const settings: NotificationSettings = { mentionsOnly: false, digest: false, routes: [], _links: { self: { href: `${BASE}/notification-settings` }, 'update notification settings': { href: `${BASE}/notification-settings` } } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.load': [{ output: { page: pageOf([unread], true), settings } }],
  'xstate.error.actor.load': [{ error: offline }],
  'xstate.done.actor.more': [{ output: pageOf([older], false) }],
  'xstate.error.actor.more': [{ error: offline }],
  'xstate.done.actor.resolve': [{ output: read }],
  'xstate.error.actor.resolve': [{ error: offline }],
  'xstate.done.actor.resolveAll': [{ output: pageOf([], false) }],
  'xstate.error.actor.resolveAll': [{ error: offline }],
  'xstate.done.actor.remove': [{ output: undefined }],
  'xstate.error.actor.remove': [{ error: offline }],
  'xstate.done.actor.saveSettings': [{ output: { ...settings, mentionsOnly: true } }],
  'xstate.error.actor.saveSettings': [{ error: offline }],
  'user.loadMore': [{}],
  'user.markRead': [{ notification: unread }, { notification: older }],
  'user.markAllRead': [{}],
  'user.open': [{ notification: unread, target: '/l/w1/dataset/d1' }, { notification: read, target: '/l/w1/dataset/d1' }, { notification: older, target: null }],
  'user.delete': [{ notification: unread }, { notification: older }],
  'user.saveSettings': [{ mentionsOnly: true, digest: false }],
  'user.route': [{ objectType: 'DATASET' as const, objectId: D, level: 'ERRORS' as const }],
  'user.retry': [{}],
};

describe('the inbox (model-based)', () => {
  const options = { events, stopWhen: (s: { context: { error: string | null } }) => s.context.error !== null };
  const paths = modelPaths(inboxMachine, options);

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(inboxMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(inboxMachine, paths, options)).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    const log = await replayPath(inboxMachine, path, {
      states: {
        // Only a notification carrying the link is acted on.
        resolving: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { notification: Notification }).notification.id).toBe('n1'),
        deleting: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { notification: Notification }).notification.id).toBe('n1'),
        // marks up to the newest notification shown, never "now"
        resolvingAll: (s: InboxSnapshot, log: ReplayLog) => {
          expect(log.invocations.at(-1)?.input).toEqual({ lastReadAt: unread.created });
          expect(s.context.items.some((n) => n.resolved !== true)).toBe(true);
        },
        ready: (s: InboxSnapshot) => {
          // after a mark-all that succeeded, nothing shown offers to be marked read
          if (s.context.items.every((n) => n.resolved === true)) expect(s.context.items.some((n) => n._links?.['resolve notification'] !== undefined)).toBe(false);
          expect(selectCanMarkAllRead(s)).toBe(s.context.items.some((n) => n.resolved !== true));
        },
      },
    });
    // an opened notification's target is visited once, after its mark-read ended if it needed one;
    // every read or delete that succeeded tells the bell
    const types = path.steps.map((s) => (s.event).type);
    const visits = log.actions.filter((a) => a.name === 'goTo').map((a) => (a.params as { path: string | null }).path).filter((p) => p !== null);
    expect(visits.length).toBeLessThanOrEqual(types.filter((t) => t === 'user.open').length);
    for (const visit of visits) expect(visit).toBe('/l/w1/dataset/d1');
    const changes = log.actions.filter((a) => a.name === 'changed').length;
    expect(changes).toBe(types.filter((t) => t === 'xstate.done.actor.resolve' || t === 'xstate.done.actor.resolveAll' || t === 'xstate.done.actor.remove').length);
  });

  it('opening an unread notification marks it read before going to its target; a read one goes at once', async () => {
    const loaded = { type: 'xstate.done.actor.load', output: { page: pageOf([unread], false), settings } };
    const open = (notification: Notification) => ({ type: 'user.open', notification, target: '/l/w1/dataset/d1' });
    const visits = (log: ReplayLog) => log.actions.filter((a) => a.name === 'goTo').map((a) => (a.params as { path: string | null }).path).filter((p) => p !== null);

    const pending = pathOf(inboxMachine, [loaded, open(unread)], {});
    expect(pending.state.matches('resolving')).toBe(true);
    expect(visits(await replayPath(inboxMachine, pending, {}))).toEqual([]);
    const done = await replayPath(inboxMachine, pathOf(inboxMachine, [loaded, open(unread), { type: 'xstate.done.actor.resolve', output: read }], {}), {});
    expect(visits(done)).toEqual(['/l/w1/dataset/d1']);
    expect(done.actions.filter((a) => a.name === 'changed')).toHaveLength(1);

    const direct = pathOf(inboxMachine, [loaded, open(read)], {});
    expect(direct.state.matches('ready')).toBe(true);
    const log = await replayPath(inboxMachine, direct, {});
    expect(visits(log)).toEqual(['/l/w1/dataset/d1']);
    expect(log.invocations.map((i) => i.id)).toEqual(['load']);
  });
});

describe('inbox scenarios', () => {
  it('the real actors: loads, loads more through next, marks read, deletes, routes a dataset', async () => {
    const fake = fakeFetch(
      { body: pageOf([unread], true) },
      { body: settings },
      { body: pageOf([older], false) },
      { body: pageOf([], false) },
      { status: 204 },
      { body: { ...settings, routes: [{ objectType: 'DATASET', objectId: D, level: 'ERRORS' }] } },
    );
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    let changes = 0;
    const moves: (string | null)[] = [];
    const actor = createActor(inboxMachine.provide({ actors: inboxActors(client), actions: { changed: () => void changes++, goTo: (_, { path }) => void moves.push(path) } })).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(selectCanLoadMore(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.loadMore' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 2);
    expect(selectCanLoadMore(actor.getSnapshot())).toBe(false);
    expect(selectCanMarkAllRead(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.markAllRead' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items[0]!.resolved === true);
    expect(selectCanMarkAllRead(actor.getSnapshot())).toBe(false);
    expect(changes).toBe(1);
    // already read: nothing to send
    actor.send({ type: 'user.markRead', notification: actor.getSnapshot().context.items[0]! });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.send({ type: 'user.delete', notification: read });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 1);
    expect([changes, moves]).toEqual([2, []]);
    actor.send({ type: 'user.route', objectType: 'DATASET', objectId: D, level: 'ERRORS' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.settings!.routes.length === 1);
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET ${BASE}/notifications?all=true&size=20`,
      `GET ${BASE}/notification-settings`,
      `GET ${BASE}/notifications?all=true&size=20&page=1`,
      `PUT ${BASE}/notifications?read=true&lastReadAt=${unread.created}&size=1`,
      `DELETE ${BASE}/notifications/n1`,
      `PUT ${BASE}/notification-settings`,
    ]);
    expect(fake.calls.at(-1)?.body).toEqual({ mentionsOnly: false, digest: false, routes: [{ objectType: 'DATASET', objectId: D, level: 'ERRORS' }] });
    actor.stop();
  });
});

describe('inbox, checked by hand', () => {
  it('cancels each request when the inbox is left before it answers (both of the first load)', async () => {
    const inputs = {
      load: undefined,
      more: { page: pageOf([unread], true) },
      resolve: { notification: unread },
      resolveAll: { lastReadAt: '2026-11-23T10:00:00Z' },
      remove: { notification: unread },
      saveSettings: { settings: { ...settings, digest: true } },
    };
    expect(await requestsCancelledOnStop(inboxActors, inputs)).toEqual({ load: true, more: true, resolve: true, resolveAll: true, remove: true, saveSettings: true });
  });
});

describe('inbox, checked by hand: each effect', () => {
  const n = (id: string, created: string, resolved: boolean, rels: string[]): Notification => ({
    id,
    type: 'DATASET_COMMENT',
    resolved,
    created,
    _links: Object.fromEntries([['self', { href: `${BASE}/notifications/${id}` }], ...rels.map((rel) => [rel, { href: `${BASE}/notifications/${id}/${rel.split(' ')[0]!}` }])]),
  });
  const RESOLVE = 'resolve notification';
  const DELETE = 'delete notification';
  /** read, but the server still offers to mark it read */
  const readLinked = n('n7', '2026-11-22T10:00:00Z', true, [RESOLVE, DELETE]);
  const newer = n('n3', '2026-11-24T09:00:00Z', false, [RESOLVE, DELETE]);
  const asReadByServer = (x: Notification): Notification => ({ ...x, resolved: true, _links: { self: { href: `${BASE}/notifications/${x.id}` }, ...(x._links?.[DELETE] === undefined ? {} : { [DELETE]: x._links[DELETE] }) } });
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  function start() {
    const { calls, pending, held } = heldActors();
    const id = (x: { notification: Notification }) => x.notification.id;
    const actors = {
      load: held<void, InboxLoad>('load', () => ''),
      more: held<PageInput, NotificationsCollection>('more', ({ page }) => page._links?.next === undefined ? 'no next' : 'next'),
      resolve: held<TargetInput, Notification>('resolve', id),
      resolveAll: held<MarkAllInput, unknown>('resolveAll', ({ lastReadAt }) => lastReadAt),
      remove: held<TargetInput, unknown>('remove', id),
      saveSettings: held<SettingsInput, NotificationSettings>('saveSettings', ({ settings: s }) => JSON.stringify({ mentionsOnly: s.mentionsOnly, digest: s.digest, routes: s.routes })),
    };
    const visits: (string | null)[] = [];
    let changes = 0;
    const machine = inboxMachine.provide({
      actors,
      actions: {
        goTo: (_, params: { path: string | null }) => void visits.push(params.path),
        changed: () => void (changes += 1),
      },
    });
    const actor = createActor(machine).start();
    const answer = (actorId: string) => pending[actorId]!.at(-1)!;
    const context = () => actor.getSnapshot().context;
    return { actor, calls, answer, context, visits, changes: () => changes };
  }

  async function loaded(items: Notification[], options: { next?: boolean; settings?: NotificationSettings } = {}) {
    const started = start();
    started.answer('load').resolve({ page: pageOf(items, options.next ?? false), settings: options.settings ?? settings });
    await settle();
    expect(started.actor.getSnapshot().value).toBe('ready');
    return started;
  }

  it('a failed first load says why; Retry loads again, and its answer clears the message', async () => {
    const { actor, calls, answer, context } = start();
    answer('load').reject(offline);
    await settle();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(context().error).toBe('We were unable to connect.');
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    answer('load').resolve({ page: pageOf([unread], false), settings });
    await settle();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(context().error).toBeNull();
    expect(context().items).toEqual([unread]);
    expect(calls).toEqual(['load ', 'load ']);
    actor.stop();
  });

  it('each failed action says why and keeps what is shown; the next action clears the message', async () => {
    const { actor, calls, answer, context, visits, changes } = await loaded([unread], { next: true });
    const failWith = async (actorId: string) => {
      answer(actorId).reject(offline);
      await settle();
      expect(actor.getSnapshot().value, actorId).toBe('ready');
      expect(context().error, actorId).toBe('We were unable to connect.');
      expect(context().items, actorId).toEqual([unread]);
    };
    actor.send({ type: 'user.loadMore' });
    expect(actor.getSnapshot().value).toBe('loadingMore');
    await failWith('more');
    expect(selectCanLoadMore(actor.getSnapshot())).toBe(true);

    actor.send({ type: 'user.markAllRead' });
    expect(actor.getSnapshot().value).toBe('resolvingAll');
    expect(context().error).toBeNull();
    await failWith('resolveAll');

    actor.send({ type: 'user.loadMore' });
    expect(context().error).toBeNull();
    await failWith('more');

    actor.send({ type: 'user.markRead', notification: unread });
    expect(actor.getSnapshot().value).toBe('resolving');
    expect(context().error).toBeNull();
    expect(selectBusyId(actor.getSnapshot())).toBe('n1');
    await failWith('resolve');
    expect(context().target).toBeNull();
    expect(selectBusyId(actor.getSnapshot())).toBeNull();

    actor.send({ type: 'user.delete', notification: unread });
    expect(actor.getSnapshot().value).toBe('deleting');
    expect(context().error).toBeNull();
    expect(selectBusyId(actor.getSnapshot())).toBe('n1');
    await failWith('remove');
    expect(context().target).toBeNull();
    expect(selectBusyId(actor.getSnapshot())).toBeNull();

    actor.send({ type: 'user.saveSettings', mentionsOnly: true, digest: true });
    expect(actor.getSnapshot().value).toBe('savingSettings');
    expect(context().error).toBeNull();
    expect(context().pendingSettings).toEqual({ ...settings, mentionsOnly: true, digest: true });
    await failWith('saveSettings');
    expect(context().pendingSettings).toBeNull();
    expect(context().settings).toEqual(settings);

    expect(calls).toEqual(['load ', 'more next', `resolveAll ${unread.created}`, 'more next', 'resolve n1', 'remove n1', 'saveSettings {"mentionsOnly":true,"digest":true,"routes":[]}']);
    // nothing was read or deleted, and a failed mark-read of no opened notification goes nowhere
    expect(changes()).toBe(0);
    expect(visits.filter((v) => v !== null)).toEqual([]);
    actor.stop();
  });

  it('an opened notification whose mark-read fails still opens, and the target is then forgotten', async () => {
    const { actor, answer, context, visits } = await loaded([unread]);
    actor.send({ type: 'user.open', notification: unread, target: '/l/w1/dataset/d1' });
    expect(actor.getSnapshot().value).toBe('resolving');
    expect(context().then).toBe('/l/w1/dataset/d1');
    expect(visits).toEqual([]);
    answer('resolve').reject(offline);
    await settle();
    expect(visits).toEqual(['/l/w1/dataset/d1']);
    expect(context()).toMatchObject({ error: 'We were unable to connect.', target: null, then: null });
    actor.stop();
  });

  it('mark read replaces only that notification; an opened one goes after, and the target is forgotten', async () => {
    const { actor, calls, answer, context, visits, changes } = await loaded([unread, newer]);
    actor.send({ type: 'user.markRead', notification: unread });
    answer('resolve').resolve(read);
    await settle();
    expect(context().items).toEqual([read, newer]);
    expect(context().target).toBeNull();
    expect(changes()).toBe(1);
    actor.send({ type: 'user.open', notification: newer, target: '/l/w1/dataset/d3' });
    expect(context().then).toBe('/l/w1/dataset/d3');
    answer('resolve').resolve(asReadByServer(newer));
    await settle();
    expect(context().items).toEqual([read, asReadByServer(newer)]);
    expect(context().then).toBeNull();
    expect(visits.filter((v) => v !== null)).toEqual(['/l/w1/dataset/d3']);
    expect(changes()).toBe(2);
    expect(calls).toEqual(['load ', 'resolve n1', 'resolve n3']);
    actor.stop();
  });

  it('a read notification that still offers the link: Open goes at once, Mark read follows the link', async () => {
    const { actor, calls, visits } = await loaded([readLinked]);
    actor.send({ type: 'user.open', notification: readLinked, target: '/l/w1/dataset/d7' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(visits).toEqual(['/l/w1/dataset/d7']);
    actor.send({ type: 'user.markRead', notification: readLinked });
    expect(actor.getSnapshot().value).toBe('resolving');
    expect(calls).toEqual(['load ', 'resolve n7']);
    actor.stop();
  });

  it('delete takes only that notification off the list', async () => {
    const { actor, calls, answer, context, changes } = await loaded([unread, newer]);
    actor.send({ type: 'user.delete', notification: unread });
    answer('remove').resolve(undefined);
    await settle();
    expect(context().items).toEqual([newer]);
    expect(context().target).toBeNull();
    expect(changes()).toBe(1);
    expect(calls).toEqual(['load ', 'remove n1']);
    actor.stop();
  });

  it('a page that repeats a notification already shown replaces it rather than doubling it', async () => {
    const { actor, answer, context } = await loaded([unread], { next: true });
    actor.send({ type: 'user.loadMore' });
    answer('more').resolve(pageOf([read, older], false));
    await settle();
    expect(context().items).toEqual([read, older]);
    expect(selectCanLoadMore(actor.getSnapshot())).toBe(false);
    actor.stop();
  });

  it('mark all read sends the newest time shown, wherever it is in the list, and marks what is older; what was read stays as it was', async () => {
    const { actor, calls, answer, context, changes } = await loaded([older, readLinked, unread]);
    expect(selectCanMarkAllRead(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.markAllRead' });
    expect(calls).toEqual(['load ', 'resolveAll 2026-11-23T10:00:00Z']);
    answer('resolveAll').resolve(pageOf([], false));
    await settle();
    expect(context().items).toStrictEqual([older, readLinked, asReadByServer(unread)]);
    expect(changes()).toBe(1);
    expect(selectCanMarkAllRead(actor.getSnapshot())).toBe(false);
    actor.stop();
  });

  it('settings: Save sends both switches with the routes kept; settings without the update link cannot be changed', async () => {
    const routed: NotificationSettings = { ...settings, routes: [{ objectType: 'PIPELINE', objectId: 'p1', level: 'NONE' }] };
    const { actor, calls, answer, context } = await loaded([unread], { settings: routed });
    actor.send({ type: 'user.saveSettings', mentionsOnly: true, digest: false });
    expect(context().pendingSettings).toEqual({ ...routed, mentionsOnly: true, digest: false });
    const saved = { ...routed, mentionsOnly: true };
    answer('saveSettings').resolve(saved);
    await settle();
    expect(context().settings).toEqual(saved);
    expect(calls).toEqual(['load ', 'saveSettings {"mentionsOnly":true,"digest":false,"routes":[{"objectType":"PIPELINE","objectId":"p1","level":"NONE"}]}']);
    actor.stop();

    const { _links: _all, ...unlinked } = settings;
    const fixed = await loaded([unread], { settings: { ...unlinked, _links: { self: { href: `${BASE}/notification-settings` } } } });
    fixed.actor.send({ type: 'user.saveSettings', mentionsOnly: true, digest: true });
    fixed.actor.send({ type: 'user.route', objectType: 'DATASET', objectId: D, level: 'ERRORS' });
    expect(fixed.actor.getSnapshot().value).toBe('ready');
    expect(fixed.calls).toEqual(['load ']);
    fixed.actor.stop();
  });

  it('which notification is busy: the one marked read or deleted, and none otherwise', async () => {
    const { actor, answer } = start();
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    answer('load').resolve({ page: pageOf([unread], true), settings });
    await settle();
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    for (const [event, state] of [
      [{ type: 'user.loadMore' }, 'loadingMore'],
      [{ type: 'user.markAllRead' }, 'resolvingAll'],
      [{ type: 'user.saveSettings', mentionsOnly: false, digest: true }, 'savingSettings'],
    ] as const) {
      actor.send(event);
      expect(actor.getSnapshot().value).toBe(state);
      expect(selectBusyId(actor.getSnapshot()), state).toBeNull();
      answer(event.type === 'user.loadMore' ? 'more' : event.type === 'user.markAllRead' ? 'resolveAll' : 'saveSettings').reject(offline);
      await settle();
    }
    actor.send({ type: 'user.markRead', notification: unread });
    expect(selectBusyId(actor.getSnapshot())).toBe('n1');
    answer('resolve').reject(offline);
    await settle();
    actor.send({ type: 'user.delete', notification: unread });
    expect(selectBusyId(actor.getSnapshot())).toBe('n1');
    answer('remove').resolve(undefined);
    await settle();
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    actor.stop();
  });
});
