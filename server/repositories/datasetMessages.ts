import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { DatasetMessagesTable } from '../db/schema';

// Dataset messages (the reference's Dataset Message): a note about a dataset from one member to
// another. The id is chosen at initialisation and shared with the DATASET_MESSAGE notification.

export type DatasetMessageRow = Selectable<DatasetMessagesTable>;

interface MessageFields {
  id: string;
  datasetId: string;
  senderId: string;
  recipientId: string;
  message: string;
}

/**
 * Creates the message, or changes it when this sender wrote it about this dataset. Answers the row
 * and whether it is new; undefined when the id belongs to another sender's or dataset's message.
 */
export async function saveMessage(db: Db, fields: MessageFields): Promise<{ row: DatasetMessageRow; created: boolean } | undefined> {
  const inserted = await db
    .insertInto('dataset_messages')
    .values({ id: fields.id, dataset_id: fields.datasetId, sender_id: fields.senderId, recipient_id: fields.recipientId, message: fields.message })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const updated = await db
    .updateTable('dataset_messages')
    .set({ recipient_id: fields.recipientId, message: fields.message, last_modified: new Date() })
    .where('id', '=', fields.id)
    .where('sender_id', '=', fields.senderId)
    .where('dataset_id', '=', fields.datasetId)
    .returningAll()
    .executeTakeFirst();
  return updated ? { row: updated, created: false } : undefined;
}

/** The notification that carried the message (an update is told afresh, under the same id). */
export async function deleteMessageNotification(db: Db, id: string): Promise<void> {
  await db.deleteFrom('notifications').where('id', '=', id).where('type', '=', 'DATASET_MESSAGE').execute();
}
