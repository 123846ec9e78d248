import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { COMMENT_PAGE_SIZE } from '../../src/domain/comments';
import { REL } from '../../src/domain/relations';
import { commentHistorySchema, commentSchema, commentsCollectionSchema, commentWriteSchema, type Wire } from '../../src/domain/resources';
import { notFound } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { commentsOf, deleteComment, findComment, historyOf, initialiseComment, type CommentRow } from '../repositories/comments';
import { callerName, isoRequired, requestUrl, type RouteContext } from './context';
import { commentBody } from '../representations/comment';
import { writeCommentAs } from '../services/comments';
import { likeComment, unlikeComment } from '../services/likes';
import { defineRoute } from './define';

// Comments of spec 002 §4-§7 and the Matatika reference: initialise (POST), create and edit (PUT),
// delete, like, list (six a page; `?parentId=` for a comment's replies) and the edit history.
// Every write that tells somebody is a service (../services/comments.ts, likes.ts), which writes
// the notification in the same transaction.

const listQuerySchema = z.looseObject({ parentId: z.uuid({ message: 'must be a comment id' }).optional() });

async function reread(ctx: RouteContext, id: string): Promise<CommentRow> {
  const comment = await findComment(ctx.db, id);
  if (!comment) throw notFound(`Comment ${id} not found`);
  return comment;
}

export function commentRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id/comments',
    guard: { resource: 'dataset', rel: REL.comments },
    response: commentsCollectionSchema,
    query: listQuerySchema,
    paging: { defaultSize: COMMENT_PAGE_SIZE },
    objectName: 'comments',
    handler: async ({ request, access, query, paging }) => {
      const parentId = query.parentId ?? null;
      if (parentId !== null) {
        const parent = await findComment(ctx.db, parentId);
        if (parent?.dataset_id !== access.dataset.id || parent.message === null) throw notFound(`Comment ${parentId} not found`);
      }
      const { items, total } = await commentsOf(ctx.db, access.dataset.id, parentId, paging);
      const profileId = request.caller.profileId;
      return pagedCollection('datasetComments', items.map((c) => commentBody(ctx, c, access.role, profileId)), paging, total, requestUrl(ctx, request));
    },
  });

  /** 'new comment' on a dataset: initialises a comment; PUT on its 'update comment' creates it. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/datasets/:id/comments',
    guard: { resource: 'dataset', rel: REL.newComment },
    response: commentSchema,
    handler: async ({ request, access }) => {
      const id = await initialiseComment(ctx.db, access.dataset.id, null, request.caller.profileId);
      return commentBody(ctx, await reread(ctx, id), access.role, request.caller.profileId);
    },
  });

  /** 'new comment' on a top-level comment: initialises a reply. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/comments/:id',
    guard: { resource: 'comment', rel: REL.newComment },
    response: commentSchema,
    handler: async ({ request, access }) => {
      const id = await initialiseComment(ctx.db, access.comment.dataset_id, access.comment.id, request.caller.profileId);
      return commentBody(ctx, await reread(ctx, id), access.role, request.caller.profileId);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/comments/:id',
    guard: { resource: 'comment', rel: REL.self },
    response: commentSchema,
    handler: ({ request, access }) => commentBody(ctx, access.comment, access.role, request.caller.profileId),
  });

  /** 'update comment': 201 when it creates the initialised comment, 200 for an edit. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/comments/:id',
    guard: { resource: 'comment', rel: REL.updateComment },
    response: commentSchema,
    body: commentWriteSchema,
    objectName: 'comment',
    handler: async ({ request, reply, access, body }) => {
      const comment = access.comment;
      const created = await writeCommentAs(ctx.db, comment, body, callerName(request.caller));
      return reply.status(created ? 201 : 200).send(commentBody(ctx, await reread(ctx, comment.id), access.role, request.caller.profileId));
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/comments/:id',
    guard: { resource: 'comment', rel: REL.deleteComment },
    handler: async ({ reply, access }) => {
      await deleteComment(ctx.db, access.comment.id);
      return reply.status(204).send();
    },
  });

  /** 'like comment': the author hears of a new like (DATASET_LIKE); liking twice changes nothing. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/comments/:id/like',
    guard: { resource: 'comment', rel: REL.likeComment },
    response: commentSchema,
    handler: async ({ request, access }) => {
      const comment = access.comment;
      const profileId = request.caller.profileId;
      await likeComment(ctx.db, comment, { profileId, name: callerName(request.caller) });
      return commentBody(ctx, await reread(ctx, comment.id), access.role, profileId);
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/comments/:id/like',
    guard: { resource: 'comment', rel: REL.likeComment },
    handler: async ({ request, reply, access }) => {
      await unlikeComment(ctx.db, access.comment, request.caller.profileId);
      return reply.status(204).send();
    },
  });

  /** 'history': the earlier texts of the comment, the latest edit first. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/comments/:id/history',
    guard: { resource: 'comment', rel: REL.history },
    response: commentHistorySchema,
    handler: async ({ access }): Promise<Wire<typeof commentHistorySchema>> => {
      const edits = await historyOf(ctx.db, access.comment.id);
      return {
        _embedded: { comments: edits.map((e) => ({ message: e.message, written: isoRequired(e.written), edited: isoRequired(e.edited) })) },
        _links: { self: { href: ctx.h.commentPart(access.comment.id, 'history') } },
      };
    },
  });
}

