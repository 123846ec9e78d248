import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { NotificationsTable } from '../db/schema';
import type { Paging } from '../http/hal';

export type NotificationRow = Selectable<NotificationsTable> & {
  dataset_alias: string | null;
  dataset_title: string | null;
  dataset_workspace_id: string | null;
  workspace_name: string | null;
  job_type: string | null;
  job_status: string | null;
  job_start_time: Date | null;
  job_end_time: Date | null;
  job_commit_id: string | null;
  /** the pipeline it is about: its own, else its job's */
  pipeline_ref_id: string | null;
  pipeline_name: string | null;
};

// What a notification is about, for the embedded dataset, workspace and job.
const SUBJECT_COLUMNS = [
  'd.alias as dataset_alias',
  'd.title as dataset_title',
  'd.workspace_id as dataset_workspace_id',
  'w.name as workspace_name',
  'j.type as job_type',
  'j.status as job_status',
  'j.start_time as job_start_time',
  'j.end_time as job_end_time',
  'j.commit_id as job_commit_id',
  'p.id as pipeline_ref_id',
  'p.name as pipeline_name',
] as const;

interface NotificationFilter {
  profileId: string;
  /** false: only unread ones */
  all: boolean;
  before: Date | undefined;
  since: Date | undefined;
}

function filtered(db: Db, filter: NotificationFilter) {
  let query = db.selectFrom('notifications as n').where('n.profile_id', '=', filter.profileId);
  if (!filter.all) query = query.where('n.resolved', '=', false);
  if (filter.before) query = query.where('n.created', '<', filter.before);
  if (filter.since) query = query.where('n.created', '>', filter.since);
  return query;
}

type Filtered = ReturnType<typeof filtered>;

/**
 * One page, newest first, with the dataset, workspace and job each notification is about.
 * `refine` narrows the selection further (the news: only those about a workspace's datasets).
 */
export async function notificationsOf(
  db: Db,
  filter: NotificationFilter,
  paging: Paging,
  refine: (query: Filtered) => Filtered = (query) => query,
): Promise<{ items: NotificationRow[]; total: number }> {
  const [items, count] = await Promise.all([
    refine(filtered(db, filter))
      .leftJoin('datasets as d', 'd.id', 'n.dataset_id')
      .leftJoin('workspaces as w', 'w.id', 'n.workspace_id')
      .leftJoin('jobs as j', 'j.id', 'n.job_id')
      .leftJoin('pipelines as p', (join) => join.on((eb) => eb('p.id', '=', eb.fn.coalesce('n.pipeline_id', 'j.pipeline_id'))))
      .selectAll('n')
      .select(SUBJECT_COLUMNS)
      .orderBy('n.created', 'desc')
      .orderBy('n.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    refine(filtered(db, filter)).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

export async function markResolved(db: Db, profileId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notifications')
    .set({ resolved: true, last_modified: new Date() })
    .where('profile_id', '=', profileId)
    .where('id', 'in', ids)
    .where('resolved', '=', false)
    .execute();
}

/** Marks read every unread notification of the person created at or before `before` ("mark all read"). */
export async function markResolvedBefore(db: Db, profileId: string, before: Date): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ resolved: true, last_modified: new Date() })
    .where('profile_id', '=', profileId)
    .where('resolved', '=', false)
    .where('created', '<=', before)
    .execute();
}

export async function findNotification(db: Db, id: string): Promise<NotificationRow | undefined> {
  return db
    .selectFrom('notifications as n')
    .leftJoin('datasets as d', 'd.id', 'n.dataset_id')
    .leftJoin('workspaces as w', 'w.id', 'n.workspace_id')
    .leftJoin('jobs as j', 'j.id', 'n.job_id')
    .leftJoin('pipelines as p', (join) => join.on((eb) => eb('p.id', '=', eb.fn.coalesce('n.pipeline_id', 'j.pipeline_id'))))
    .selectAll('n')
    .select(SUBJECT_COLUMNS)
    .where('n.id', '=', id)
    .executeTakeFirst();
}

export async function deleteNotification(db: Db, profileId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('notifications').where('id', '=', id).where('profile_id', '=', profileId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
