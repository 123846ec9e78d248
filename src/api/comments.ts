import type { HalLike } from '../domain/hal';
import { REL } from '../domain/relations';
import { commentSchema, commentsCollectionSchema, commentWriteSchema, type Comment, type CommentsCollection } from '../domain/resources';
import { required, type ApiClient, type RequestOptions } from './client';

// Comments (spec 002 §7): every call follows a link of the dataset or comment it acts on.

/** GET 'comments' of a dataset (top-level, six a page) or of a comment (its replies). */
export function loadComments(client: ApiClient, parent: HalLike, options: RequestOptions = {}): Promise<CommentsCollection> {
  return client.follow(parent, REL.comments, { ...options, schema: commentsCollectionSchema });
}

/** GET the page's 'next' link (it keeps the size and parentId of the first request). */
export function loadMoreComments(client: ApiClient, page: CommentsCollection, options: RequestOptions = {}): Promise<CommentsCollection> {
  return client.follow(page, 'next', { ...options, schema: commentsCollectionSchema });
}

type CommentText = { readonly message: string; readonly datasetId: string; readonly parentId: string | null };

const writeBody = (text: CommentText) => commentWriteSchema.parse({ message: text.message, datasetId: text.datasetId, ...(text.parentId === null ? {} : { parentId: text.parentId }) });

/** Two steps: POST 'new comment' initialises, PUT its 'update comment' with {message, datasetId[, parentId]} creates (one attempt each). */
export async function postComment(client: ApiClient, parent: HalLike, text: CommentText, options: RequestOptions = {}): Promise<Comment> {
  const draft = required(await client.follow(parent, REL.newComment, { ...options, method: 'POST', schema: commentSchema, retry: false }), 'initialised comment');
  return required(await client.follow(draft, REL.updateComment, { ...options, method: 'PUT', body: writeBody(text), schema: commentSchema, retry: false }), 'comment');
}

/** PUT 'update comment' with the new text. */
export async function updateComment(client: ApiClient, comment: HalLike, text: CommentText, options: RequestOptions = {}): Promise<Comment> {
  return required(await client.follow(comment, REL.updateComment, { ...options, method: 'PUT', body: writeBody(text), schema: commentSchema, retry: false }), 'comment');
}

/** PUT 'like comment' answers the comment; DELETE answers nothing, so the comment is read again. */
export async function likeComment(client: ApiClient, comment: HalLike, like: boolean, options: RequestOptions = {}): Promise<Comment> {
  if (like) return required(await client.follow(comment, REL.likeComment, { ...options, method: 'PUT', schema: commentSchema }), 'comment');
  await client.follow(comment, REL.likeComment, { ...options, method: 'DELETE' });
  return client.follow(comment, REL.self, { ...options, schema: commentSchema });
}

/** DELETE 'delete comment' (204). */
export function deleteComment(client: ApiClient, comment: HalLike, options: RequestOptions = {}): Promise<void> {
  return client.follow(comment, REL.deleteComment, { ...options, method: 'DELETE' });
}
