import { embeddedList } from '../domain/hal';
import { notificationsCollectionSchema, type NotificationsCollection } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

/** The unread count: only page.totalElements of a one-item page is needed. */
export async function countUnread(client: ApiClient, options: RequestOptions = {}): Promise<number> {
  const page = await client.get('/notifications', notificationsCollectionSchema, { ...options, query: { size: 1, ...options.query } });
  return page.page?.totalElements ?? embeddedList(page, 'notifications').length;
}

export type NotificationQuery = {
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
