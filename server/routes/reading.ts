import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { channelsCollectionSchema, datasetsCollectionSchema, notificationsCollectionSchema } from '../../src/domain/resources';
import { pagedCollection, pagedCollectionText } from '../http/hal';
import { datasetsByIds } from '../repositories/datasets';
import { likedDatasetIds, newsChannels, newsOf } from '../repositories/reading';
import { readSearchText } from '../repositories/searchText';
import { channelBody } from '../representations/channel';
import { requestUrl, type RouteContext } from './context';
import { datasetBody, datasetJson } from '../representations/dataset';
import { defineRoute } from './define';
import { notificationBody } from '../representations/notification';

// What a member reads for themselves in a workspace (spec 002 §2, §7): Starred and News.

const newsQuerySchema = z.looseObject({ q: z.string().max(1_000, 'must be at most 1000 characters').optional() });

export function readingRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** 'liked': the datasets the caller starred in this workspace, most recently starred first. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/liked',
    guard: { resource: 'workspace', rel: REL.liked },
    response: datasetsCollectionSchema,
    paging: { defaultSize: 10 },
    objectName: 'datasets',
    handler: async ({ request, access, paging }) => {
      const profileId = request.caller.profileId;
      const { ids, total } = await likedDatasetIds(ctx.db, access.workspace.id, profileId, paging);
      const rows = await datasetsByIds(ctx.db, ids, profileId);
      return pagedCollectionText('datasets', rows.map((d) => datasetJson(ctx, d, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  /**
   * 'news': the caller's notifications about datasets of this workspace, newest first, each with
   * the whole dataset embedded (the news shows it as a large card). `q=in:{channel}` keeps those of
   * one channel the caller can see; any other text in q is not a news filter and is ignored.
   */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/news',
    guard: { resource: 'workspace', rel: REL.news },
    response: notificationsCollectionSchema,
    query: newsQuerySchema,
    paging: { defaultSize: 10 },
    objectName: 'news',
    handler: async ({ request, access, query, paging }) => {
      const { caller } = request;
      const channel = readSearchText(query.q).channels[0];
      const { items, total } = caller.profile
        ? await newsOf(ctx.db, { profileId: caller.profileId, workspaceId: access.workspace.id, channel }, paging)
        : { items: [], total: 0 };
      const datasets = (await datasetsByIds(ctx.db, [...new Set(items.flatMap((n) => n.dataset_id ?? []))], caller.profileId)).map((d) => datasetBody(ctx, d, access.role));
      const byId = new Map(datasets.map((d) => [d.id, d]));
      const news = items.flatMap((n) => {
        const dataset = n.dataset_id === null ? undefined : byId.get(n.dataset_id);
        // spec 002 §7: an item without its dataset is no news (deleted meanwhile)
        if (dataset === undefined) return [];
        const body = notificationBody(ctx, caller, n);
        return [{ ...body, _embedded: { ...body._embedded, dataset } }];
      });
      return pagedCollection('notifications', news, paging, total, requestUrl(ctx, request));
    },
  });

  /** 'news channels': the channels (the caller can see) holding a dataset of the caller's news, by name. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/news/channels',
    guard: { resource: 'workspace', rel: REL.newsChannels },
    response: channelsCollectionSchema,
    paging: { defaultSize: 99 },
    objectName: 'channels',
    handler: async ({ request, access, paging }) => {
      const viewer = { role: access.role, profileId: request.caller.profileId };
      const { items, total } = await newsChannels(ctx.db, viewer.profileId, access.workspace.id, paging);
      return pagedCollection('channels', items.map((c) => channelBody(ctx, c, viewer)), paging, total, requestUrl(ctx, request));
    },
  });
}
