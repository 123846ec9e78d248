import { sql } from 'kysely';
import { APP_PROPERTY } from '../../src/domain/appProperties';
import type { Db } from '../db/database';
import type { Paging } from '../http/hal';
import { isUuid, newId } from './ids';

/** A profile who starred a comment. */
export interface Liker {
  id: string;
  name: string | null;
  email: string | null;
}

/** A comment as every answer needs it: its author, likers, reply count and its workspace's read-only switch. */
export interface CommentRow {
  id: string;
  dataset_id: string;
  parent_id: string | null;
  author_id: string;
  message: string | null;
  created: Date;
  last_modified: Date;
  author_name: string | null;
  author_handle: string | null;
  workspace_id: string;
  /** the workspace's MEMBER_COMMENTS_READ_ONLY text */
  read_only: string | null;
  likers: Liker[];
  reply_count: number;
}

/** Initialised comments left without a message this long are removed when their author starts another. */
const DRAFT_TTL = '1 day';

const base = (db: Db) =>
  db
    .selectFrom('comments as c')
    .innerJoin('datasets as d', 'd.id', 'c.dataset_id')
    .innerJoin('workspaces as w', 'w.id', 'd.workspace_id')
    .leftJoin('profiles as p', 'p.id', 'c.author_id')
    .leftJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'd.workspace_id').onRef('m.profile_id', '=', 'c.author_id'))
    .selectAll('c')
    .select(['p.name as author_name', 'm.handle as author_handle', 'd.workspace_id'])
    .select([
      sql<string | null>`w.app_properties->>${sql.lit(APP_PROPERTY.memberCommentsReadOnly)}`.as('read_only'),
      sql<Liker[]>`coalesce((SELECT json_agg(json_build_object('id', lp.id, 'name', lp.name, 'email', lp.email) ORDER BY l.created, lp.id)
        FROM comment_likes l JOIN profiles lp ON lp.id = l.profile_id WHERE l.comment_id = c.id), '[]'::json)`.as('likers'),
      sql<number>`(SELECT count(*)::int FROM comments r WHERE r.parent_id = c.id AND r.message IS NOT NULL)`.as('reply_count'),
    ]);

export async function findComment(db: Db, id: string): Promise<CommentRow | undefined> {
  if (!isUuid(id)) return undefined;
  return base(db).where('c.id', '=', id).executeTakeFirst();
}

/**
 * A page of a dataset's comments: top-level ones newest first, or the replies of `parentId`
 * oldest first (a conversation reads downwards). Initialised comments are never listed.
 */
export async function commentsOf(db: Db, datasetId: string, parentId: string | null, paging: Paging): Promise<{ items: CommentRow[]; total: number }> {
  const direction = parentId === null ? 'desc' : 'asc';
  let list = base(db).where('c.dataset_id', '=', datasetId).where('c.message', 'is not', null);
  let count = db.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('total')).where('dataset_id', '=', datasetId).where('message', 'is not', null);
  if (parentId === null) {
    list = list.where('c.parent_id', 'is', null);
    count = count.where('parent_id', 'is', null);
  } else {
    list = list.where('c.parent_id', '=', parentId);
    count = count.where('parent_id', '=', parentId);
  }
  const [items, total] = await Promise.all([
    list
      .orderBy('c.created', direction)
      .orderBy('c.id', direction)
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.total) };
}

/** Starts a comment (or a reply): a row without a message that only its author sees. */
export async function initialiseComment(db: Db, datasetId: string, parentId: string | null, authorId: string): Promise<string> {
  const id = newId();
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('comments')
      .where('author_id', '=', authorId)
      .where('message', 'is', null)
      .where('created', '<', sql<Date>`now() - ${DRAFT_TTL}::interval`)
      .execute();
    await trx.insertInto('comments').values({ id, dataset_id: datasetId, parent_id: parentId, author_id: authorId, message: null }).execute();
  });
  return id;
}

/**
 * Gives the comment its message. The first time creates it (created is then); later times keep
 * the earlier text in the history. Returns whether this PUT created it. Row-locked, so two
 * processes saving at once both land in order.
 */
export async function writeComment(db: Db, id: string, message: string): Promise<{ created: boolean; previous: string | null }> {
  const row = await db.selectFrom('comments').select(['message', 'last_modified']).where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
  const now = new Date();
  if (row.message === null) {
    await db.updateTable('comments').set({ message, created: now, last_modified: now }).where('id', '=', id).execute();
    return { created: true, previous: null };
  }
  if (row.message !== message) {
    await db.insertInto('comment_edits').values({ id: newId(), comment_id: id, message: row.message, written: row.last_modified, edited: now }).execute();
    await db.updateTable('comments').set({ message, last_modified: now }).where('id', '=', id).execute();
  }
  return { created: false, previous: row.message };
}

export async function deleteComment(db: Db, id: string): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', id).execute();
}

/** Likes once; true when this call added the like. */
export async function likeComment(db: Db, id: string, profileId: string): Promise<boolean> {
  const added = await db
    .insertInto('comment_likes')
    .values({ comment_id: id, profile_id: profileId })
    .onConflict((oc) => oc.columns(['comment_id', 'profile_id']).doNothing())
    .executeTakeFirst();
  return Number(added.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function unlikeComment(db: Db, id: string, profileId: string): Promise<void> {
  await db.deleteFrom('comment_likes').where('comment_id', '=', id).where('profile_id', '=', profileId).execute();
}

interface CommentEdit {
  message: string;
  written: Date;
  edited: Date;
}

/** The earlier texts of a comment, most recent edit first. */
export async function historyOf(db: Db, id: string): Promise<CommentEdit[]> {
  return db.selectFrom('comment_edits').select(['message', 'written', 'edited']).where('comment_id', '=', id).orderBy('edited', 'desc').orderBy('id').execute();
}

interface WorkspacePerson {
  id: string;
  name: string;
  handle: string | null;
}

/** Everyone in a workspace, to resolve @handles (only members can be mentioned). */
export async function peopleOf(db: Db, workspaceId: string): Promise<WorkspacePerson[]> {
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('profiles as p', 'p.id', 'm.profile_id')
    .select(['p.id', 'p.name', 'm.handle'])
    .where('m.workspace_id', '=', workspaceId)
    .execute();
}
