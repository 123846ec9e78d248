import { embeddedList } from '../domain/hal';
import { REL } from '../domain/relations';
import {
  notificationSchema,
  notificationSettingsSchema,
  notificationsCollectionSchema,
  type Notification,
  type NotificationSettings,
  type NotificationsCollection,
} from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

/** The unread count: only page.totalElements of a one-item page is needed. */
export async function countUnread(client: ApiClient, options: RequestOptions = {}): Promise<number> {
  const page = await client.get('/notifications', notificationsCollectionSchema, { ...options, query: { size: 1, ...options.query } });
  return page.page?.totalElements ?? embeddedList(page, 'notifications').length;
}

type NotificationQuery = {
  /** Resolved ones too, not only the unread. */
  readonly all?: boolean;
  /** ISO 8601 bounds on the creation time. */
  readonly before?: string;
  readonly since?: string;
  /** Mark the returned notifications as resolved (read) while listing them. */
  readonly markAsResolved?: boolean;
  readonly page?: number;
  readonly size?: number;
};

export function listNotifications(
  client: ApiClient,
  query: NotificationQuery = {},
  options: RequestOptions = {},
): Promise<NotificationsCollection> {
  return client.get('/notifications', notificationsCollectionSchema, { ...options, query: { ...query, ...options.query } });
}

/** The inbox: every notification, read or not, newest first; further pages through 'next'. */
const INBOX_PAGE_SIZE = 20;

export function listInbox(client: ApiClient, options: RequestOptions = {}): Promise<NotificationsCollection> {
  return listNotifications(client, { all: true, size: INBOX_PAGE_SIZE }, options);
}

export function nextInboxPage(client: ApiClient, page: NotificationsCollection, options: RequestOptions = {}): Promise<NotificationsCollection> {
  return client.follow(page, 'next', { ...options, schema: notificationsCollectionSchema });
}

export async function resolveNotification(client: ApiClient, notification: Notification, options: RequestOptions = {}): Promise<Notification> {
  const read = await client.follow(notification, REL.resolveNotification, { ...options, method: 'PUT', schema: notificationSchema });
  if (read === undefined) throw new TypeError('The notification was not returned');
  return read;
}

/**
 * Marks read every notification created at or before `lastReadAt` (the newest one the inbox has
 * shown, so one that arrived meanwhile stays unread); answers with the unread that remain.
 */
export async function markAllRead(client: ApiClient, lastReadAt: string, options: RequestOptions = {}): Promise<NotificationsCollection> {
  const page = await client.put('/notifications', undefined, notificationsCollectionSchema, { ...options, query: { read: 'true', lastReadAt, size: 1, ...options.query } });
  if (page === undefined) throw new TypeError('The notifications were not returned');
  return page;
}

export function deleteNotification(client: ApiClient, notification: Notification, options: RequestOptions = {}): Promise<void> {
  return client.follow(notification, REL.deleteNotification, { ...options, method: 'DELETE' });
}

export function getNotificationSettings(client: ApiClient, options: RequestOptions = {}): Promise<NotificationSettings> {
  return client.get('/notification-settings', notificationSettingsSchema, options);
}

export async function saveNotificationSettings(client: ApiClient, settings: NotificationSettings, options: RequestOptions = {}): Promise<NotificationSettings> {
  const body = { mentionsOnly: settings.mentionsOnly, digest: settings.digest, routes: settings.routes };
  const saved = await client.follow(settings, REL.updateNotificationSettings, { ...options, method: 'PUT', body, schema: notificationSettingsSchema });
  if (saved === undefined) throw new TypeError('The settings were not returned');
  return saved;
}
