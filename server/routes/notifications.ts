import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { notificationSchema, notificationsCollectionSchema, notificationSettingsSchema } from '../../src/domain/resources';
import { pagedCollection } from '../http/hal';
import { noiseSettingsInputSchema, uniqueRoutes, type NoiseSettings } from '../../src/domain/noiseControl';
import { notFound } from '../http/errors';
import { noiseSettingsFor, saveNoiseSettings } from '../repositories/notificationSettings';
import { deleteNotification, findNotification, markResolved, markResolvedBefore, notificationsOf } from '../repositories/notifications';
import { notificationBody, notificationSettingsBody } from '../representations/notification';
import { requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';

const flag = z.enum(['true', 'false'], { message: "must be 'true' or 'false'" }).optional();
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const timestamp = z
  .string()
  .refine((text) => ISO_DATE.test(text) && !Number.isNaN(Date.parse(text)), 'must be an ISO 8601 timestamp')
  .transform((text) => new Date(text))
  .optional();

const querySchema = z.looseObject({ all: flag, markAsResolved: flag, before: timestamp, since: timestamp });
/** Matatika's "refresh notifications": `read` (default true) marks read what came at or before `lastReadAt` (default now). */
const refreshSchema = z.looseObject({ read: flag, lastReadAt: timestamp });

export function notificationRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /**
   * The caller's own notifications, newest first: unread only unless all=true. page.totalElements
   * counts every match, so size=1 gives the unread count. markAsResolved=true marks the returned
   * page read; the page itself still shows each item as it was, so an inbox can tell what was new.
   */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/notifications',
    guard: { resource: 'root', rel: REL.notifications },
    response: notificationsCollectionSchema,
    query: querySchema,
    paging: {},
    objectName: 'notifications',
    handler: async ({ request, query, paging }) => {
      const { caller } = request;
      const filter = { profileId: caller.profileId, all: query.all === 'true', before: query.before, since: query.since };
      const { items, total } = caller.profile ? await notificationsOf(ctx.db, filter, paging) : { items: [], total: 0 };
      if (query.markAsResolved === 'true') {
        await markResolved(
          ctx.db,
          caller.profileId,
          items.map((n) => n.id),
        );
      }
      return pagedCollection('notifications', items.map((n) => notificationBody(ctx, caller, n)), paging, total, requestUrl(ctx, request));
    },
  });

  /**
   * Mark all read, then the unread that remain (newer than `lastReadAt`): an inbox passes the
   * newest notification it has shown, so one that arrives meanwhile stays unread.
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/notifications',
    guard: { resource: 'root', rel: REL.notifications },
    response: notificationsCollectionSchema,
    query: refreshSchema,
    paging: {},
    objectName: 'notifications',
    handler: async ({ request, query, paging }) => {
      const { caller } = request;
      if (!caller.profile) return pagedCollection('notifications', [], paging, 0, requestUrl(ctx, request));
      if (query.read !== 'false') await markResolvedBefore(ctx.db, caller.profileId, query.lastReadAt ?? new Date());
      const { items, total } = await notificationsOf(ctx.db, { profileId: caller.profileId, all: false, before: undefined, since: undefined }, paging);
      return pagedCollection('notifications', items.map((n) => notificationBody(ctx, caller, n)), paging, total, requestUrl(ctx, request));
    },
  });

  /** The caller's own notifications about this workspace (the reference's workspace notifications): the same query as above. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/notifications',
    guard: { resource: 'workspace', rel: REL.notifications },
    response: notificationsCollectionSchema,
    query: querySchema,
    paging: {},
    objectName: 'notifications',
    handler: async ({ request, access, query, paging }) => {
      const { caller } = request;
      const filter = { profileId: caller.profileId, all: query.all === 'true', before: query.before, since: query.since };
      const { items, total } = await notificationsOf(ctx.db, filter, paging, (q) => q.where('n.workspace_id', '=', access.workspace.id));
      if (query.markAsResolved === 'true') await markResolved(ctx.db, caller.profileId, items.map((n) => n.id));
      return pagedCollection('notifications', items.map((n) => notificationBody(ctx, caller, n)), paging, total, requestUrl(ctx, request));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/notifications/:id',
    guard: { resource: 'notification', rel: REL.self },
    response: notificationSchema,
    handler: ({ request, access }) => notificationBody(ctx, request.caller, access.notification),
  });

  /** Mark read (spec 002 §4: unread becomes read). */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/notifications/:id/resolved',
    guard: { resource: 'notification', rel: REL.resolveNotification },
    response: notificationSchema,
    handler: async ({ request, access }) => {
      await markResolved(ctx.db, request.caller.profileId, [access.notification.id]);
      const row = await findNotification(ctx.db, access.notification.id);
      if (!row) throw notFound(`Notification ${access.notification.id} not found`);
      return notificationBody(ctx, request.caller, row);
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/notifications/:id',
    guard: { resource: 'notification', rel: REL.deleteNotification },
    handler: async ({ request, reply, access }) => {
      await deleteNotification(ctx.db, request.caller.profileId, access.notification.id);
      return reply.status(204).send();
    },
  });

  /** Noise control (issue 12, Beyond): mentions only, the daily digest, per-object routes. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/notification-settings',
    guard: { resource: 'root', rel: REL.notificationSettings },
    response: notificationSettingsSchema,
    handler: async ({ request }) => notificationSettingsBody(ctx, request.caller, await noiseSettingsFor(ctx.db, request.caller.profileId)),
  });

  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/notification-settings',
    guard: { resource: 'root', rel: REL.updateNotificationSettings },
    response: notificationSettingsSchema,
    body: noiseSettingsInputSchema,
    objectName: 'notificationSettings',
    handler: async ({ request, body }) => {
      const settings: NoiseSettings = { mentionsOnly: body.mentionsOnly, digest: body.digest, routes: uniqueRoutes(body.routes) };
      await ctx.db.transaction().execute((trx) => saveNoiseSettings(trx, request.caller.profileId, settings));
      return notificationSettingsBody(ctx, request.caller, await noiseSettingsFor(ctx.db, request.caller.profileId));
    },
  });
}
