// A workspace for the loading bench, made as a user's would be: its plugins and pipelines through
// the repositories the API calls, its files in its project directory, its jobs queued and run by
// the server's real runner (bench/pipelines.ts starts it), each in the job sandbox.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { parse } from 'yaml';
import { readDiscovery } from '../src/domain/discovery';
import type { Db } from '../server/db/database';
import { createDataComponent, type DataComponentInput } from '../server/repositories/dataComponents';
import { publishPlugins } from '../server/repositories/dataPlugins';
import { newId } from '../server/repositories/ids';
import { createPipeline } from '../server/repositories/pipelines';
import { clearStates } from '../server/repositories/pipelineStates';
import { enqueueJob } from '../server/runner';
import { projectDir } from '../server/runner/project';
import { storeSchemaName } from '../server/stores/defaultStore';
import type { LoggedLine } from './job-phases';
import { ROWS_STREAM, writeRowsFile } from './rows-file';

/** The bench's Singer tap, copied into the project and installed from there by its path pip_url. */
const TAP_DIR = path.join(import.meta.dirname, 'fixtures', 'tap-bench-csv');
const ROWS_PATH = 'bench-data';
/** A pipeline's timeout unless one is given: the 100,000-row loads take seconds; the big CSV (bigCsv.ts) gives its own. */
const JOB_TIMEOUT_S = 900;

const DISCOVERY = `
extractors:
  - name: tap-bench-csv
    namespace: tap_bench_csv
    pip_url: ./tap-bench-csv
    executable: tap-bench-csv
    capabilities: [catalog, discover]
    settings:
      - { name: path }
      - { name: key_properties, kind: array }
`;

const COMPONENTS: DataComponentInput[] = [
  { name: 'tap-files', pluginType: 'EXTRACTOR', pluginName: 'tap-files', variant: 'builtin', properties: { paths: [`${ROWS_PATH}/${ROWS_STREAM}.csv`], key_properties: { [ROWS_STREAM]: ['id'] } } },
  { name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' },
  { name: 'tap-bench-csv', pluginType: 'EXTRACTOR', pluginName: 'tap-bench-csv', properties: { path: `${ROWS_PATH}/${ROWS_STREAM}.csv`, key_properties: ['id'] } },
  // the catalogue's Meltano target-postgres with no host of its own: it loads into the workspace's store
  { name: 'target-postgres', pluginType: 'LOADER', pluginName: 'target-postgres', variant: 'meltanolabs' },
];

export interface BenchPipeline {
  id: string;
  /** the store table it loads, a prefix of its own before the stream's name */
  table: string;
}

export interface BenchWorkspace {
  workspaceId: string;
  /** the CSV file in the project, which COPY reads too */
  rowsFile: string;
  builtIn: BenchPipeline;
  meltano: BenchPipeline;
}

/**
 * A READY workspace with tap-files → target-store and tap-bench-csv → target-postgres, both
 * reading the same `rows`-row file of its project. Written before its first job, which gives the
 * project directory to the workspace's own uid.
 */
export async function prepareWorkspace(db: Db, dataDir: string, rows: number, timeoutS = JOB_TIMEOUT_S): Promise<BenchWorkspace> {
  const workspaceId = newId();
  await db.insertInto('workspaces').values({ id: workspaceId, name: 'Loading bench', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
  const discovery = readDiscovery(parse(DISCOVERY));
  if (discovery.errors.length > 0) throw new Error(`the bench tap's discovery.yml: ${JSON.stringify(discovery.errors)}`);
  await publishPlugins(db, workspaceId, discovery.plugins);
  for (const component of COMPONENTS) {
    const created = await createDataComponent(db, workspaceId, component);
    if (!created.ok) throw new Error(`component ${component.name}: ${created.problem}`);
  }
  const pipeline = async (name: string, dataComponents: string[], prefix: string, properties: Record<string, unknown>): Promise<BenchPipeline> => {
    const created = await createPipeline(db, workspaceId, { name, draft: false, dataComponents, properties, timeout: timeoutS });
    if (!created.ok) throw new Error(`pipeline ${name}: name taken`);
    return { id: created.pipeline.id, table: `${prefix}${ROWS_STREAM}` };
  };
  const builtIn = await pipeline('built-in', ['tap-files', 'target-store'], 'builtin_', { 'target-store.table_prefix': 'builtin_' });
  const meltano = await pipeline('meltano', ['tap-bench-csv', 'target-postgres'], 'meltano_', { 'target-postgres.table_prefix': 'meltano_' });
  const project = projectDir(dataDir, workspaceId);
  const rowsFile = writeRowsFile(path.join(project, ROWS_PATH), rows);
  fs.cpSync(TAP_DIR, path.join(project, 'tap-bench-csv'), { recursive: true });
  return { workspaceId, rowsFile, builtIn, meltano };
}

interface FinishedJob {
  status: string;
  rowsLoaded: number;
  log: LoggedLine[];
}

/** Queues a run of the pipeline as the Run button does, and waits for its end (its timeout and a minute more). */
export async function runJob(db: Db, pipelineId: string, timeoutS = JOB_TIMEOUT_S): Promise<FinishedJob> {
  const queued = await enqueueJob(db, pipelineId, { kind: 'MANUAL' });
  if (queued.status !== 'QUEUED') throw new Error(`the bench's job was not queued: ${queued.status}`);
  const deadline = Date.now() + (timeoutS + 60) * 1000;
  for (;;) {
    const job = await db.selectFrom('jobs').select(['status', 'rows_loaded']).where('id', '=', queued.job.id).executeTakeFirstOrThrow();
    if (['COMPLETE', 'ERROR', 'STOPPED'].includes(job.status)) {
      const log = await db.selectFrom('job_logs').select(['timestamp', 'message']).where('job_id', '=', queued.job.id).orderBy('sequence').execute();
      return { status: job.status, rowsLoaded: Number(job.rows_loaded), log: log.map((line) => ({ timestamp: new Date(line.timestamp), message: line.message })) };
    }
    if (Date.now() > deadline) throw new Error(`the bench's job ${queued.job.id} is still ${job.status}`);
    await delay(250);
  }
}

/** The rows in the pipeline's store table (none when it is not there). */
export async function storedRows(db: Db, workspaceId: string, pipeline: BenchPipeline): Promise<number> {
  const found = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(`${storeSchemaName(workspaceId)}.${pipeline.table}`)}`.execute(db).catch(() => undefined);
  return found?.rows[0]?.n ?? 0;
}

/** Full refresh (the pipeline's state cleared, as the History tab does) and its table dropped: the next run loads every row into a new table again. */
export async function resetPipeline(db: Db, workspaceId: string, pipeline: BenchPipeline): Promise<void> {
  const cleared = await clearStates(db, pipeline.id);
  if (cleared !== 'CLEARED') throw new Error(`the pipeline's state was not cleared: ${cleared}`);
  await sql`DROP TABLE IF EXISTS ${sql.table(`${storeSchemaName(workspaceId)}.${pipeline.table}`)}`.execute(db);
}
