import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { ChevronDownRegular, ChevronUpRegular, DeleteRegular, EditRegular, HeartFilled, HeartRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { DELETE_COMMENT_TEXT, DELETE_COMMENT_TITLE } from '../../../../domain/comments';
import { hasLink, type HalLike } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Comment, Member } from '../../../../domain/resources';
import {
  likedBy,
  selectBusyId,
  selectComments,
  selectConfirmOpen,
  selectError,
  selectHasMore,
  selectLoading,
  selectLoadingMore,
  selectPosting,
  type CommentThreadSnapshot,
} from '../../../../machines/commentThread/commentThread.machine';
import { useMachines } from '../../../MachinesProvider';
import { datasetPageMachines } from '../../../machineAreas/datasetPage';
import { DateText } from '../../../components/DateText';
import { Composer, useComposerKey } from './Composer';
import { MessageText } from './MessageText';

const useStyles = makeStyles({
  thread: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, margin: 0, padding: 0, listStyle: 'none' },
  item: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  head: { display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: tokens.spacingHorizontalS },
  author: { fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  replies: { borderLeft: `${tokens.strokeWidthThick} solid ${tokens.colorNeutralStroke2}`, paddingLeft: tokens.spacingHorizontalM },
  more: { alignSelf: 'center' },
});

export interface ThreadProps {
  /** the dataset, or the top-level comment whose replies these are */
  parent: HalLike;
  datasetId: string;
  parentId: string | null;
  viewerId: string;
  workspaceId: string;
  members: readonly Member[];
  /** the disabled box's text when the parent offers no 'new comment' (top level only) */
  disabledText?: string | undefined;
}

/** A dataset's comments or a comment's replies, run by one commentThread machine. */
export function Thread({ parent, datasetId, parentId, viewerId, workspaceId, members, disabledText }: ThreadProps) {
  const styles = useStyles();
  const machines = useMachines(datasetPageMachines);
  const thread = useActorRef(machines.commentThread, { input: { parent, datasetId, parentId, viewerId } });
  const comments = useSelector(thread, selectComments);
  const loading = useSelector(thread, selectLoading);
  const failed = useSelector(thread, (s: CommentThreadSnapshot) => s.matches('failed'));
  const hasMore = useSelector(thread, selectHasMore);
  const loadingMore = useSelector(thread, selectLoadingMore);
  const posting = useSelector(thread, selectPosting);
  const busyId = useSelector(thread, selectBusyId);
  const error = useSelector(thread, selectError);
  const confirmOpen = useSelector(thread, selectConfirmOpen);
  const deleting = useSelector(thread, (s: CommentThreadSnapshot) => s.matches('deleting'));
  const [composerKey, clearComposer] = useComposerKey();
  const [editing, setEditing] = useState<string | null>(null);
  const canWrite = hasLink(parent, REL.newComment);
  const isReplies = parentId !== null;

  useEffect(() => {
    const posted = thread.on('comment.posted', clearComposer);
    const saved = thread.on('comment.saved', () => setEditing(null));
    return () => {
      posted.unsubscribe();
      saved.unsubscribe();
    };
  }, [thread, clearComposer]);

  // Scrolling to the bottom of a dataset's thread loads the next page (Load More does the same).
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = sentinel.current;
    if (isReplies || element === null || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) thread.send({ type: 'user.loadMore' });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [thread, isReplies, hasMore]);

  const composer = (canWrite || (!isReplies && disabledText !== undefined)) && (
    <Composer
      key={composerKey}
      label={isReplies ? 'Reply' : 'Comment'}
      action={isReplies ? 'Reply' : 'Comment'}
      placeholder={isReplies ? 'Write a reply' : 'Add a comment'}
      members={members}
      busy={posting}
      disabledText={canWrite ? undefined : disabledText}
      onSubmit={(message) => thread.send({ type: 'user.post', message })}
    />
  );

  return (
    <div className={styles.thread}>
      {!isReplies && composer}
      {error !== null && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {loading && <Spinner size="tiny" label={isReplies ? 'Loading replies' : 'Loading comments'} />}
      {failed && (
        <Button appearance="secondary" onClick={() => thread.send({ type: 'user.retry' })}>
          Try again
        </Button>
      )}
      {!loading && !failed && comments.length === 0 && !isReplies && <Body1 className={styles.muted}>No comments yet.</Body1>}
      <ul className={styles.list} aria-label={isReplies ? 'Replies' : 'Comments'}>
        {comments.map((comment) => (
          <li key={comment.id} className={styles.item} aria-label={`Comment by ${comment.from?.name ?? 'someone'}`}>
            <CommentItem
              comment={comment}
              viewerId={viewerId}
              workspaceId={workspaceId}
              members={members}
              busy={busyId === comment.id}
              editing={editing === comment.id}
              onEdit={() => setEditing(comment.id)}
              onCancelEdit={() => setEditing(null)}
              onSave={(message) => thread.send({ type: 'user.edit', comment, message })}
              onLike={() => thread.send({ type: 'user.like', comment })}
              onDelete={() => thread.send({ type: 'user.delete', comment })}
            />
          </li>
        ))}
      </ul>
      {hasMore && (
        <Button className={styles.more} appearance="secondary" disabled={loadingMore} icon={loadingMore ? <Spinner size="tiny" /> : null} onClick={() => thread.send({ type: 'user.loadMore' })}>
          Load More
        </Button>
      )}
      <div ref={sentinel} aria-hidden />
      {isReplies && composer}
      <Dialog open={confirmOpen} onOpenChange={(_, data) => !data.open && !deleting && thread.send({ type: 'user.cancel' })}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{DELETE_COMMENT_TITLE}</DialogTitle>
            <DialogContent>{DELETE_COMMENT_TEXT}</DialogContent>
            <DialogActions>
              <Button disabled={deleting} onClick={() => thread.send({ type: 'user.cancel' })}>
                Cancel
              </Button>
              <Button appearance="primary" disabled={deleting} icon={deleting ? <Spinner size="tiny" /> : null} onClick={() => thread.send({ type: 'user.confirm' })}>
                Delete
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </div>
  );
}

interface CommentItemProps {
  comment: Comment;
  viewerId: string;
  workspaceId: string;
  members: readonly Member[];
  busy: boolean;
  editing: boolean;
  onEdit: () => void;
  onCancelEdit: () => void;
  onSave: (message: string) => void;
  onLike: () => void;
  onDelete: () => void;
}

/** One comment: display, editing, or busy (spinner); replies collapsed until asked for. */
function CommentItem({ comment, viewerId, workspaceId, members, busy, editing, onEdit, onCancelEdit, onSave, onLike, onDelete }: CommentItemProps) {
  const styles = useStyles();
  const [expanded, setExpanded] = useState(false);
  const liked = likedBy(comment, viewerId);
  const likes = comment.likeCount ?? comment.likedByProfiles?.length ?? 0;
  const replies = comment.commentCount ?? 0;
  const topLevel = hasLink(comment, REL.comments);
  return (
    <>
      <div className={styles.head}>
        <Body1 className={styles.author}>{comment.from?.name ?? 'Someone'}</Body1>
        <Caption1 className={styles.muted}>
          <DateText iso={comment.created} withTime />
        </Caption1>
        {busy && <Spinner size="extra-tiny" aria-label="Saving" />}
      </div>
      {editing ? (
        <Composer label="Edit comment" action="Save" members={members} busy={busy} initial={comment.message ?? ''} onSubmit={onSave} onCancel={onCancelEdit} />
      ) : (
        <MessageText message={comment.message ?? ''} workspaceId={workspaceId} members={members} />
      )}
      <div className={styles.actions}>
        {hasLink(comment, REL.likeComment) && (
          <Button appearance="subtle" size="small" disabled={busy} aria-pressed={liked} aria-label={liked ? 'Unlike comment' : 'Like comment'} icon={liked ? <HeartFilled /> : <HeartRegular />} onClick={onLike}>
            {String(likes)}
          </Button>
        )}
        {hasLink(comment, REL.updateComment) && !editing && (
          <Button appearance="subtle" size="small" disabled={busy} icon={<EditRegular />} onClick={onEdit}>
            Edit
          </Button>
        )}
        {hasLink(comment, REL.deleteComment) && (
          <Button appearance="subtle" size="small" disabled={busy} icon={<DeleteRegular />} onClick={onDelete}>
            Delete
          </Button>
        )}
        {topLevel && (replies > 0 || hasLink(comment, REL.newComment)) && (
          <Button appearance="subtle" size="small" aria-expanded={expanded} icon={expanded ? <ChevronUpRegular /> : <ChevronDownRegular />} onClick={() => setExpanded((open) => !open)}>
            {replies > 0 ? `${replies} ${replies === 1 ? 'reply' : 'replies'}` : 'Reply'}
          </Button>
        )}
      </div>
      {topLevel && expanded && (
        <div className={styles.replies}>
          <Thread parent={comment} datasetId={comment.datasetId} parentId={comment.id} viewerId={viewerId} workspaceId={workspaceId} members={members} />
        </div>
      )}
    </>
  );
}
