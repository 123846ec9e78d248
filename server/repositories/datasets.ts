import { createHash } from 'node:crypto';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { APP_PROPERTY } from '../../src/domain/appProperties';
import type { Db } from '../db/database';
import type { DatasetsTable } from '../db/schema';
import { totalOf, type Paging } from '../http/hal';
import { findCaller, readWithCaller, type CallerKey, type WithCaller } from './callers';
import { isUuid } from './ids';

/** A dataset's own columns as its reads give them: not the search engine's generated ones, which no body shows. */
type DatasetColumns = Omit<Selectable<DatasetsTable>, 'search_title' | 'search_alias'>;
// As a record over the row type: a new column fails to compile here until it is read too.
const DATASET_COLUMNS: Record<keyof DatasetColumns, true> = {
  id: true,
  workspace_id: true,
  channel_id: true,
  alias: true,
  title: true,
  description: true,
  description_content_type: true,
  questions: true,
  visualisation: true,
  metadata: true,
  raw_data: true,
  query: true,
  view_count: true,
  like_count: true,
  continuous_poll: true,
  published: true,
  created: true,
  last_modified: true,
  comment_count: true,
  tags: true,
  body_json: true,
  holds_rows: true,
};
const datasetColumns = (Object.keys(DATASET_COLUMNS) as (keyof DatasetColumns)[]).map((c) => `d.${c}` as const);

/** What depends on who reads the dataset. */
interface ViewerColumns {
  /** the viewer starred it */
  liked: boolean;
  /** the viewer's subscription to it, if any */
  subscription_type: 'ALERTS' | 'ALL' | 'NONE' | null;
  /** its workspace's MEMBER_COMMENTS_READ_ONLY text */
  comments_read_only: string | null;
}

/**
 * What a dataset's answer is made of (representations/dataset.ts): the body stored on its row
 * (migration 026), its tags, what its links depend on, and the viewer's columns. Lists read only these.
 */
const BODY_COLUMNS = ['d.id', 'd.workspace_id', 'd.query', 'd.holds_rows', 'd.tags', 'd.body_json'] as const;
export type DatasetBodyRow = Pick<DatasetColumns, 'id' | 'workspace_id' | 'query' | 'holds_rows' | 'tags' | 'body_json'> & ViewerColumns;

/** The whole row with the viewer's columns: what a single dataset's guard, use cases and answer read. */
export type DatasetRow = DatasetColumns & ViewerColumns;

/**
 * Per dataset, in the same query as the row (a page stays one query): the viewer's star and
 * subscription, and the workspace's read-only flag. `viewerId` undefined reads neither; it may be
 * the caller's column of a read made with the caller (readWithCaller). With `workspaceId`, the
 * read's rows all lie in that workspace: its flag is read once for the statement, not per row.
 */
function viewerColumns(viewerId: string | RawBuilder<string> | undefined, workspaceId?: string) {
  return [
    sql<boolean>`EXISTS (SELECT 1 FROM dataset_likes l WHERE l.dataset_id = d.id AND l.profile_id = ${viewerId ?? ''})`.as('liked'),
    sql<'ALERTS' | 'ALL' | 'NONE' | null>`(SELECT s.type FROM subscriptions s WHERE s.dataset_id = d.id AND s.profile_id = ${viewerId ?? ''})`.as('subscription_type'),
    sql<string | null>`(SELECT w.app_properties->>${sql.lit(APP_PROPERTY.memberCommentsReadOnly)} FROM workspaces w WHERE w.id = ${workspaceId === undefined ? sql.ref('d.workspace_id') : workspaceId})`.as('comments_read_only'),
  ];
}

const wholeRows = (db: Db, viewerId?: string) => db.selectFrom('datasets as d').select(datasetColumns).select(viewerColumns(viewerId));
const bodyRows = (db: Db, viewerId?: string) => db.selectFrom('datasets as d').select(BODY_COLUMNS).select(viewerColumns(viewerId));

const feedPage = (db: Db, p: { workspaceId: string; limit: number; offset: number }, viewerId: RawBuilder<string>) =>
  db
    .with('page', (qb) =>
      qb
        .selectFrom('datasets')
        .select(['id', 'published', (eb) => eb.fn.countAll<number>().over().as('total')])
        .where('workspace_id', '=', p.workspaceId)
        .orderBy('published', 'desc')
        .orderBy('id')
        .limit(p.limit)
        .offset(p.offset),
    )
    .selectFrom('page')
    .innerJoin('datasets as d', 'd.id', 'page.id')
    .select(BODY_COLUMNS)
    .select(['page.published', 'page.total'])
    .select(viewerColumns(viewerId, p.workspaceId))
    .orderBy('page.published', 'desc')
    .orderBy('page.id');
const feedWithCaller = readWithCaller(feedPage, sql`data.published DESC, data.id`);

type FeedPageRow = DatasetBodyRow & { total: number | string };

/**
 * A page of the workspace's datasets, most recently published first, with each one's tags (sorted)
 * and the workspace's total, read in the caller's own statement (readWithCaller: the route's guard
 * then decides whether the caller sees it). The page is cut on the (workspace_id, published, id)
 * index before anything is joined, so only the page's rows are read in full. A path that names no
 * workspace reads the caller alone.
 */
export function callersFeed(db: Db, paging: Paging): (key: CallerKey, workspaceId: string | undefined) => Promise<WithCaller<FeedPageRow>> {
  return async (key, workspaceId) =>
    workspaceId === undefined
      ? { caller: await findCaller(db, key, undefined), rows: [] }
      : feedWithCaller(db, key, workspaceId, { workspaceId, limit: paging.size, offset: paging.page * paging.size });
}

/** The page read by callersFeed, with the total (the total rides on each row). */
export async function feedOf(db: Db, workspaceId: string, rows: readonly FeedPageRow[], paging: Paging): Promise<{ items: readonly DatasetBodyRow[]; total: number }> {
  // the rows themselves (with their total): a copy of each without it would only make garbage
  const items = rows;
  const first = rows[0];
  // A page past the end has no row to carry the total: only then is it counted on its own.
  const total = first
    ? Number(first.total)
    : await totalOf(paging, 0, async () =>
        Number(
          (await db.selectFrom('datasets').select((eb) => eb.fn.countAll<number>().as('total')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow())
            .total,
        ),
      );
  return { items, total };
}

export function findDataset(db: Db, id: string, viewerId?: string): Promise<DatasetRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return wholeRows(db, viewerId).where('d.id', '=', id).executeTakeFirst();
}

/** By id first, then by alias (an alias may itself look like an id, or contain slashes). */
export async function findDatasetInWorkspace(db: Db, workspaceId: string, idOrAlias: string, viewerId?: string): Promise<DatasetRow | undefined> {
  if (isUuid(idOrAlias)) {
    const byId = await wholeRows(db, viewerId).where('d.workspace_id', '=', workspaceId).where('d.id', '=', idOrAlias).executeTakeFirst();
    if (byId) return byId;
  }
  return wholeRows(db, viewerId).where('d.workspace_id', '=', workspaceId).where('d.alias', '=', idOrAlias).executeTakeFirst();
}

/** Rows in the order of `ids` (a ranking), missing ones skipped. */
export async function datasetsByIds(db: Db, ids: readonly string[], viewerId?: string): Promise<DatasetBodyRow[]> {
  if (ids.length === 0) return [];
  const rows = await bodyRows(db, viewerId).where('d.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// Every dataset in a feed or search page names its tags by id: a hash each, on every request
// (bench:profile showed it at 3 % of the feed). The id is a pure function of its key, the same in
// every process, so each process remembers the ones it has computed, up to a bound.
const tagIds = new Map<string, string>();
const MAX_TAG_IDS = 10_000;

/**
 * Tags have no table of their own (a dataset's tag is a word on it), so a tag's id is derived
 * from its workspace and name: stable across requests and servers.
 */
export function tagId(workspaceId: string, name: string): string {
  const key = `${workspaceId}:${name.toLowerCase()}`;
  let id = tagIds.get(key);
  if (id === undefined) {
    const hex = createHash('sha1').update(key).digest('hex');
    id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    if (tagIds.size >= MAX_TAG_IDS) tagIds.clear();
    tagIds.set(key, id);
  }
  return id;
}

/**
 * The workspace's tags, most used first; usage counts datasets. With `newsOf`, only the tags of
 * the datasets that profile has news about (a notification of theirs names the dataset).
 */
export async function workspaceTags(db: Db, workspaceId: string, paging: Paging, newsOf?: string): Promise<{ items: { name: string; usage: number }[]; total: number }> {
  const base = db
    .selectFrom('dataset_tags as t')
    .innerJoin('datasets as d', 'd.id', 't.dataset_id')
    .where('d.workspace_id', '=', workspaceId)
    .$if(newsOf !== undefined, (q) =>
      q.where(sql<boolean>`EXISTS (SELECT 1 FROM notifications n WHERE n.profile_id = ${newsOf} AND n.workspace_id = ${workspaceId} AND n.dataset_id = d.id)`),
    );
  const [items, count] = await Promise.all([
    base
      .select(['t.tag as name', (eb) => eb.fn.countAll<number>().as('usage')])
      .groupBy('t.tag')
      .orderBy('usage', 'desc')
      .orderBy('t.tag')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    base.select((eb) => eb.fn.count<number>('t.tag').distinct().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: items.map((i) => ({ name: i.name, usage: Number(i.usage) })), total: Number(count.total) };
}

/** One tag of the workspace by its derived id, with its usage; undefined when no dataset carries it. */
export async function findTag(db: Db, workspaceId: string, id: string): Promise<{ name: string; usage: number } | undefined> {
  const rows = await db
    .selectFrom('dataset_tags as t')
    .innerJoin('datasets as d', 'd.id', 't.dataset_id')
    .where('d.workspace_id', '=', workspaceId)
    .select(['t.tag as name', (eb) => eb.fn.countAll<number>().as('usage')])
    .groupBy('t.tag')
    .execute();
  const found = rows.find((row) => tagId(workspaceId, row.name) === id);
  return found ? { name: found.name, usage: Number(found.usage) } : undefined;
}

/**
 * A page of the workspace's datasets for the Lab, titles in order; `search` matches the title or
 * alias anywhere (case-insensitive, % and _ taken literally).
 */
export async function datasetsOf(db: Db, workspaceId: string, search: string, paging: Paging, viewerId?: string): Promise<{ items: DatasetBodyRow[]; total: number }> {
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let base = db.selectFrom('datasets as d').where('d.workspace_id', '=', workspaceId);
  if (search !== '') base = base.where((eb) => eb.or([sql<boolean>`lower(d.title) LIKE ${pattern}`, sql<boolean>`lower(coalesce(d.alias, '')) LIKE ${pattern}`]));
  const [ids, count] = await Promise.all([
    base.select('d.id').orderBy(sql`lower(d.title)`).orderBy('d.id').limit(paging.size).offset(paging.page * paging.size).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: await datasetsByIds(db, ids.map((r) => r.id), viewerId), total: Number(count.total) };
}

/**
 * Datasets sharing a tag or the source channel with this one, the most shared first (a shared
 * channel counts as one tag), then the newest; never the dataset itself.
 */
export async function relatedTo(db: Db, dataset: { id: string; workspace_id: string; channel_id: string | null }, paging: Paging, viewerId?: string): Promise<{ items: DatasetBodyRow[]; total: number }> {
  const { rows } = await sql<{ id: string; total: number }>`
    WITH mine AS (SELECT tag FROM dataset_tags WHERE dataset_id = ${dataset.id}),
    scored AS (
      SELECT d.id, d.published,
        (SELECT count(*) FROM dataset_tags t WHERE t.dataset_id = d.id AND t.tag IN (SELECT tag FROM mine))
          + CASE WHEN d.channel_id IS NOT NULL AND d.channel_id = ${dataset.channel_id} THEN 1 ELSE 0 END AS shared
      FROM datasets d WHERE d.workspace_id = ${dataset.workspace_id} AND d.id <> ${dataset.id}
    )
    SELECT id, count(*) OVER () AS total FROM scored WHERE shared > 0
    ORDER BY shared DESC, published DESC, id LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`.execute(db);
  const total = rows[0] ? Number(rows[0].total) : 0;
  return { items: await datasetsByIds(db, rows.map((r) => r.id), viewerId), total };
}
