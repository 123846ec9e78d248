// The Lab's figures for `npm run bench`: streaming a long job log through the API, and draining a
// queue of trivial jobs with two server processes on one PostgreSQL (and whether any ran twice).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { pino } from 'pino';
import { openDatabase } from '../server/db/database';
import { newId } from '../server/repositories/ids';
import { createPipeline } from '../server/repositories/pipelines';
import { enqueueJob } from '../server/runner';
import { DEMO, seedDemo } from '../server/seed';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';
import { SERVER_ENTRY, serverEnv, startChild, type Child } from './processes';

const LOG_LINES = 100_000;
const LOG_PAGE = 10_000;
// BENCH_DRAIN_JOBS: fewer for a quick look (at least 10)
const DRAIN_JOBS = Math.max(10, Math.trunc(Number(process.env.BENCH_DRAIN_JOBS ?? 1_000)) || 1_000);

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** Resident memory of a process in kB (Linux), or NaN where /proc is not there. */
function rssKb(pid: number | undefined): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** A finished job of the demo workspace with LOG_LINES lines, written before the server starts. */
async function prepareLongLog(dataDir: string, databaseUrl: string | undefined): Promise<string> {
  const handle = await openDatabase({ url: databaseUrl, dataDir });
  try {
    await seedDemo(handle.db, pino({ level: 'silent' }));
    const jobId = newId();
    await handle.db.insertInto('jobs').values({ id: jobId, workspace_id: DEMO.workspaceId, type: 'PIPELINE_RUN', status: 'COMPLETE', attempt: 1, max_attempts: 1 }).execute();
    for (let start = 0; start < LOG_LINES; start += LOG_PAGE) {
      const rows = Array.from({ length: Math.min(LOG_PAGE, LOG_LINES - start) }, (_, i) => ({
        job_id: jobId,
        sequence: start + i + 1,
        message: `{"type": "RECORD", "stream": "orders", "record": {"id": ${start + i + 1}, "status": "shipped", "total": 42.5}}`,
      }));
      await handle.db.insertInto('job_logs').values(rows).execute();
    }
    return jobId;
  } finally {
    await handle.close();
  }
}

/** Reads a 100,000-line log through the logs link, page after page as the log viewer does. */
export async function benchLogStream(kind: string, databaseUrl: string | undefined): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-log-'));
  let server: Child | undefined;
  try {
    const jobId = await prepareLongLog(dataDir, databaseUrl);
    const port = await freePort();
    server = await startChild(SERVER_ENTRY, serverEnv(port, dataDir, databaseUrl, { RUNNER_ENABLED: 'false', SCHEDULER_ENABLED: 'false' }), `http://127.0.0.1:${port}/config.json`);
    const { accessToken } = await signIn(`http://127.0.0.1:${port}`, DEMO.owner);
    const headers = { authorization: `Bearer ${accessToken}`, accept: 'application/stream+json' };
    const before = rssKb(server.process.pid);
    let peak = before;
    let lines = 0;
    let sequence = 0;
    const started = performance.now();
    for (;;) {
      const response = await fetch(`http://127.0.0.1:${port}/api/jobs/${jobId}/logs?sequence=${sequence}&size=${LOG_PAGE}`, { headers });
      if (response.status === 204) break;
      if (!response.ok) throw new Error(`logs answered ${response.status}: ${await response.text()}`);
      const page = (await response.text()).trimEnd().split('\n');
      lines += page.length;
      sequence = (JSON.parse(page.at(-1) ?? '{}') as { sequence: number }).sequence;
      peak = Math.max(peak, rssKb(server.process.pid));
    }
    const seconds = (performance.now() - started) / 1000;
    const after = rssKb(server.process.pid);
    if (lines !== LOG_LINES) throw new Error(`read ${lines} lines of ${LOG_LINES}`);
    return `  ${kind.padEnd(8)} ${LOG_LINES.toLocaleString('en')} lines in ${seconds.toFixed(2)} s: ${(lines / seconds).toFixed(0)} lines/s; server RSS ${mb(before)} before, ${mb(peak)} at most, ${mb(after)} after`;
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * DRAIN_JOBS trivial jobs queued, then `workers` server processes (4 jobs at a time each, every job
 * in its sandbox) run them; each job prints a marker line to its own log (a job runs in its sandbox
 * and cannot write the bench's files), so a job run twice shows as two marker lines of one job. The
 * jobs are held back (run_after in an hour) until every process is up, so the figure is the queue
 * draining, not processes starting (issue 42: how many jobs per second one PostgreSQL serves).
 */
export async function benchDrain(databaseUrl: string, workers = 2): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-drain-'));
  // passable (not listable) for the workspaces' own uids, whose projects are below the data directories in it
  fs.chmodSync(dir, 0o711);
  const marker = 'drain-run';
  const handle = await openDatabase({ url: databaseUrl, dataDir: 'memory://' });
  const children: Child[] = [];
  try {
    const workspaceId = newId();
    await handle.db.insertInto('workspaces').values({ id: workspaceId, name: 'Drain', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
    for (let i = 0; i < DRAIN_JOBS; i += 1) {
      const created = await createPipeline(handle.db, workspaceId, { name: `trivial ${i}`, script: `echo "${marker} $JOB_ID"`, draft: false });
      if (!created.ok) throw new Error('pipeline not created');
      const queued = await enqueueJob(handle.db, created.pipeline.id, { kind: 'MANUAL' });
      if (queued.status !== 'QUEUED') throw new Error(`job not queued: ${queued.status}`);
    }
    await handle.db.updateTable('jobs').set({ run_after: new Date(Date.now() + 3_600_000) }).where('workspace_id', '=', workspaceId).execute();
    // BENCH_DRAIN_SANDBOX=off: the queue's own ceiling, without a sandbox's start per job
    const sandbox = process.env.BENCH_DRAIN_SANDBOX === 'off' ? { RUNNER_SANDBOX: 'off' } : {};
    const extra = { RUNNER_CONCURRENCY: '4', RUNNER_POLL_MS: '100', SEED_DEMO: 'false', SCHEDULER_ENABLED: 'false', ...sandbox };
    const ports = await Promise.all(Array.from({ length: workers }, () => freePort()));
    // a data directory each, as workers on separate machines have
    children.push(...(await Promise.all(ports.map((port, i) => startChild(SERVER_ENTRY, serverEnv(port, path.join(dir, `worker-${i}`), databaseUrl, extra), `http://127.0.0.1:${port}/config.json`)))));
    const started = performance.now();
    await handle.db.updateTable('jobs').set({ run_after: new Date() }).where('workspace_id', '=', workspaceId).execute();
    for (;;) {
      const left = await handle.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).where('status', 'in', ['QUEUED', 'RUNNING']).executeTakeFirstOrThrow();
      if (Number(left.n) === 0) break;
      if (performance.now() - started > 600_000) throw new Error(`${Number(left.n)} jobs still queued or running after 10 minutes`);
      await delay(100);
    }
    const seconds = (performance.now() - started) / 1000;
    const ran = await handle.db
      .selectFrom('job_logs')
      .innerJoin('jobs', 'jobs.id', 'job_logs.job_id')
      .select(['job_logs.job_id', 'job_logs.message'])
      .where('jobs.workspace_id', '=', workspaceId)
      .where('job_logs.message', 'like', `%${marker} %`)
      .execute()
      // the line the script printed names the job's real id (a logged copy of the script would not)
      .then((rows) => rows.filter((row) => row.message.includes(`${marker} ${row.job_id}`)).map((row) => row.job_id));
    const duplicates = ran.length - new Set(ran).size;
    const complete = await handle.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).where('status', '=', 'COMPLETE').executeTakeFirstOrThrow();
    // a drain of failing jobs is no figure: say why the first one failed
    const failed = Number(complete.n) === DRAIN_JOBS ? undefined : await handle.db.selectFrom('jobs').select('id').where('workspace_id', '=', workspaceId).where('status', '!=', 'COMPLETE').limit(1).executeTakeFirst();
    const why = failed ? (await handle.db.selectFrom('job_logs').select('message').where('job_id', '=', failed.id).orderBy('sequence').execute()).map((l) => l.message).join(' | ') : '';
    return `  postgres ${DRAIN_JOBS} jobs by ${workers} worker${workers === 1 ? '' : 's'} (4 at a time each${sandbox.RUNNER_SANDBOX ? ', no sandbox' : ''}) in ${seconds.toFixed(1)} s once all were up: ${(DRAIN_JOBS / seconds).toFixed(1)} jobs/s; ${Number(complete.n)} COMPLETE; ran ${ran.length} times; duplicates ${duplicates}${duplicates === 0 ? '' : ' — MUST BE 0'}${why ? `; a job that did not complete: ${why.slice(0, 600)}` : ''}`;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
