import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { deleteComment, likeComment, loadComments, loadMoreComments, postComment, updateComment } from '../../api/comments';
import type { HalLike } from '../../domain/hal';
import type { Comment, CommentsCollection } from '../../domain/resources';
import type { CommentInput, EditInput, LikeInput, PostInput } from './commentThread.machine';

/** `commentThreadMachine.provide({ actors: commentThreadActors(client) })`. */
export function commentThreadActors(client: ApiClient) {
  return {
    loadFirst: fromPromise<CommentsCollection, { readonly parent: HalLike }>(({ input, signal }) => loadComments(client, input.parent, { signal })),
    loadNext: fromPromise<CommentsCollection, { readonly page: CommentsCollection }>(({ input, signal }) => loadMoreComments(client, input.page, { signal })),
    post: fromPromise<Comment, PostInput>(({ input, signal }) => postComment(client, input.parent, { message: input.message, datasetId: input.datasetId, parentId: input.parentId }, { signal })),
    edit: fromPromise<Comment, EditInput>(({ input, signal }) => updateComment(client, input.comment, { message: input.message, datasetId: input.datasetId, parentId: input.comment.parentId ?? null }, { signal })),
    like: fromPromise<Comment, LikeInput>(({ input, signal }) => likeComment(client, input.comment, input.like, { signal })),
    remove: fromPromise<unknown, CommentInput>(({ input, signal }) => deleteComment(client, input.comment, { signal })),
  };
}
