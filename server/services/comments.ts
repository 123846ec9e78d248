import { mentionedMembers, withMemberNames } from '../../src/domain/comments';
import type { CommentWrite } from '../../src/domain/resources';
import type { Db } from '../db/database';
import { rejectFieldErrors } from '../http/validation';
import { notify } from '../notifications/notify';
import { findComment, peopleOf, writeComment, type CommentRow } from '../repositories/comments';
import { datasetSubscribersOf } from '../repositories/subscriptions';

// Writing a comment (spec 002 §4-§7): the text and whom it tells, in one transaction. Its like
// is in likes.ts.

/** What a notification says of a comment: its first line, kept short. */
export function excerpt(message: string): string {
  const line = message.trim().split('\n')[0] ?? '';
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
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
  const people = await peopleOf(trx, comment.workspace_id);
  // the notification says whom the comment names, as the thread shows it, not the raw @handle
  const said = excerpt(withMemberNames(message, people));
  if (change.created) {
    const watchers = await datasetSubscribersOf(trx, comment.dataset_id, false);
    const parentAuthor = comment.parent_id === null ? undefined : (await findComment(trx, comment.parent_id))?.author_id;
    await notify(trx, { ...base, profileIds: notOwn([...watchers, parentAuthor]), type: 'DATASET_COMMENT', message: `${actor} commented: ${said}` });
  }
  const mentioned = mentionedMembers(message, people).filter((person) => !change.mentionedBefore.has(person.id));
  const mentionedIds = notOwn(mentioned.map((p) => p.id));
  // A mention addresses each person directly: noise control never drops or delays it.
  await notify(trx, { ...base, profileIds: mentionedIds, directProfileIds: mentionedIds, type: 'DATASET_MESSAGE', message: `${actor} mentioned you: ${said}` });
}

/**
 * 'update comment': the first write creates the initialised comment, a later one edits it (the
 * earlier text goes to its history). The body must name the comment's own dataset and parent.
 * Returns whether it was created.
 */
export async function writeCommentAs(db: Db, comment: CommentRow, body: CommentWrite, actor: string): Promise<boolean> {
  rejectFieldErrors('comment', {
    datasetId: body.datasetId === comment.dataset_id ? undefined : 'must be the dataset of the comment',
    parentId: (body.parentId ?? null) === comment.parent_id ? undefined : 'must be the parent of the comment',
  });
  return db.transaction().execute(async (trx) => {
    const written = await writeComment(trx, comment.id, body.message);
    const previous = written.previous === null ? [] : mentionedMembers(written.previous, await peopleOf(trx, comment.workspace_id));
    await announceComment(trx, comment, body.message, actor, { created: written.created, mentionedBefore: new Set(previous.map((p) => p.id)) });
    return written.created;
  });
}
