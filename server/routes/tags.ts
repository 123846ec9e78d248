import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import { tagSchema, tagsCollectionSchema } from '../../src/domain/resources';
import { notFound } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { findTag, workspaceTags } from '../repositories/datasets';
import { tagBody } from '../representations/tag';
import { requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';

// Tags (the Matatika reference): a workspace's tags, one tag, and the tags of the caller's news.
// A tag is a word on datasets, so its id is derived from its workspace and name (tagId).

export function tagRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/tags',
    guard: { resource: 'workspace', rel: REL.tags },
    response: tagsCollectionSchema,
    paging: { defaultSize: 99 },
    handler: async ({ request, access, paging }) => {
      const workspaceId = access.workspace.id;
      const { items, total } = await workspaceTags(ctx.db, workspaceId, paging);
      return pagedCollection('tags', items.map((t) => tagBody(ctx, workspaceId, t)), paging, total, requestUrl(ctx, request));
    },
  });

  /** One tag, read as the workspace's tags are: 404 for an id no dataset's tag has. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/tags/:tagId',
    guard: { resource: 'workspace', rel: REL.tags },
    response: tagSchema,
    handler: async ({ access, param }) => {
      const id = param('tagId');
      const tag = await findTag(ctx.db, access.workspace.id, id);
      if (!tag) throw notFound(`Tag ${id} not found`);
      return tagBody(ctx, access.workspace.id, tag);
    },
  });

  /** 'news tags': the tags of the datasets the caller has news about in this workspace, the most used first. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/news/tags',
    guard: { resource: 'workspace', rel: REL.newsTags },
    response: tagsCollectionSchema,
    paging: { defaultSize: 99 },
    objectName: 'tags',
    handler: async ({ request, access, paging }) => {
      const workspaceId = access.workspace.id;
      const { items, total } = await workspaceTags(ctx.db, workspaceId, paging, request.caller.profileId);
      return pagedCollection('tags', items.map((t) => tagBody(ctx, workspaceId, t)), paging, total, requestUrl(ctx, request));
    },
  });
}
