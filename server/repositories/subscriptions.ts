import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { SubscriptionsTable } from '../db/schema';
import type { Paging } from '../http/hal';
import { newId } from './ids';

export type SubscriptionRow = Selectable<SubscriptionsTable>;
type SubscriptionType = SubscriptionsTable['type'];

/** The caller's subscriptions among these pipelines, by pipeline id (a list page renders its Watch buttons at once). */
export async function subscriptionsAmong(db: Db, pipelineIds: readonly string[], profileId: string): Promise<Map<string, SubscriptionRow>> {
  if (pipelineIds.length === 0) return new Map();
  const rows = await db.selectFrom('subscriptions').selectAll().where('pipeline_id', 'in', pipelineIds).where('profile_id', '=', profileId).execute();
  return new Map(rows.map((r) => [r.pipeline_id ?? '', r]));
}

/** A pipeline, a dataset, a channel or a workspace: the column of `subscriptions` that names it, and its id. */
export interface WatchTarget {
  column: 'pipeline_id' | 'dataset_id' | 'channel_id' | 'workspace_id';
  id: string;
}

/** Subscribes, or changes the type of an existing subscription (one per profile and target). */
export async function subscribe(db: Db, target: WatchTarget, profileId: string, type: SubscriptionType): Promise<SubscriptionRow> {
  return db
    .insertInto('subscriptions')
    .values({ id: newId(), pipeline_id: null, dataset_id: null, channel_id: null, workspace_id: null, [target.column]: target.id, profile_id: profileId, type })
    .onConflict((oc) => oc.columns(['profile_id', target.column]).doUpdateSet({ type, last_modified: new Date() }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Whether the profile watches the target (a channel's links offer watch or unwatch by it). */
export async function isSubscribed(db: Db, target: WatchTarget, profileId: string): Promise<boolean> {
  const row = await db.selectFrom('subscriptions').select('id').where(target.column, '=', target.id).where('profile_id', '=', profileId).executeTakeFirst();
  return row !== undefined;
}

export type SubjectType = 'WORKSPACE' | 'CHANNEL' | 'DATASET' | 'PIPELINE';

/** A subscription with what it is to: the subject's kind, id, name and workspace. */
export type SubscriptionView = SubscriptionRow & {
  subject_type: SubjectType;
  subject_id: string;
  subject_name: string | null;
  subject_workspace_id: string;
  /** the owner is still a member of the subject's workspace (else the subject's name is not shown) */
  member: boolean;
  member_name: string | null;
  member_handle: string | null;
};

const SUBJECT_TYPE = sql<SubjectType>`CASE WHEN s.workspace_id IS NOT NULL THEN 'WORKSPACE' WHEN s.channel_id IS NOT NULL THEN 'CHANNEL' WHEN s.dataset_id IS NOT NULL THEN 'DATASET' ELSE 'PIPELINE' END`;
const SUBJECT_ID = sql<string>`coalesce(s.workspace_id, s.channel_id, s.dataset_id, s.pipeline_id)::text`;
const SUBJECT_NAME = sql<string | null>`coalesce(sw.name, sc.name, sd.title, sd.alias, sp.name)`;
const SUBJECT_WORKSPACE = sql<string>`coalesce(s.workspace_id, sc.workspace_id, sd.workspace_id, sp.workspace_id)::text`;

function withSubject(db: Db) {
  return db
    .selectFrom('subscriptions as s')
    .leftJoin('workspaces as sw', 'sw.id', 's.workspace_id')
    .leftJoin('channels as sc', 'sc.id', 's.channel_id')
    .leftJoin('datasets as sd', 'sd.id', 's.dataset_id')
    .leftJoin('pipelines as sp', 'sp.id', 's.pipeline_id')
    .leftJoin('workspace_members as sm', (join) => join.onRef('sm.profile_id', '=', 's.profile_id').on((eb) => eb('sm.workspace_id', '=', eb.fn.coalesce('s.workspace_id', 'sc.workspace_id', 'sd.workspace_id', 'sp.workspace_id'))))
    .leftJoin('profiles as pr', 'pr.id', 's.profile_id')
    .selectAll('s')
    .select([
      SUBJECT_TYPE.as('subject_type'),
      SUBJECT_ID.as('subject_id'),
      SUBJECT_NAME.as('subject_name'),
      SUBJECT_WORKSPACE.as('subject_workspace_id'),
      sql<boolean>`sm.profile_id IS NOT NULL`.as('member'),
      'pr.name as member_name',
      'sm.handle as member_handle',
    ]);
}

export async function findSubscription(db: Db, id: string): Promise<SubscriptionView | undefined> {
  return withSubject(db).where('s.id', '=', id).executeTakeFirst();
}

/** The profile's subscriptions in the workspaces they are a member of, newest first. */
export async function subscriptionsOfProfile(db: Db, profileId: string, paging: Paging): Promise<{ items: SubscriptionView[]; total: number }> {
  const [items, count] = await Promise.all([
    withSubject(db)
      .where('s.profile_id', '=', profileId)
      .where('sm.profile_id', 'is not', null)
      .orderBy('s.created', 'desc')
      .orderBy('s.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    withSubject(db)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('s.profile_id', '=', profileId)
      .where('sm.profile_id', 'is not', null)
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

/** Every current member's subscriptions to the workspace and to what lies in it, by member then newest. */
export async function memberSubscriptionsOf(db: Db, workspaceId: string, paging: Paging): Promise<{ items: SubscriptionView[]; total: number }> {
  const inWorkspace = sql<boolean>`coalesce(s.workspace_id, sc.workspace_id, sd.workspace_id, sp.workspace_id) = ${workspaceId}`;
  const [items, count] = await Promise.all([
    withSubject(db)
      .where(inWorkspace)
      .where('sm.profile_id', 'is not', null)
      .orderBy('pr.name')
      .orderBy('s.created', 'desc')
      .orderBy('s.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    withSubject(db).clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).where(inWorkspace).where('sm.profile_id', 'is not', null).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

export async function setSubscriptionType(db: Db, id: string, type: SubscriptionsTable['type']): Promise<void> {
  await db.updateTable('subscriptions').set({ type, last_modified: new Date() }).where('id', '=', id).execute();
}

export async function deleteSubscription(db: Db, id: string): Promise<void> {
  await db.deleteFrom('subscriptions').where('id', '=', id).execute();
}

export async function unsubscribe(db: Db, target: WatchTarget, profileId: string): Promise<boolean> {
  const result = await db.deleteFrom('subscriptions').where(target.column, '=', target.id).where('profile_id', '=', profileId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The types that hear of an event: every event reaches ALL, an alert reaches ALERTS too; NONE hears nothing. */
const hearing = (alert: boolean) => (alert ? sql`('ALL', 'ALERTS')` : sql`('ALL')`);

/**
 * The profiles to tell about an event of a pipeline: each current member of its workspace by the
 * most specific subscription they hold — to the pipeline, else (admins only: the Lab is theirs) to
 * the whole workspace. ALL hears everything, ALERTS only alerts, NONE nothing.
 */
export async function subscribersOf(db: Db, pipelineId: string, alert: boolean): Promise<string[]> {
  const { rows } = await sql<{ profile_id: string }>`
    SELECT x.profile_id FROM (
      SELECT m.profile_id, coalesce(
        (SELECT s.type FROM subscriptions s WHERE s.pipeline_id = p.id AND s.profile_id = m.profile_id),
        CASE WHEN m.role IN ('owner', 'editor') THEN (SELECT s.type FROM subscriptions s WHERE s.workspace_id = p.workspace_id AND s.profile_id = m.profile_id) END
      ) AS type
      FROM pipelines p JOIN workspace_members m ON m.workspace_id = p.workspace_id
      WHERE p.id = ${pipelineId}
    ) x
    WHERE x.type IN ${hearing(alert)}
    ORDER BY x.profile_id`.execute(db);
  return rows.map((r) => r.profile_id);
}

/**
 * The profiles to tell about an event of a dataset: each current member of its workspace by the
 * most specific subscription they hold — to the dataset, else to a channel they can see that holds
 * it (the loudest of those), else to the whole workspace.
 */
export async function datasetSubscribersOf(db: Db, datasetId: string, alert: boolean): Promise<string[]> {
  const { rows } = await sql<{ profile_id: string }>`
    SELECT x.profile_id FROM (
      SELECT m.profile_id, coalesce(
        (SELECT s.type FROM subscriptions s WHERE s.dataset_id = d.id AND s.profile_id = m.profile_id),
        (SELECT CASE WHEN bool_or(s.type = 'ALL') THEN 'ALL' WHEN bool_or(s.type = 'ALERTS') THEN 'ALERTS' WHEN count(*) > 0 THEN 'NONE' END
           FROM subscriptions s JOIN channels c ON c.id = s.channel_id
           WHERE s.profile_id = m.profile_id AND c.workspace_id = d.workspace_id
             AND (c.scope <> 'PROFILE' OR c.creator_id = m.profile_id)
             AND ((c.type <> 'LIST' AND d.channel_id = c.id)
               OR EXISTS (SELECT 1 FROM channel_datasets cd WHERE cd.channel_id = c.id AND cd.dataset_id = d.id))),
        (SELECT s.type FROM subscriptions s WHERE s.workspace_id = d.workspace_id AND s.profile_id = m.profile_id)
      ) AS type
      FROM datasets d JOIN workspace_members m ON m.workspace_id = d.workspace_id
      WHERE d.id = ${datasetId}
    ) x
    WHERE x.type IN ${hearing(alert)}
    ORDER BY x.profile_id`.execute(db);
  return rows.map((r) => r.profile_id);
}
