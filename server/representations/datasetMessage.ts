import type { datasetMessageSchema, Wire } from '../../src/domain/resources';
import type { Caller } from '../policy/caller';
import { datasetMessageLinks } from '../policy/links';
import type { DatasetMessageRow } from '../repositories/datasetMessages';
import { iso, type BodyContext } from './context';

export function datasetMessageBody(ctx: BodyContext, caller: Caller, row: DatasetMessageRow): Wire<typeof datasetMessageSchema> {
  return {
    id: row.id,
    datasetId: row.dataset_id,
    recipientId: row.recipient_id,
    message: row.message,
    created: iso(row.created),
    lastModified: iso(row.last_modified),
    _links: datasetMessageLinks(ctx.h, caller, row),
  };
}
