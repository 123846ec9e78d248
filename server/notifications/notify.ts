import { deliveryFor, type Delivery } from '../../src/domain/noiseControl';
import type { Db } from '../db/database';
import { newId } from '../repositories/ids';
import { noiseSettingsOf } from '../repositories/notificationSettings';

/** Types of spec 002's notifications inbox. */
type NotificationType =
  | 'DATASET_LIKE'
  | 'DATASET_ALERT'
  | 'DATASET_COMMENT'
  | 'DATASET_MESSAGE'
  | 'WORKSPACE_INVITATION'
  | 'DATASET_ACTIVITY'
  | 'PIPELINE_ACTIVITY'
  | 'JOB_STARTED'
  | 'JOB_ENDED';

interface NotificationEvent {
  profileIds: readonly string[];
  workspaceId: string | null;
  type: NotificationType;
  message: string;
  actorName: string | null;
  datasetId?: string | null;
  jobId?: string | null;
  /** the pipeline it is about: a job's pipeline, or the pipeline of pipeline activity */
  pipelineId?: string | null;
  /** a failure that needs a person (a dataset alert, a job ended ERROR or STOPPED): kept by 'Errors only' routes */
  isError?: boolean;
  /**
   * the recipients addressed in person (mentioned in a comment, invited): they always get it at
   * once, whatever their noise settings
   */
  directProfileIds?: readonly string[];
  /** when it happened; now by default (seeding history sets it) */
  at?: Date;
  /** the notification's own id, for an event told to one person (a dataset message shares its id) */
  id?: string;
}

/**
 * Delivers an event to each recipient as their noise settings say (src/domain/noiseControl.ts):
 * an unread inbox notification, an item of their next daily digest, or nothing. This is the one
 * place every notification passes through. Pass the transaction of the event itself, so a
 * notification exists exactly when the thing it announces does. Answers how many reached an inbox.
 */
export async function notify(db: Db, event: NotificationEvent): Promise<number> {
  const recipients = [...new Set(event.profileIds)];
  if (recipients.length === 0) return 0;
  const direct = new Set(event.directProfileIds ?? []);
  const settings = await noiseSettingsOf(db, recipients);
  const byDelivery: Record<Delivery, string[]> = { INBOX: [], DIGEST: [], DROP: [] };
  for (const profileId of recipients) {
    const mine = settings.get(profileId);
    const delivery = mine ? deliveryFor(mine, { datasetId: event.datasetId ?? null, pipelineId: event.pipelineId ?? null, isError: event.isError ?? false, direct: direct.has(profileId) }) : 'INBOX';
    byDelivery[delivery].push(profileId);
  }
  const at = event.at ? { created: event.at } : {};
  if (byDelivery.INBOX.length > 0) {
    await db
      .insertInto('notifications')
      .values(
        byDelivery.INBOX.map((profileId) => ({
          id: event.id !== undefined && recipients.length === 1 ? event.id : newId(),
          profile_id: profileId,
          workspace_id: event.workspaceId,
          type: event.type,
          message: event.message,
          resolved: false,
          actor_name: event.actorName,
          dataset_id: event.datasetId ?? null,
          job_id: event.jobId ?? null,
          pipeline_id: event.pipelineId ?? null,
          ...(event.at ? { created: event.at, last_modified: event.at } : {}),
        })),
      )
      .execute();
  }
  if (byDelivery.DIGEST.length > 0) {
    await db
      .insertInto('notification_digest_items')
      .values(
        byDelivery.DIGEST.map((profileId) => ({
          id: newId(),
          profile_id: profileId,
          workspace_id: event.workspaceId,
          type: event.type,
          message: event.message,
          actor_name: event.actorName,
          ...at,
        })),
      )
      .execute();
  }
  return byDelivery.INBOX.length;
}
