import type { Db } from '../db/database';
import { notify } from './notify';

// DATASET_LIKE (spec 002 §2 Notifications): a star is activity on a dataset, so its ALL watchers
// (current members of its workspace, not the person who starred it) hear of it — and see it in
// their News. Written in the star's own transaction, so it exists exactly when the star does.

/** The profiles watching a dataset for all activity, members of its workspace only. */
async function allActivityWatchers(db: Db, datasetId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions as s')
    .innerJoin('datasets as d', 'd.id', 's.dataset_id')
    .innerJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'd.workspace_id').onRef('m.profile_id', '=', 's.profile_id'))
    .select('s.profile_id')
    .where('s.dataset_id', '=', datasetId)
    .where('s.type', '=', 'ALL')
    .orderBy('s.profile_id')
    .execute();
  return rows.map((r) => r.profile_id);
}

export async function notifyDatasetStarred(
  db: Db,
  dataset: { id: string; workspace_id: string; title: string },
  actor: { profileId: string; name: string | null },
): Promise<number> {
  const profileIds = (await allActivityWatchers(db, dataset.id)).filter((id) => id !== actor.profileId);
  const who = actor.name ?? 'Someone';
  return notify(db, { profileIds, workspaceId: dataset.workspace_id, type: 'DATASET_LIKE', message: `${who} starred ${dataset.title}`, actorName: actor.name, datasetId: dataset.id });
}
