import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { COMMENT_PAGE_SIZE, mentionedMembers } from '../../src/domain/comments';
import { REL } from '../../src/domain/relations';
import { commentHistorySchema, commentSchema, commentsCollectionSchema, commentWriteSchema, type Wire } from '../../src/domain/resources';
import type { Db } from '../db/database';
import { notFound } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { notify } from '../notifications/notify';
import {
  commentsOf,
  deleteComment,
  findComment,
  historyOf,
  initialiseComment,
  likeComment,
  peopleOf,
  unlikeComment,
  writeComment,
  type CommentRow,
} from '../repositories/comments';
import { datasetSubscribersOf } from '../repositories/subscriptions';
import { callerName, isoRequired, requestUrl, type RouteContext } from './context';
import { commentBody } from '../representations/comment';
import { defineRoute } from './define';
import { rejectFieldErrors } from '../http/validation';

// Comments of spec 002 §4-§7 and the Matatika reference: initialise (POST), create and edit (PUT),
// delete, like, list (six a page; `?parentId=` for a comment's replies) and the edit history.
// Every write that tells somebody writes the notification in the same transaction.

const listQuerySchema = z.looseObject({ parentId: z.uuid({ message: 'must be a comment id' }).optional() });

/** What a notification says of a comment: its first line, kept short. */
function excerpt(message: string): string {
  const line = message.trim().split('\n')[0] ?? '';
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}

async function reread(ctx: RouteContext, id: string): Promise<CommentRow> {
  const comment = await findComment(ctx.db, id);
  if (!comment) throw notFound(`Comment ${id} not found`);
  return comment;
}

/**
 * The notifications of a comment. Created: the dataset's ALL watchers and, for a reply, the
 * parent's author (DATASET_COMMENT). Created or edited: every member it mentions who was not
 * mentioned before (DATASET_MESSAGE). Nobody is told of their own comment; handles resolve only
 * to members of the comment's workspace.
 */
async function announceComment(trx: Db, comment: CommentRow, message: string, actor: string, change: { created: boolean; mentionedBefore: ReadonlySet<string> }): Promise<void> {
  const notOwn = (ids: readonly (string | undefined)[]) => ids.filter((id): id is string => id !== undefined && id !== comment.author_id);
  const base = { workspaceId: comment.workspace_id, actorName: actor, datasetId: comment.dataset_id };
  if (change.created) {
    const watchers = await datasetSubscribersOf(trx, comment.dataset_id, false);
    const parentAuthor = comment.parent_id === null ? undefined : (await findComment(trx, comment.parent_id))?.author_id;
    await notify(trx, { ...base, profileIds: notOwn([...watchers, parentAuthor]), type: 'DATASET_COMMENT', message: `${actor} commented: ${excerpt(message)}` });
  }
  const mentioned = mentionedMembers(message, await peopleOf(trx, comment.workspace_id)).filter((person) => !change.mentionedBefore.has(person.id));
  const mentionedIds = notOwn(mentioned.map((p) => p.id));
  // A mention addresses each person directly: noise control never drops or delays it.
  await notify(trx, { ...base, profileIds: mentionedIds, directProfileIds: mentionedIds, type: 'DATASET_MESSAGE', message: `${actor} mentioned you: ${excerpt(message)}` });
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
      rejectFieldErrors('comment', {
        datasetId: body.datasetId === comment.dataset_id ? undefined : 'must be the dataset of the comment',
        parentId: (body.parentId ?? null) === comment.parent_id ? undefined : 'must be the parent of the comment',
      });
      const actor = callerName(request.caller);
      const created = await ctx.db.transaction().execute(async (trx) => {
        const written = await writeComment(trx, comment.id, body.message);
        const previous = written.previous === null ? [] : mentionedMembers(written.previous, await peopleOf(trx, comment.workspace_id));
        await announceComment(trx, comment, body.message, actor, { created: written.created, mentionedBefore: new Set(previous.map((p) => p.id)) });
        return written.created;
      });
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
      await ctx.db.transaction().execute(async (trx) => {
        const added = await likeComment(trx, comment.id, profileId);
        if (added && comment.author_id !== profileId) {
          const actor = callerName(request.caller);
          await notify(trx, {
            profileIds: [comment.author_id],
            workspaceId: comment.workspace_id,
            type: 'DATASET_LIKE',
            message: `${actor} liked your comment: ${excerpt(comment.message ?? '')}`,
            actorName: actor,
            datasetId: comment.dataset_id,
          });
        }
      });
      return commentBody(ctx, await reread(ctx, comment.id), access.role, profileId);
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/comments/:id/like',
    guard: { resource: 'comment', rel: REL.likeComment },
    handler: async ({ request, reply, access }) => {
      await unlikeComment(ctx.db, access.comment.id, request.caller.profileId);
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

