import type { jobSchema, logEntrySchema, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import { jobLinks } from '../policy/links';
import type { JobRow } from '../repositories/jobs';
import type { LogLine } from '../runner';
import { iso, isoRequired, type BodyContext } from './context';

/** A job's rows per stream as numbers (a stream named `__proto__` stays an own key). */
function rowsByStream(stored: Readonly<Record<string, unknown>> | null | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(stored ?? {}).map(([stream, rows]) => [stream, Number(rows)]));
}

export function jobBody(ctx: BodyContext, job: JobRow, role: MemberRole): Wire<typeof jobSchema> {
  return {
    id: job.id,
    type: job.type,
    status: job.status as Wire<typeof jobSchema>['status'],
    created: isoRequired(job.created),
    startTime: iso(job.start_time),
    endTime: iso(job.end_time),
    triggeredBy: job.triggered_by,
    attempt: job.attempt,
    maxAttempts: job.max_attempts,
    exitCode: job.exit_code,
    commitId: job.commit_id,
    rowsLoaded: Number(job.rows_loaded),
    rowsByStream: rowsByStream(job.rows_by_stream),
    _embedded: {
      profile: job.profile_email === null ? null : { email: job.profile_email },
      pipeline: job.embedded_pipeline_id === null ? null : { id: job.embedded_pipeline_id, name: job.pipeline_name },
      datastore: job.embedded_datastore_id === null ? null : { id: job.embedded_datastore_id, name: job.datastore_name },
    },
    _links: jobLinks(ctx.h, job, role),
  };
}

/** One line of a job's log stream (newline-delimited JSON). */
export const logEntryBody = (line: LogLine): Wire<typeof logEntrySchema> => ({ sequence: line.sequence, timestamp: isoRequired(line.timestamp), message: line.message });
