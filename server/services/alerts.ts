import type { Db } from '../db/database';
import { conflict, notFound } from '../http/errors';
import { raiseAlertByHand } from '../notifications/datasetEvents';
import type { AlertRow } from '../repositories/alerts';
import { isUuid } from '../repositories/ids';

// Raising an alert by hand ('create alert'): the alert and its notification to the dataset's
// watchers (ALERTS and ALL) in one transaction, as an alert a rule raises.

/** 404 for an id that is no alert's, 409 when the id has been raised already (an alert never changes). */
export async function raiseAlertAs(db: Db, id: string, dataset: { id: string; workspaceId: string }, detail: string, actorName: string): Promise<AlertRow> {
  if (!isUuid(id)) throw notFound('Alert not found: not an alert id');
  const alert = await db.transaction().execute((trx) => raiseAlertByHand(trx, dataset, { id, detail, actorName }));
  if (!alert) throw conflict(`Alert ${id} has been raised already`);
  return alert;
}
