import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { deleteNotification, getNotificationSettings, listInbox, markAllRead, nextInboxPage, resolveNotification, saveNotificationSettings } from '../../api/notifications';
import type { Notification, NotificationSettings, NotificationsCollection } from '../../domain/resources';
import type { InboxLoad, MarkAllInput, PageInput, SettingsInput, TargetInput } from './inbox.machine';

/** `inboxMachine.provide({ actors: inboxActors(client) })`. */
export function inboxActors(client: ApiClient) {
  return {
    load: fromPromise<InboxLoad, void>(async ({ signal }) => {
      const [page, settings] = await Promise.all([listInbox(client, { signal }), getNotificationSettings(client, { signal })]);
      return { page, settings };
    }),
    more: fromPromise<NotificationsCollection, PageInput>(({ input, signal }) => nextInboxPage(client, input.page, { signal })),
    resolve: fromPromise<Notification, TargetInput>(({ input, signal }) => resolveNotification(client, input.notification, { signal })),
    resolveAll: fromPromise<unknown, MarkAllInput>(({ input, signal }) => markAllRead(client, input.lastReadAt, { signal })),
    remove: fromPromise<unknown, TargetInput>(({ input, signal }) => deleteNotification(client, input.notification, { signal })),
    saveSettings: fromPromise<NotificationSettings, SettingsInput>(({ input, signal }) => saveNotificationSettings(client, input.settings, { signal })),
  };
}
