import type { Db } from '../db/database';
import { notifyDatasetStarred } from '../notifications/datasetLikes';
import { notify } from '../notifications/notify';
import { likeComment as addCommentLike, unlikeComment as removeCommentLike, type CommentRow } from '../repositories/comments';
import { setLiked } from '../repositories/datasetWrites';
import { excerpt } from './comments';

// Stars on datasets and likes on comments (spec 002 §2, §4): each in one transaction with the
// notification it makes, so the notification exists exactly when the new like does. Liking twice
// changes nothing and tells nobody again; unliking tells nobody.

interface Liker {
  profileId: string;
  name: string | null;
}

/** 'like dataset': PUT stars, DELETE unstars; a new star tells the dataset's ALL watchers (DATASET_LIKE). */
export async function setDatasetLiked(db: Db, dataset: { id: string; workspace_id: string; title: string }, actor: Liker, liked: boolean): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (await setLiked(trx, dataset.id, actor.profileId, liked)) await notifyDatasetStarred(trx, dataset, actor);
  });
}

/** 'like comment': the author hears of a new like (DATASET_LIKE), unless it is their own. */
export async function likeComment(db: Db, comment: CommentRow, actor: { profileId: string; name: string }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const added = await addCommentLike(trx, comment.id, actor.profileId);
    if (added && comment.author_id !== actor.profileId) {
      await notify(trx, {
        profileIds: [comment.author_id],
        workspaceId: comment.workspace_id,
        type: 'DATASET_LIKE',
        message: `${actor.name} liked your comment: ${excerpt(comment.message ?? '')}`,
        actorName: actor.name,
        datasetId: comment.dataset_id,
      });
    }
  });
}

export async function unlikeComment(db: Db, comment: CommentRow, profileId: string): Promise<void> {
  await removeCommentLike(db, comment.id, profileId);
}
