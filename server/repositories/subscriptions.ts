import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { SubscriptionsTable } from '../db/schema';
import { newId } from './ids';

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type SubscriptionType = SubscriptionsTable['type'];

export async function subscriptionOf(db: Db, pipelineId: string, profileId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('pipeline_id', '=', pipelineId).where('profile_id', '=', profileId).executeTakeFirst();
}

/** The caller's subscriptions among these pipelines, by pipeline id (a list page renders its Watch buttons at once). */
export async function subscriptionsAmong(db: Db, pipelineIds: readonly string[], profileId: string): Promise<Map<string, SubscriptionRow>> {
  if (pipelineIds.length === 0) return new Map();
  const rows = await db.selectFrom('subscriptions').selectAll().where('pipeline_id', 'in', pipelineIds).where('profile_id', '=', profileId).execute();
  return new Map(rows.map((r) => [r.pipeline_id ?? '', r]));
}

/** A pipeline or a dataset: the column of `subscriptions` that names it, and its id. */
export interface WatchTarget {
  column: 'pipeline_id' | 'dataset_id';
  id: string;
}

/** Subscribes, or changes the type of an existing subscription (one per profile and target). */
export async function subscribe(db: Db, target: WatchTarget, profileId: string, type: SubscriptionType): Promise<SubscriptionRow> {
  return db
    .insertInto('subscriptions')
    .values({ id: newId(), pipeline_id: null, dataset_id: null, [target.column]: target.id, profile_id: profileId, type })
    .onConflict((oc) => oc.columns(['profile_id', target.column]).doUpdateSet({ type }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function unsubscribe(db: Db, target: WatchTarget, profileId: string): Promise<boolean> {
  const result = await db.deleteFrom('subscriptions').where(target.column, '=', target.id).where('profile_id', '=', profileId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The profiles to tell about an event of a pipeline: ALL subscribers always, ALERTS subscribers
 * only for alerts. Only current members of the pipeline's workspace: a subscription outlives
 * nothing it should not.
 */
export async function subscribersOf(db: Db, pipelineId: string, alert: boolean): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions as s')
    .innerJoin('pipelines as p', 'p.id', 's.pipeline_id')
    .innerJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'p.workspace_id').onRef('m.profile_id', '=', 's.profile_id'))
    .select('s.profile_id')
    .where('s.pipeline_id', '=', pipelineId)
    .$if(!alert, (qb) => qb.where('s.type', '=', 'ALL'))
    .orderBy('s.profile_id')
    .execute();
  return rows.map((r) => r.profile_id);
}

/**
 * The profiles to tell about an event of a dataset: ALL subscribers always, ALERTS subscribers only
 * for alerts; only current members of the dataset's workspace.
 */
export async function datasetSubscribersOf(db: Db, datasetId: string, alert: boolean): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions as s')
    .innerJoin('datasets as d', 'd.id', 's.dataset_id')
    .innerJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'd.workspace_id').onRef('m.profile_id', '=', 's.profile_id'))
    .select('s.profile_id')
    .where('s.dataset_id', '=', datasetId)
    .$if(!alert, (qb) => qb.where('s.type', '=', 'ALL'))
    .orderBy('s.profile_id')
    .execute();
  return rows.map((r) => r.profile_id);
}
