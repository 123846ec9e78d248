import type { OpenLineageEventItem } from '../../src/domain/openLineageResources';
import { runEventTypeOf } from '../../src/domain/openLineage';
import { lineageEventLinks } from '../policy/lineageLinks';
import type { OutboxRow } from '../repositories/openLineage';
import { iso, isoRequired, type BodyContext } from './context';

// One recorded OpenLineage event (issue 41) as the API lists it: the event as sent, parsed back
// from the text the sender composed and sends, and its delivery.

export function openLineageEventBody(ctx: BodyContext, row: OutboxRow): OpenLineageEventItem {
  return {
    id: row.id,
    kind: row.kind,
    eventType: row.kind === 'RUN' ? (runEventTypeOf(row.job_status ?? '') ?? 'OTHER') : 'JOB',
    subjectId: row.subject_id,
    eventTime: isoRequired(row.event_time),
    delivery: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    sentAt: iso(row.sent_at),
    event: row.payload === null ? null : (JSON.parse(row.payload) as Record<string, unknown>),
    _links: lineageEventLinks(ctx.h, { kind: row.kind, subjectId: row.subject_id }),
  };
}
