import { memberHandle } from '../../src/domain/comments';
import type { commentSchema, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import { commentLinks, mayComment } from '../policy/links';
import type { CommentRow } from '../repositories/comments';
import { iso, type BodyContext } from './context';

export function commentBody(ctx: BodyContext, comment: CommentRow, role: MemberRole, profileId: string): Wire<typeof commentSchema> {
  return {
    id: comment.id,
    message: comment.message,
    datasetId: comment.dataset_id,
    parentId: comment.parent_id,
    from: { id: comment.author_id, name: comment.author_name, handle: comment.author_name === null ? null : memberHandle({ id: comment.author_id, name: comment.author_name, handle: comment.author_handle }) },
    created: iso(comment.created),
    lastModified: iso(comment.last_modified),
    likeCount: comment.likers.length,
    likedByProfiles: comment.likers.map((l) => ({ id: l.id, name: l.name, email: l.email })),
    commentCount: comment.reply_count,
    _links: commentLinks(ctx.h, comment, { role, profileId, mayComment: mayComment(role, comment.read_only) }),
  };
}
