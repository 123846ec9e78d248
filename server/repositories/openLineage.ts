import { sql } from 'kysely';
import type { Db } from '../db/database';
import { storeDbOf } from '../db/storeDatabase';
import { storeSchemaName } from '../stores/storeRole';
import { newId } from './ids';

// The OpenLineage outbox (issue 41, item 4; migration 033): recording an event with the change it
// reports, claiming due events under a lease (FOR UPDATE SKIP LOCKED: two processes never hold the
// same event), settling them, and reading a workspace's events newest first. Plus the facts an
// event is composed of: a run's job, pipeline and loads, and the store's column types.

export type DeliveryStatus = 'PENDING' | 'SENT' | 'FAILED' | 'UNSENT';

export interface OutboxRow {
  id: string;
  seq: string | number;
  workspace_id: string;
  kind: 'RUN' | 'PUBLISH';
  subject_id: string;
  job_status: string | null;
  query: string | null;
  alias: string | null;
  event_time: Date | string;
  payload: string | null;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | string;
  last_error: string | null;
  sent_at: Date | string | null;
}

const RUN_STATUSES = new Set(['RUNNING', 'COMPLETE', 'ERROR', 'STOPPED']);

/** Records a pipeline run's status change, in the caller's transaction; any other job or status records nothing. */
export async function recordRunEvent(db: Db, job: { id: string; workspace_id: string; type: string; pipeline_id: string | null }, status: string): Promise<void> {
  if (job.type !== 'PIPELINE_RUN' || job.pipeline_id === null || !RUN_STATUSES.has(status)) return;
  const now = new Date();
  await sql`
    INSERT INTO openlineage_events (id, workspace_id, kind, subject_id, job_status, event_time, next_attempt_at)
    VALUES (${newId()}, ${job.workspace_id}, 'RUN', ${job.id}, ${status}, ${now}, ${now})`.execute(db);
}

/** Records a dataset's publish with its query and alias as published, in the caller's transaction; a dataset without a query records nothing. */
export async function recordPublishEvent(db: Db, workspaceId: string, datasetId: string): Promise<void> {
  const now = new Date();
  await sql`
    INSERT INTO openlineage_events (id, workspace_id, kind, subject_id, query, alias, event_time, next_attempt_at)
    SELECT ${newId()}, workspace_id, 'PUBLISH', id, query, alias, ${now}, ${now}
      FROM datasets WHERE id = ${datasetId} AND workspace_id = ${workspaceId} AND query IS NOT NULL`.execute(db);
}

/**
 * Leases up to `limit` due events to `owner` for `leaseMs`: PENDING, due, not leased by a live
 * lease, and the oldest unsettled event of their subject (a run's events go out in order).
 */
export async function claimDue(db: Db, owner: string, leaseMs: number, limit: number): Promise<OutboxRow[]> {
  const { rows } = await sql<OutboxRow>`
    UPDATE openlineage_events
       SET lease_owner = ${owner}, lease_until = now() + ${leaseMs} * interval '1 millisecond'
     WHERE id IN (
       SELECT e.id FROM openlineage_events e
        WHERE e.status = 'PENDING' AND e.next_attempt_at <= now() AND (e.lease_until IS NULL OR e.lease_until < now())
          AND NOT EXISTS (SELECT 1 FROM openlineage_events p WHERE p.subject_id = e.subject_id AND p.seq < e.seq AND p.status = 'PENDING')
        ORDER BY e.seq
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id, seq, workspace_id, kind, subject_id, job_status, query, alias, event_time, payload, status, attempts, next_attempt_at, last_error, sent_at`.execute(db);
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq));
}

/** Keeps the composed event, under this owner's lease: a retry sends these very bytes. */
export async function savePayload(db: Db, id: string, owner: string, payload: string): Promise<void> {
  await sql`UPDATE openlineage_events SET payload = ${payload} WHERE id = ${id} AND lease_owner = ${owner}`.execute(db);
}

/** Settles a leased event: SENT, UNSENT (no endpoint) or FAILED; or PENDING again for another attempt at `retryAt`. */
export async function settle(
  db: Db,
  id: string,
  owner: string,
  outcome: { status: DeliveryStatus; attempted: boolean; error?: string | null; retryAt?: Date },
): Promise<void> {
  await sql`
    UPDATE openlineage_events
       SET status = ${outcome.status},
           attempts = attempts + ${outcome.attempted ? 1 : 0},
           last_error = ${outcome.error ?? null},
           sent_at = ${outcome.status === 'SENT' ? new Date() : null},
           next_attempt_at = ${outcome.retryAt ?? new Date()},
           lease_owner = NULL, lease_until = NULL
     WHERE id = ${id} AND lease_owner = ${owner}`.execute(db);
}

/** Gives a leased event back untouched, due at once (a sender stopping before it got to it). */
export async function release(db: Db, id: string, owner: string): Promise<void> {
  await sql`UPDATE openlineage_events SET lease_owner = NULL, lease_until = NULL WHERE id = ${id} AND lease_owner = ${owner}`.execute(db);
}

/** A workspace's events, newest first, and how many it has. */
export async function listEvents(db: Db, workspaceId: string, page: { offset: number; limit: number }): Promise<{ rows: OutboxRow[]; total: number }> {
  const [{ rows }, count] = await Promise.all([
    sql<OutboxRow>`
      SELECT id, seq, workspace_id, kind, subject_id, job_status, query, alias, event_time, payload, status, attempts, next_attempt_at, last_error, sent_at
        FROM openlineage_events WHERE workspace_id = ${workspaceId}
       ORDER BY seq DESC OFFSET ${page.offset} LIMIT ${page.limit}`.execute(db),
    sql<{ n: string | number }>`SELECT count(*) AS n FROM openlineage_events WHERE workspace_id = ${workspaceId}`.execute(db),
  ]);
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

// ---- the facts of an event ------------------------------------------------------------------------

interface RunJobRow {
  id: string;
  workspace_id: string;
  pipeline_id: string;
  end_reason: string | null;
  exit_code: number | null;
  rows_by_stream: Record<string, number>;
  pipeline_name: string;
  data_components: string[];
}

/** A run's job and its pipeline, within the workspace. */
export async function runJob(db: Db, workspaceId: string, jobId: string): Promise<RunJobRow | undefined> {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT j.id, j.workspace_id, j.pipeline_id, j.end_reason, j.exit_code, j.rows_by_stream, p.name AS pipeline_name, p.data_components
      FROM jobs j JOIN pipelines p ON p.id = j.pipeline_id AND p.workspace_id = j.workspace_id
     WHERE j.id = ${jobId} AND j.workspace_id = ${workspaceId}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: String(row['id']),
    workspace_id: String(row['workspace_id']),
    pipeline_id: String(row['pipeline_id']),
    end_reason: (row['end_reason'] as string | null) ?? null,
    exit_code: (row['exit_code'] as number | null) ?? null,
    rows_by_stream: parsed<Record<string, number>>(row['rows_by_stream'], {}),
    pipeline_name: String(row['pipeline_name']),
    data_components: parsed<string[]>(row['data_components'], []),
  };
}

/** The streams the pipeline's latest earlier run that loaded rows read: what a starting run is expected to read. */
export async function lastStreamsOf(db: Db, workspaceId: string, pipelineId: string, beforeJobId: string): Promise<string[]> {
  const { rows } = await sql<{ rows_by_stream: unknown }>`
    SELECT rows_by_stream FROM jobs
     WHERE workspace_id = ${workspaceId} AND pipeline_id = ${pipelineId} AND type = 'PIPELINE_RUN' AND id <> ${beforeJobId}
       AND status = 'COMPLETE' AND rows_by_stream::text <> '{}'
     ORDER BY end_time DESC NULLS LAST LIMIT 1`.execute(db);
  return Object.keys(parsed<Record<string, number>>(rows[0]?.rows_by_stream, {}));
}

/** The store tables this job loaded (as recorded: a table a later run loaded again is that run's now) and their rows. */
export async function tablesLoadedBy(db: Db, workspaceId: string, jobId: string): Promise<{ table: string; rows: number }[]> {
  const { rows } = await sql<{ table_name: string; rows: number | string }>`
    SELECT table_name, rows FROM store_loads WHERE workspace_id = ${workspaceId} AND job_id = ${jobId} ORDER BY table_name`.execute(db);
  return rows.map((r) => ({ table: r.table_name, rows: Number(r.rows) }));
}

/** The columns and their types of these tables of the workspace's own store schema, in their order. */
export async function storeColumnTypes(db: Db, workspaceId: string, tables: readonly string[]): Promise<Map<string, { name: string; type: string }[]>> {
  if (tables.length === 0) return new Map();
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    SELECT table_name, column_name, data_type FROM information_schema.columns
     WHERE table_schema = ${storeSchemaName(workspaceId)} AND table_name IN (${sql.join(tables.map((t) => sql`${t}`))})
     ORDER BY table_name, ordinal_position`.execute(storeDbOf(db));
  const columns = new Map<string, { name: string; type: string }[]>();
  for (const row of rows) columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), { name: row.column_name, type: row.data_type }]);
  return columns;
}

function parsed<T>(value: unknown, fallback: T): T {
  if (typeof value !== 'string') return (value as T | null) ?? fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}
