import { sql, type Kysely } from 'kysely';

/**
 * OpenLineage events (issue 41, item 4), an outbox: a row is written in the transaction that
 * changes a pipeline run's status (job_status: RUNNING, COMPLETE, ERROR, STOPPED) or publishes a
 * dataset (query and alias as published), so an event exists exactly when the change does and
 * writing it costs the job one INSERT. A background sender composes the event once (payload, the
 * JSON as sent, kept as text: jsonb would refuse a \u0000 escape), then delivers it under a lease
 * (lease_owner, lease_until) with bounded attempts. seq orders a subject's events: a run's START
 * is delivered before its COMPLETE.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE openlineage_events (
      id uuid PRIMARY KEY,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('RUN', 'PUBLISH')),
      subject_id uuid NOT NULL,
      job_status text,
      query text,
      alias text,
      event_time timestamptz NOT NULL,
      payload text,
      status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'FAILED', 'UNSENT')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL,
      lease_owner text,
      lease_until timestamptz,
      last_error text,
      sent_at timestamptz,
      CHECK ((kind = 'RUN') = (job_status IS NOT NULL)),
      CHECK ((kind = 'PUBLISH') = (query IS NOT NULL))
    )
  `.execute(db);
  await sql`CREATE INDEX openlineage_events_due ON openlineage_events (next_attempt_at) WHERE status = 'PENDING'`.execute(db);
  await sql`CREATE INDEX openlineage_events_subject ON openlineage_events (subject_id, seq)`.execute(db);
  await sql`CREATE INDEX openlineage_events_workspace ON openlineage_events (workspace_id, seq DESC)`.execute(db);
}
