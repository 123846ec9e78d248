import type { Db } from '../db/database';
import { conflict, notFound } from '../http/errors';
import { rejectFieldErrors } from '../http/validation';
import { notify } from '../notifications/notify';
import { deleteMessageNotification, saveMessage, type DatasetMessageRow } from '../repositories/datasetMessages';
import { isUuid } from '../repositories/ids';
import { memberRole } from '../repositories/workspaces';

// Sending a dataset message (the Matatika reference's Dataset Message): the message and the
// recipient's DATASET_MESSAGE notification (with the message's own id) in one transaction. Its
// sender may change it (PUT again), which replaces the notification and tells the recipient afresh.

const OBJECT = 'datasetMessage';

interface MessageSend {
  /** the initialised message's id, as the path gives it */
  id: string;
  workspaceId: string;
  dataset: { id: string; title: string | null; alias: string | null };
  sender: { profileId: string; name: string };
  recipientId: string;
  message: string;
}

/** Creates or, by its sender, updates the message: 404 for an id that is no message's, 400 for a recipient who is not a member, 409 for somebody else's. */
export async function sendDatasetMessage(db: Db, send: MessageSend): Promise<{ row: DatasetMessageRow; created: boolean }> {
  const { id, workspaceId, dataset, sender, recipientId, message } = send;
  if (!isUuid(id)) throw notFound('Dataset message not found: not a message id');
  if ((await memberRole(db, workspaceId, recipientId)) === undefined) {
    rejectFieldErrors(OBJECT, { recipientId: 'is not a member of this workspace' });
  }
  const saved = await db.transaction().execute(async (trx) => {
    const result = await saveMessage(trx, { id, datasetId: dataset.id, senderId: sender.profileId, recipientId, message });
    if (!result) return undefined;
    if (!result.created) await deleteMessageNotification(trx, id);
    await notify(trx, {
      id,
      profileIds: [recipientId],
      directProfileIds: [recipientId],
      workspaceId,
      type: 'DATASET_MESSAGE',
      message: `${sender.name} wrote to you about ${dataset.title ?? dataset.alias ?? 'a dataset'}: ${message}`,
      actorName: sender.name,
      datasetId: dataset.id,
    });
    return result;
  });
  if (!saved) throw conflict(`Dataset message ${id} is somebody else's`);
  return saved;
}
