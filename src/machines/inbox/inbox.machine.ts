import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { embeddedList, hasLink } from '../../domain/hal';
import { withRoute, type RouteLevel, type RouteObjectType } from '../../domain/noiseControl';
import { REL } from '../../domain/relations';
import type { Notification, NotificationSettings, NotificationsCollection } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvided, notProvidedActor } from '../notProvided';

// The notifications inbox (spec 002 §2, issue 12): pages of every notification (Load More while a
// next page exists), mark read, delete, and noise control (mentions only, the daily digest, a
// route per dataset or pipeline) saved as one settings document.

export type InboxContext = {
  readonly items: readonly Notification[];
  /** the last page read: its 'next' link says whether there is more */
  readonly page: NotificationsCollection | null;
  readonly settings: NotificationSettings | null;
  readonly target: Notification | null;
  readonly pendingSettings: NotificationSettings | null;
  readonly error: string | null;
  /** where an opened notification goes once it is marked read */
  readonly then: string | null;
};
export type InboxEvent =
  | { readonly type: 'user.loadMore' }
  | { readonly type: 'user.markRead'; readonly notification: Notification }
  /** every notification shown so far (and any older) becomes read */
  | { readonly type: 'user.markAllRead' }
  /** open a notification's target: an unread one is marked read first, so leaving the page cannot cut the request off */
  | { readonly type: 'user.open'; readonly notification: Notification; readonly target: string | null }
  | { readonly type: 'user.delete'; readonly notification: Notification }
  | { readonly type: 'user.saveSettings'; readonly mentionsOnly: boolean; readonly digest: boolean }
  | { readonly type: 'user.route'; readonly objectType: RouteObjectType; readonly objectId: string; readonly level: RouteLevel | undefined }
  | { readonly type: 'user.retry' };
export type InboxLoad = { readonly page: NotificationsCollection; readonly settings: NotificationSettings };
export type PageInput = { readonly page: NotificationsCollection };
export type TargetInput = { readonly notification: Notification };
export type SettingsInput = { readonly settings: NotificationSettings };
export type MarkAllInput = { readonly lastReadAt: string };

const hasNext = (page: NotificationsCollection | null) => page !== null && hasLink(page, 'next');

/**
 * The newest creation time shown (every notification has one: notificationSchema requires it):
 * "mark all read" stops there, so one that arrives meanwhile stays unread.
 */
const newestShown = (items: readonly Notification[]): string | undefined =>
  items.reduce<string | undefined>((newest, n) => (newest === undefined || Date.parse(n.created) > Date.parse(newest) ? n.created : newest), undefined);

/** Something shown is unread (so the list has a newest time to mark up to). */
const canMarkAllRead = (items: readonly Notification[]) => items.some((n) => n.resolved !== true);

/** What the server did to a notification it marked read: resolved, and no longer offering to be. */
function asRead(n: Notification, lastReadAt: string): Notification {
  if (n.resolved === true || Date.parse(n.created) > Date.parse(lastReadAt)) return n;
  const { [REL.resolveNotification]: _resolve, ...links } = n._links ?? {};
  return { ...n, resolved: true, _links: links };
}

/** New items replace old copies of themselves (a page may shift as notifications arrive). */
function appended(items: readonly Notification[], more: readonly Notification[]): Notification[] {
  const ids = new Set(more.map((n) => n.id));
  return [...items.filter((n) => !ids.has(n.id)), ...more];
}

export const inboxMachine = setup({
  types: { context: {} as InboxContext, events: {} as InboxEvent },
  actors: {
    load: notProvidedActor<InboxLoad, void>('load'),
    more: notProvidedActor<NotificationsCollection, PageInput>('more'),
    resolve: notProvidedActor<Notification, TargetInput>('resolve'),
    resolveAll: notProvidedActor<unknown, MarkAllInput>('resolveAll'),
    remove: notProvidedActor<unknown, TargetInput>('remove'),
    saveSettings: notProvidedActor<NotificationSettings, SettingsInput>('saveSettings'),
  },
  actions: {
    /** The router: a notification's target (null: stay). */
    goTo: (_, _params: { path: string | null }) => notProvided('goTo')(),
    /** Read or deleted notifications change the unread count the shell's bell shows. */
    changed: notProvided('changed'),
  },
  guards: {
    hasNext: ({ context }) => hasNext(context.page),
    canMarkAllRead: ({ context }) => canMarkAllRead(context.items),
    canResolve: ({ event }) => (event.type === 'user.markRead' || event.type === 'user.open') && hasLink(event.notification, REL.resolveNotification) && !(event.type === 'user.open' && event.notification.resolved === true),
    canDelete: ({ event }) => event.type === 'user.delete' && hasLink(event.notification, REL.deleteNotification),
    canChangeSettings: ({ context }) => context.settings !== null && hasLink(context.settings, REL.updateNotificationSettings),
  },
}).createMachine({
  id: 'inbox',
  context: { items: [], page: null, settings: null, target: null, pendingSettings: null, error: null, then: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: assign(({ event }) => ({ page: event.output.page, items: embeddedList(event.output.page, 'notifications'), settings: event.output.settings, error: null })) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': 'loading' } },
    ready: {
      on: {
        'user.loadMore': { guard: 'hasNext', target: 'loadingMore', actions: assign({ error: null }) },
        'user.markRead': { guard: 'canResolve', target: 'resolving', actions: assign({ target: ({ event }) => event.notification, error: null, then: null }) },
        'user.markAllRead': { guard: 'canMarkAllRead', target: 'resolvingAll', actions: assign({ error: null }) },
        'user.open': [
          { guard: 'canResolve', target: 'resolving', actions: assign({ target: ({ event }) => event.notification, error: null, then: ({ event }) => event.target }) },
          { actions: { type: 'goTo', params: ({ event }) => ({ path: event.target }) } },
        ],
        'user.delete': { guard: 'canDelete', target: 'deleting', actions: assign({ target: ({ event }) => event.notification, error: null }) },
        'user.saveSettings': {
          guard: 'canChangeSettings',
          target: 'savingSettings',
          actions: assign({ pendingSettings: ({ context, event }) => ({ ...context.settings!, mentionsOnly: event.mentionsOnly, digest: event.digest }), error: null }),
        },
        'user.route': {
          guard: 'canChangeSettings',
          target: 'savingSettings',
          actions: assign({
            pendingSettings: ({ context, event }): NotificationSettings => ({
              ...context.settings!,
              routes: withRoute({ mentionsOnly: false, digest: false, routes: context.settings!.routes }, event.objectType, event.objectId, event.level).routes.map((r) => ({ ...r })),
            }),
            error: null,
          }),
        },
      },
    },
    loadingMore: {
      invoke: {
        id: 'more',
        src: 'more',
        input: ({ context }) => ({ page: context.page! }),
        onDone: { target: 'ready', actions: assign(({ context, event }) => ({ page: event.output, items: appended(context.items, embeddedList(event.output, 'notifications')) })) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    resolving: {
      invoke: {
        id: 'resolve',
        src: 'resolve',
        input: ({ context }) => ({ notification: context.target! }),
        onDone: {
          target: 'ready',
          actions: [assign(({ context, event }) => ({ items: context.items.map((n) => (n.id === event.output.id ? event.output : n)), target: null })), 'changed', { type: 'goTo', params: ({ context }) => ({ path: context.then }) }, assign({ then: null })],
        },
        // a notification that could not be marked read still opens
        onError: { target: 'ready', actions: [assign({ error: ({ event }) => failureText(event.error), target: null }), { type: 'goTo', params: ({ context }) => ({ path: context.then }) }, assign({ then: null })] },
      },
    },
    resolvingAll: {
      invoke: {
        id: 'resolveAll',
        src: 'resolveAll',
        input: ({ context }) => ({ lastReadAt: newestShown(context.items)! }),
        onDone: { target: 'ready', actions: [assign(({ context }) => ({ items: context.items.map((n) => asRead(n, newestShown(context.items)!)) })), 'changed'] },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    deleting: {
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ notification: context.target! }),
        onDone: { target: 'ready', actions: [assign(({ context }) => ({ items: context.items.filter((n) => n.id !== context.target?.id), target: null })), 'changed'] },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
    savingSettings: {
      invoke: {
        id: 'saveSettings',
        src: 'saveSettings',
        input: ({ context }) => ({ settings: context.pendingSettings! }),
        onDone: { target: 'ready', actions: assign({ settings: ({ event }) => event.output, pendingSettings: null }) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error), pendingSettings: null }) },
      },
    },
  },
});

export type InboxSnapshot = SnapshotFrom<typeof inboxMachine>;

export const selectCanLoadMore = (s: InboxSnapshot): boolean => hasNext(s.context.page);
export const selectCanMarkAllRead = (s: InboxSnapshot): boolean => s.matches('ready') && canMarkAllRead(s.context.items);
export const selectBusyId = (s: InboxSnapshot): string | null => (s.matches('resolving') || s.matches('deleting') ? (s.context.target?.id ?? null) : null);
