import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import type { Paging } from '../http/hal';
import type { ChannelRow } from './channels';
import { notificationsOf, type NotificationRow } from './notifications';

// What a member reads for themselves in a workspace (spec 002 §2): the datasets they starred, and
// their news — their notifications about datasets of that workspace, optionally only those of one
// channel. A private (PROFILE) list of anyone else never takes part: not as a filter, not as a chip.

/** The caller's starred datasets of the workspace, most recently starred first. */
export async function likedDatasetIds(db: Db, workspaceId: string, profileId: string, paging: Paging): Promise<{ ids: string[]; total: number }> {
  const base = db
    .selectFrom('dataset_likes as l')
    .innerJoin('datasets as d', 'd.id', 'l.dataset_id')
    .where('l.profile_id', '=', profileId)
    .where('d.workspace_id', '=', workspaceId);
  const [rows, count] = await Promise.all([
    base
      .select('d.id')
      .orderBy('l.created', 'desc')
      .orderBy('d.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { ids: rows.map((r) => r.id), total: Number(count.total) };
}

/** Channels the viewer may see: every source channel and public list, and their own private lists. */
const visibleTo = (viewerId: string) => sql<boolean>`(c.scope <> 'PROFILE' OR c.creator_id = ${viewerId})`;

/** The channel holds the dataset: a source channel the datasets naming it, a list what was added. */
const holds = (dataset: RawBuilder<unknown>) => sql<boolean>`(
  (c.type <> 'LIST' AND EXISTS (SELECT 1 FROM datasets hd WHERE hd.id = ${dataset} AND hd.channel_id = c.id))
  OR EXISTS (SELECT 1 FROM channel_datasets cd WHERE cd.channel_id = c.id AND cd.dataset_id = ${dataset}))`;

/** A channel named as search writes it: lowercased, spaces as hyphens (spec 000 §5). */
const named = (name: string) => sql<boolean>`(lower(c.name) = ${name} OR replace(lower(c.name), ' ', '-') = ${name})`;

interface NewsFilter {
  profileId: string;
  workspaceId: string;
  /** `in:{channel}`: only news about datasets of a visible channel of this name */
  channel: string | undefined;
}

/** The caller's news: their notifications about datasets of the workspace, newest first. */
export async function newsOf(db: Db, filter: NewsFilter, paging: Paging): Promise<{ items: NotificationRow[]; total: number }> {
  const { channel } = filter;
  return notificationsOf(
    db,
    { profileId: filter.profileId, all: true, before: undefined, since: undefined },
    paging,
    (query) => {
      let scoped = query
        .where('n.dataset_id', 'is not', null)
        .where('n.workspace_id', '=', filter.workspaceId)
        // the dataset still exists and is of this workspace (a notification can outlive neither)
        .where(sql<boolean>`EXISTS (SELECT 1 FROM datasets nd WHERE nd.id = n.dataset_id AND nd.workspace_id = ${filter.workspaceId})`);
      if (channel !== undefined) {
        scoped = scoped.where(
          sql<boolean>`EXISTS (SELECT 1 FROM channels c WHERE c.workspace_id = ${filter.workspaceId} AND ${visibleTo(filter.profileId)} AND ${named(channel)} AND ${holds(sql.ref('n.dataset_id'))})`,
        );
      }
      return scoped;
    },
  );
}

/** The channels of the caller's news: the visible channels holding a dataset they have news about, by name. */
export async function newsChannels(db: Db, profileId: string, workspaceId: string, paging: Paging): Promise<{ items: ChannelRow[]; total: number }> {
  const base = db
    .selectFrom('channels as c')
    .where('c.workspace_id', '=', workspaceId)
    .where(visibleTo(profileId))
    .where(
      sql<boolean>`EXISTS (SELECT 1 FROM notifications n WHERE n.profile_id = ${profileId} AND n.workspace_id = ${workspaceId} AND n.dataset_id IS NOT NULL AND ${holds(sql.ref('n.dataset_id'))})`,
    );
  const [items, count] = await Promise.all([
    base.selectAll('c').orderBy('c.name').orderBy('c.id').limit(paging.size).offset(paging.page * paging.size).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

