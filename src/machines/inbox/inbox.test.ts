import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Notification, NotificationSettings, NotificationsCollection } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { inboxActors } from './inbox.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { inboxMachine, selectCanLoadMore, selectCanMarkAllRead, type InboxSnapshot } from './inbox.machine';

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
    const actor = createActor(inboxMachine.provide({ actors: inboxActors(client) })).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(selectCanLoadMore(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.loadMore' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 2);
    expect(selectCanLoadMore(actor.getSnapshot())).toBe(false);
    expect(selectCanMarkAllRead(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.markAllRead' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items[0]!.resolved === true);
    expect(selectCanMarkAllRead(actor.getSnapshot())).toBe(false);
    // already read: nothing to send
    actor.send({ type: 'user.markRead', notification: actor.getSnapshot().context.items[0]! });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.send({ type: 'user.delete', notification: read });
    await waitFor(actor, (s) => s.matches('ready') && s.context.items.length === 1);
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
