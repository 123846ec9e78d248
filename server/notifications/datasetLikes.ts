import type { Db } from '../db/database';
import { datasetSubscribersOf } from '../repositories/subscriptions';
import { notify } from './notify';

// DATASET_LIKE (spec 002 §2 Notifications): a star is activity on a dataset, so its ALL watchers
// (current members of its workspace, not the person who starred it) hear of it — and see it in
// their News. Written in the star's own transaction, so it exists exactly when the star does.

export async function notifyDatasetStarred(
  db: Db,
  dataset: { id: string; workspace_id: string; title: string },
  actor: { profileId: string; name: string | null },
): Promise<number> {
  const profileIds = (await datasetSubscribersOf(db, dataset.id, false)).filter((id) => id !== actor.profileId);
  const who = actor.name ?? 'Someone';
  return notify(db, { profileIds, workspaceId: dataset.workspace_id, type: 'DATASET_LIKE', message: `${who} starred ${dataset.title}`, actorName: actor.name, datasetId: dataset.id });
}
