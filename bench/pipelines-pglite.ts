// The built-in loading path on the embedded PGlite, for `npm run bench`: the same CSV file through
// tap-files → target-store, as jobs of the real runner in the server `npm start` runs, in their
// sandbox, beside PGlite's own COPY of that file (the floor). PGlite is one process's database, so
// this process writes the workspace and queues the runs first, then hands the data directory to
// the server, follows the runs over its API as their owner, and reads their logs once it stopped.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../server/db/database';
import { storeDbOf } from '../server/db/storeDatabase';
import { createIdpUser } from '../server/identity/users';
import { createPipeline } from '../server/repositories/pipelines';
import { enqueueJob } from '../server/runner';
import { storeSchemaName } from '../server/stores/defaultStore';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';
import { BUILT_IN_MARKS, jobPhases, type JobPhases } from './job-phases';
import { prepareWorkspace } from './pipeline-workspace';
import { SERVER_ENTRY, serverEnv, startChild } from './processes';
import { ROWS_COLUMNS } from './rows-file';

const OWNER = { name: 'Bench Owner', email: 'bench-owner@example.com', password: 'bench-owner-password' };
const TERMINAL = ['COMPLETE', 'ERROR', 'STOPPED'];

/** Seconds PGlite's COPY of `file` (a header, then `rows` rows) takes into a fresh keyed table, checked by counting: the floor on PGlite. */
async function timePgliteCopy(file: string, rows: number): Promise<number> {
  const pg = await PGlite.create();
  try {
    await pg.exec(`CREATE TABLE bench_copy_floor (${ROWS_COLUMNS})`);
    const blob = new Blob([fs.readFileSync(file)]);
    const started = performance.now();
    await pg.query("COPY bench_copy_floor FROM '/dev/blob' (FORMAT csv, HEADER true)", [], { blob });
    const seconds = (performance.now() - started) / 1000;
    const counted = (await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM bench_copy_floor')).rows[0]?.n;
    if (counted !== rows) throw new Error(`PGlite's COPY loaded ${String(counted)} rows of ${rows}`);
    return seconds;
  } finally {
    await pg.close();
  }
}

/** The workspace's owner, who follows the runs over the API. */
async function addOwner(db: Db, workspaceId: string): Promise<void> {
  const user = await createIdpUser(db, { ...OWNER, emailVerified: true });
  await db.insertInto('profiles').values({ id: user.subject, name: OWNER.name, email: OWNER.email, can_create_workspaces: false }).execute();
  await db.insertInto('workspace_members').values({ workspace_id: workspaceId, profile_id: user.subject, role: 'owner', handle: '@bench' }).execute();
}

export interface PgliteRuns {
  copy: number;
  /** the second of two identical runs into new tables: the first warms the server and the files */
  next: JobPhases | { failed: string };
}

/**
 * Two runs of the built-in path into new tables on PGlite, one after the other; the second's
 * phases beside PGlite's COPY of the same file (the second of two, as on PostgreSQL).
 */
export async function benchPipelinesPglite(rows: number): Promise<PgliteRuns> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pipelines-pglite-'));
  try {
    let handle = await openDatabase({ dataDir });
    const workspace = await prepareWorkspace(handle.db, dataDir, rows);
    await addOwner(handle.db, workspace.workspaceId);
    const again = await createPipeline(handle.db, workspace.workspaceId, { name: 'built-in again', draft: false, dataComponents: ['tap-files', 'target-store'], properties: { 'target-store.table_prefix': 'again_' }, timeout: 900 });
    if (!again.ok) throw new Error('the second pipeline was not made');
    const jobIds: string[] = [];
    for (const pipelineId of [workspace.builtIn.id, again.pipeline.id]) {
      const queued = await enqueueJob(handle.db, pipelineId, { kind: 'MANUAL' });
      if (queued.status !== 'QUEUED') throw new Error(`the bench's job was not queued: ${queued.status}`);
      jobIds.push(queued.job.id);
    }
    await handle.close();
    await timePgliteCopy(workspace.rowsFile, rows);
    const copy = await timePgliteCopy(workspace.rowsFile, rows);

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // one job at a time, as the runs on PostgreSQL are measured
    const server = await startChild(SERVER_ENTRY, serverEnv(port, dataDir, undefined, { SEED_DEMO: 'false', SCHEDULER_ENABLED: 'false', RUNNER_POLL_MS: '100', RUNNER_CONCURRENCY: '1' }), `${baseUrl}/config.json`);
    try {
      const { accessToken } = await signIn(baseUrl, OWNER);
      const deadline = Date.now() + 20 * 60_000;
      for (const id of jobIds) {
        for (;;) {
          const answer = await fetch(`${baseUrl}/api/jobs/${id}`, { headers: { authorization: `Bearer ${accessToken}` } });
          if (!answer.ok) throw new Error(`GET /api/jobs/${id} answered ${answer.status}`);
          if (TERMINAL.includes(((await answer.json()) as { status: string }).status)) break;
          if (Date.now() > deadline) throw new Error(`the bench's job ${id} did not end`);
          await delay(250);
        }
      }
    } finally {
      await server.stop();
    }

    handle = await openDatabase({ dataDir });
    try {
      const id = jobIds[1]!;
      const job = await handle.db.selectFrom('jobs').select(['status', 'rows_loaded']).where('id', '=', id).executeTakeFirstOrThrow();
      const log = (await handle.db.selectFrom('job_logs').select(['timestamp', 'message']).where('job_id', '=', id).orderBy('sequence').execute()).map((l) => ({ timestamp: new Date(l.timestamp), message: l.message }));
      if (job.status !== 'COMPLETE') return { copy, next: { failed: log.filter((l) => !/^Job ended /.test(l.message)).at(-1)?.message ?? job.status } };
      const table = sql.table(`${storeSchemaName(workspace.workspaceId)}.again_${workspace.builtIn.table.replace(/^builtin_/, '')}`);
      const stored = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${table}`.execute(storeDbOf(handle.db))).rows[0]?.n;
      if (Number(job.rows_loaded) !== rows || stored !== rows) throw new Error(`PGlite: the job counted ${job.rows_loaded} rows and the store holds ${stored}, not ${rows}`);
      const phases = jobPhases(log, BUILT_IN_MARKS);
      return { copy, next: typeof phases === 'string' ? { failed: phases } : phases };
    } finally {
      await handle.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
