import type { Db } from '../db/database';
import { newId } from '../repositories/ids';

/** Types of spec 002's notifications inbox. */
export type NotificationType =
  | 'DATASET_LIKE'
  | 'DATASET_ALERT'
  | 'DATASET_COMMENT'
  | 'DATASET_MESSAGE'
  | 'WORKSPACE_INVITATION'
  | 'DATASET_ACTIVITY'
  | 'PIPELINE_ACTIVITY'
  | 'JOB_STARTED'
  | 'JOB_ENDED';

export interface NotificationEvent {
  profileIds: readonly string[];
  workspaceId: string | null;
  type: NotificationType;
  message: string;
  actorName: string | null;
  datasetId?: string | null;
  jobId?: string | null;
  /** when it happened; now by default (seeding history sets it) */
  at?: Date;
}

/**
 * Delivers one unread notification per recipient. Pass the transaction of the event itself, so a
 * notification exists exactly when the thing it announces does.
 */
export async function notify(db: Db, event: NotificationEvent): Promise<number> {
  const recipients = [...new Set(event.profileIds)];
  if (recipients.length === 0) return 0;
  await db
    .insertInto('notifications')
    .values(
      recipients.map((profileId) => ({
        id: newId(),
        profile_id: profileId,
        workspace_id: event.workspaceId,
        type: event.type,
        message: event.message,
        resolved: false,
        actor_name: event.actorName,
        dataset_id: event.datasetId ?? null,
        job_id: event.jobId ?? null,
        ...(event.at ? { created: event.at, last_modified: event.at } : {}),
      })),
    )
    .execute();
  return recipients.length;
}
