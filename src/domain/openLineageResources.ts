import { z } from 'zod';
import { halResource, pagedCollection } from './hal';

// The OpenLineage events of a workspace through the API (issue 41, item 4): GET the workspace's
// 'lineage events' link (its admins), newest first, paged. Each item is one recorded event: what
// it reports, the event as sent (null until the sender composed it) and how its delivery went.

/** PENDING: to be sent (again); SENT: the collector accepted it; FAILED: given up; UNSENT: no collector is configured. */
const OPENLINEAGE_DELIVERIES = ['PENDING', 'SENT', 'FAILED', 'UNSENT'] as const;

export const openLineageEventItemSchema = halResource({
  id: z.string(),
  /** RUN: a pipeline run's status change; PUBLISH: a dataset's publish */
  kind: z.enum(['RUN', 'PUBLISH']),
  /** the run transition (START, COMPLETE, FAIL, ABORT), or JOB for a publish's job event */
  eventType: z.string(),
  /** the job (RUN) or dataset (PUBLISH) the event reports */
  subjectId: z.string(),
  eventTime: z.string(),
  delivery: z.enum(OPENLINEAGE_DELIVERIES),
  attempts: z.int().min(0),
  /** why the last attempt failed; null when it did not */
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** the OpenLineage event as sent; null until composed */
  event: z.record(z.string(), z.unknown()).nullable(),
});
export type OpenLineageEventItem = z.infer<typeof openLineageEventItemSchema>;

export const openLineageEventsSchema = pagedCollection('events', openLineageEventItemSchema);
