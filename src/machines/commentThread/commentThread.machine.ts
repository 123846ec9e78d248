import { assign, emit, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasText } from '../../domain/comments';
import { hasLink, type HalLike } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Comment, CommentsCollection } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';
import { loadMoreRule, NEXT, type PageInput, type PagedContext } from '../pagedList/pagedList.machine';

// A thread of comments (spec 002 §4-§7): a dataset's comments, or one comment's replies. It reads
// the first page by the parent's 'comments' link and the next by the page's 'next' (Load More or
// scrolling to the bottom), posts in two steps by 'new comment', and edits, deletes (after
// 'Delete comment?') and likes each comment only by the links the comment carries. Load More is
// the paged lists' one rule (pagedList's loadMoreRule): a page repeating a comment lists it once,
// and a failed further page keeps the thread and asks for the same page again.

export { NEXT };

export type CommentThreadInput = {
  /** the dataset, or the top-level comment whose replies these are */
  readonly parent: HalLike;
  readonly datasetId: string;
  /** set for replies */
  readonly parentId: string | null;
  /** the signed-in person, to know which likes are theirs */
  readonly viewerId: string;
};

/** `items` are the comments shown, `lastPage` the last page read (its `next` link is Load More). */
export type CommentThreadContext = CommentThreadInput &
  PagedContext<CommentsCollection, Comment> & {
    /** the comment being edited, deleted or liked */
    readonly target: Comment | null;
  };

export type CommentThreadEvent =
  | { readonly type: 'user.loadMore' }
  | { readonly type: 'user.retry' }
  | { readonly type: 'user.post'; readonly message: string }
  | { readonly type: 'user.like'; readonly comment: Comment }
  | { readonly type: 'user.edit'; readonly comment: Comment; readonly message: string }
  | { readonly type: 'user.delete'; readonly comment: Comment }
  | { readonly type: 'user.confirm' }
  | { readonly type: 'user.cancel' };

export type PostInput = { readonly parent: HalLike; readonly datasetId: string; readonly parentId: string | null; readonly message: string };
export type EditInput = { readonly comment: Comment; readonly datasetId: string; readonly message: string };
export type LikeInput = { readonly comment: Comment; readonly like: boolean };
export type CommentInput = { readonly comment: Comment };
export type CommentThreadEmitted = { readonly type: 'comment.posted' } | { readonly type: 'comment.saved'; readonly id: string };

/** Whether the viewer is among the comment's likers: a like then takes it back. */
export function likedBy(comment: Comment, viewerId: string): boolean {
  return (comment.likedByProfiles ?? []).some((liker) => liker.id === viewerId);
}

const pageItems = (page: CommentsCollection): readonly Comment[] => page._embedded?.datasetComments ?? [];
const loadMore = loadMoreRule<CommentThreadContext, CommentThreadEvent, CommentsCollection, Comment>(pageItems);
/** A new action clears the last failure, whichever step it came from. */
const clearErrors = { error: null, moreError: null } as const;

export const commentThreadMachine = setup({
  types: {
    context: {} as CommentThreadContext,
    events: {} as CommentThreadEvent,
    input: {} as CommentThreadInput,
    emitted: {} as CommentThreadEmitted,
  },
  actors: {
    loadFirst: notProvidedActor<CommentsCollection, { readonly parent: HalLike }>('loadFirst'),
    loadNext: notProvidedActor<CommentsCollection, PageInput<CommentsCollection>>('loadNext'),
    post: notProvidedActor<Comment, PostInput>('post'),
    edit: notProvidedActor<Comment, EditInput>('edit'),
    like: notProvidedActor<Comment, LikeInput>('like'),
    remove: notProvidedActor<unknown, CommentInput>('remove'),
  },
  guards: {
    canPost: ({ context, event }) => event.type === 'user.post' && hasText(event.message) && hasLink(context.parent, REL.newComment),
    canLike: ({ event }) => event.type === 'user.like' && hasLink(event.comment, REL.likeComment),
    canEdit: ({ event }) => event.type === 'user.edit' && hasText(event.message) && hasLink(event.comment, REL.updateComment),
    canDelete: ({ event }) => event.type === 'user.delete' && hasLink(event.comment, REL.deleteComment),
  },
}).createMachine({
  id: 'commentThread',
  context: ({ input }) => ({ ...input, items: [], lastPage: null, target: null, error: null, moreError: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadFirst',
        src: 'loadFirst',
        input: ({ context }) => ({ parent: context.parent }),
        onDone: { target: 'ready', actions: assign({ lastPage: ({ event }) => event.output, items: ({ event }) => [...pageItems(event.output)] }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': { target: 'loading', actions: assign({ error: null }) } } },
    ready: {
      on: {
        'user.loadMore': [{ ...loadMore.transition, actions: assign(clearErrors) }],
        'user.post': { guard: 'canPost', target: 'posting', actions: assign(clearErrors) },
        'user.like': { guard: 'canLike', target: 'liking', actions: assign({ target: ({ event }) => event.comment, ...clearErrors }) },
        'user.edit': { guard: 'canEdit', target: 'saving', actions: assign({ target: ({ event }) => event.comment, ...clearErrors }) },
        'user.delete': { guard: 'canDelete', target: 'confirming', actions: assign({ target: ({ event }) => event.comment, ...clearErrors }) },
      },
    },
    loadingMore: loadMore.state,
    posting: {
      invoke: {
        id: 'post',
        src: 'post',
        input: ({ context, event }) => ({ parent: context.parent, datasetId: context.datasetId, parentId: context.parentId, message: event.type === 'user.post' ? event.message : '' }),
        onDone: {
          target: 'ready',
          actions: [
            // Newest first on a dataset; replies read downwards, the new one last.
            assign({ items: ({ context, event }) => (context.parentId === null ? [event.output, ...context.items] : [...context.items, event.output]) }),
            emit({ type: 'comment.posted' } as const),
          ],
        },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    liking: {
      invoke: {
        id: 'like',
        src: 'like',
        input: ({ context }) => ({ comment: context.target!, like: !likedBy(context.target!, context.viewerId) }),
        onDone: { target: 'ready', actions: assign({ items: ({ context, event }) => context.items.map((c) => (c.id === event.output.id ? event.output : c)), target: null }) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
    saving: {
      invoke: {
        id: 'edit',
        src: 'edit',
        input: ({ context, event }) => ({ comment: context.target!, datasetId: context.datasetId, message: event.type === 'user.edit' ? event.message : '' }),
        onDone: {
          target: 'ready',
          actions: [
            emit(({ event }): CommentThreadEmitted => ({ type: 'comment.saved', id: event.output.id })),
            assign({ items: ({ context, event }) => context.items.map((c) => (c.id === event.output.id ? event.output : c)), target: null }),
          ],
        },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
    confirming: {
      on: {
        'user.confirm': 'deleting',
        'user.cancel': { target: 'ready', actions: assign({ target: null }) },
      },
    },
    deleting: {
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ comment: context.target! }),
        onDone: { target: 'ready', actions: assign({ items: ({ context }) => context.items.filter((c) => c.id !== context.target?.id), target: null }) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error), target: null }) },
      },
    },
  },
});

export type CommentThreadSnapshot = SnapshotFrom<typeof commentThreadMachine>;

export const selectComments = (s: CommentThreadSnapshot): readonly Comment[] => s.context.items;
export const selectHasMore = (s: CommentThreadSnapshot): boolean => hasLink(s.context.lastPage, NEXT);
export const selectLoading = (s: CommentThreadSnapshot): boolean => s.matches('loading');
export const selectLoadingMore = (s: CommentThreadSnapshot): boolean => s.matches('loadingMore');
export const selectPosting = (s: CommentThreadSnapshot): boolean => s.matches('posting');
export const selectConfirmOpen = (s: CommentThreadSnapshot): boolean => s.matches('confirming') || s.matches('deleting');
/** The comment whose edit, like or delete is under way (its spinner). */
export const selectBusyId = (s: CommentThreadSnapshot): string | null => (s.matches('ready') || s.matches('confirming') ? null : (s.context.target?.id ?? null));
/** The last failure: of the first page, an action, or Load More (the thread stays). */
export const selectError = (s: CommentThreadSnapshot): string | null => s.context.error ?? s.context.moreError;
