import { publishEvent, runEvent, type OpenLineageEvent } from '../../src/domain/openLineage';
import type { Db } from '../db/database';
import { listDataComponents } from '../repositories/dataComponents';
import { lastStreamsOf, runJob, storeColumnTypes, tablesLoadedBy, type OutboxRow } from '../repositories/openLineage';
import { componentsNamed } from '../repositories/pipelineFacts';
import { queryLineage } from './lineage';

// Composing a recorded OpenLineage event (issue 41, item 4) from what the platform knows when the
// sender first takes it up, moments after the change: a run's pipeline, its extractors and the
// streams they read, the tables it loaded with the store's columns and types; a publish's query
// (as published), its columns' lineage and the tables it reads. Everything within the event's own
// workspace. Undefined when what it reports is gone (the run's job or pipeline was deleted).

/** 'why' of a failed run, from how it ended. */
function failureOf(job: { end_reason: string | null; exit_code: number | null }): string {
  const code = job.exit_code === null ? '' : ` with exit code ${job.exit_code}`;
  return `The run ended${code}${job.end_reason ? ` (${job.end_reason})` : ''}.`;
}

async function composeRun(db: Db, row: OutboxRow, producer: string): Promise<OpenLineageEvent | undefined> {
  const job = await runJob(db, row.workspace_id, row.subject_id);
  if (!job) return undefined;
  const components = await listDataComponents(db, row.workspace_id);
  const extractors = componentsNamed(components, job.data_components).filter((c) => c.plugin_type === 'EXTRACTOR');
  const ended = row.job_status !== 'RUNNING';
  const own = Object.keys(job.rows_by_stream);
  const streams = ended && own.length > 0 ? own : await lastStreamsOf(db, row.workspace_id, job.pipeline_id, job.id);
  const loaded = ended ? await tablesLoadedBy(db, row.workspace_id, job.id) : [];
  const columns = await storeColumnTypes(db, row.workspace_id, loaded.map((l) => l.table));
  return runEvent(
    {
      workspaceId: row.workspace_id,
      jobId: job.id,
      pipelineName: job.pipeline_name,
      status: row.job_status ?? '',
      eventTime: new Date(row.event_time).toISOString(),
      errorMessage: failureOf(job),
      // a run's streams are its extractor's; with several extractors each is named with all of them (which read which is not recorded)
      inputs: extractors.map((e) => ({ extractor: e.name, streams })),
      outputs: loaded.map((l) => ({ table: l.table, columns: columns.get(l.table) ?? [], rowCount: l.rows })),
    },
    producer,
  );
}

async function composePublish(db: Db, row: OutboxRow, producer: string): Promise<OpenLineageEvent> {
  const query = row.query ?? '';
  const read = await queryLineage(db, row.workspace_id, query);
  const lineage = read.lineage ?? { columns: [], tables: [] };
  return publishEvent(
    {
      workspaceId: row.workspace_id,
      datasetId: row.subject_id,
      alias: row.alias,
      query,
      eventTime: new Date(row.event_time).toISOString(),
      lineage,
      tableColumns: await storeColumnTypes(db, row.workspace_id, lineage.tables),
    },
    producer,
  );
}

/** The event a recorded row reports, as JSON text; undefined when its subject is gone. */
export async function composeEvent(db: Db, row: OutboxRow, producer: string): Promise<string | undefined> {
  const event = row.kind === 'RUN' ? await composeRun(db, row, producer) : await composePublish(db, row, producer);
  return event === undefined ? undefined : JSON.stringify(event);
}
