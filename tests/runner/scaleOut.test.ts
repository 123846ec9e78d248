import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database';
import { newId } from '../../server/repositories/ids';
import { createPipeline } from '../../server/repositories/pipelines';
import { insertWorkspaceJob } from '../../server/repositories/workspaces';
import { enqueueJob } from '../../server/runner';
import { DEMO, DEMO_PIPELINES } from '../../server/seed';
import { createTestDatabase } from '../support/server';
import { waitFor } from './helpers';
import { startServerProcess, type ProcessKind, type ServerProcess } from './serverProcess';

// Issue 42: a worker's disk is a cache. One API process and workers each with a data directory of
// its own (as on separate machines), sharing one PostgreSQL: a deployment made on one worker, the
// demo's seeded files and a pipeline's incremental state are found by a job on any other, and a
// job whose worker stops is handed back, and one whose worker dies is retried, elsewhere.

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const WORKER: ProcessKind = { entry: 'server/worker.ts', ready: (l) => l.msg === 'worker: ready' };
const API_ONLY: ProcessKind = { entry: 'server/main.ts', ready: (l) => l.msg === 'ready' };
const ENDED = ['COMPLETE', 'ERROR', 'STOPPED'];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
}

async function ended(db: Db, jobId: string, timeoutMs = 30_000) {
  return waitFor(
    async () => {
      const row = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      return ENDED.includes(row.status) ? row : undefined;
    },
    `job ${jobId} to end`,
    timeoutMs,
  );
}

async function logOf(db: Db, jobId: string): Promise<string> {
  const rows = await db.selectFrom('job_logs').select('message').where('job_id', '=', jobId).orderBy('sequence').execute();
  return rows.map((r) => r.message).join('\n');
}

/** The worker process that ran a job, by the runner id its start line names. */
function ranOn(log: string, workers: readonly ServerProcess[]): ServerProcess | undefined {
  const started = log.split('\n').find((line) => line.startsWith('Job started on '));
  return workers.find((w) => started?.includes(`:${w.child.pid}:`));
}

// PostgreSQL only (workers on PGlite would each hold a database of their own): `npm run test:runner`
// runs this file's PostgreSQL pass whenever TEST_DATABASE_URL is set, as .ci/run sets it
describe.runIf(postgres)('scale-out: two workers, a data directory each, one PostgreSQL', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  });
  const tempDir = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    cleanup.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
    return dir;
  };

  it('finds the deployment, the seeded files and the incremental state on any worker, hands a stopping worker’s job to another and retries a dead worker’s job elsewhere', async () => {
    const database = await createTestDatabase();
    cleanup.push(() => database.dispose());
    const handle = await openDatabase({ url: database.url, dataDir: 'memory://' });
    cleanup.push(() => handle.close());
    const db = handle.db;

    // A local repository whose pipeline prints a file of the deployed commit.
    const repo = tempDir('scale-out-repo-');
    fs.chmodSync(repo, 0o755);
    git(repo, 'init', '--quiet', '--initial-branch=main');
    fs.mkdirSync(path.join(repo, 'pipelines'));
    fs.mkdirSync(path.join(repo, 'data'));
    fs.writeFileSync(path.join(repo, 'pipelines', 'show.yml'), 'version: pipelines/v0.1\ninline_script: cat repository/data/hello.txt\ntimeout: 60\n');
    fs.writeFileSync(path.join(repo, 'data', 'hello.txt'), 'from the deployed commit\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'deployed');

    const shared = { DATABASE_URL: database.url, REPOSITORY_LOCAL_ROOTS: os.tmpdir() };
    const start = async (kind: ProcessKind, env: Record<string, string | undefined>) => {
      const started = await startServerProcess({ ...shared, DATA_DIR: tempDir('scale-out-data-'), ...env }, kind);
      cleanup.push(() => Promise.resolve(started.child.kill('SIGKILL')));
      return started;
    };
    // The API process seeds the demo (its files into the database) and runs no job.
    const [, a] = await Promise.all([start(API_ONLY, { SEED_DEMO: 'true', RUNNER_ENABLED: 'false', SCHEDULER_ENABLED: 'false' }), start(WORKER, { RUNNER_SHUTDOWN_GRACE_SECONDS: '1' })]);

    // The seeded pipelines run on worker A: the files pipeline finds the files the seed stored.
    const seeded = await waitFor(
      async () => {
        const jobs = await db.selectFrom('jobs').selectAll().where('workspace_id', '=', DEMO.workspaceId).where('pipeline_id', 'is not', null).orderBy('created').execute();
        return jobs.length === 2 && jobs.every((j) => ENDED.includes(j.status)) ? jobs : undefined;
      },
      'the seeded runs to end',
      40_000,
    );
    const reference = await db.selectFrom('pipelines').selectAll().where('workspace_id', '=', DEMO.workspaceId).where('name', '=', DEMO_PIPELINES.reference).executeTakeFirstOrThrow();
    const firstFiles = seeded.find((j) => j.pipeline_id === reference.id)!;
    expect(firstFiles.status, await logOf(db, firstFiles.id)).toBe('COMPLETE');
    // the seeded files: 7 countries and 24 months of targets
    expect(Number(firstFiles.rows_loaded)).toBe(7 + 24);
    expect(ranOn(await logOf(db, firstFiles.id), [a])).toBe(a);

    // A workspace deploys its repository on worker A.
    const workspaceId = newId();
    await db.insertInto('workspaces').values({ id: workspaceId, name: 'Scale out', domains: '[]', app_properties: '{}', status: 'READY', repository_url: repo }).execute();
    const deployJob = await insertWorkspaceJob(db, workspaceId, 'WORKSPACE_DEPLOY', null, 'test');
    const deployed = await ended(db, deployJob!.id);
    expect(deployed.status, await logOf(db, deployed.id)).toBe('COMPLETE');
    // the branch moves on after the deployment: what runs is the deployed commit, not the tip
    fs.writeFileSync(path.join(repo, 'data', 'hello.txt'), 'a later commit\n');
    git(repo, 'commit', '--quiet', '-am', 'later');

    // A stops gracefully while running a job of a pipeline with no retries: the job is handed back
    // (not counted as a retry) and waits in the queue while two workers with disks of their own start.
    // (in a workspace of its own: a job of the deployed workspace would fetch its commit on B or C first)
    const quiet = newId();
    await db.insertInto('workspaces').values({ id: quiet, name: 'Patient', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
    const patient = await createPipeline(db, quiet, { name: 'patient', script: 'echo started; sleep 3; echo finished', draft: false });
    if (!patient.ok) throw new Error('pipeline name taken');
    const patientRun = await enqueueJob(db, patient.pipeline.id, { kind: 'MANUAL' });
    if (patientRun.status !== 'QUEUED') throw new Error(patientRun.status);
    await waitFor(async () => ((await logOf(db, patientRun.job.id)).split('\n').includes('started') ? true : undefined), 'the patient job to start on A');
    a.child.kill('SIGTERM');
    const [b, c] = await Promise.all([start(WORKER, {}), start(WORKER, {}), a.exited]);
    const others = [b, c];
    const handedBack = await ended(db, patientRun.job.id);
    expect(handedBack.status).toBe('ERROR');
    expect(await logOf(db, handedBack.id)).toMatch(/The job was handed back to the queue as job \S+ \(attempt 2 of 2/);
    const resumed = await waitFor(() => db.selectFrom('jobs').selectAll().where('retry_of', '=', handedBack.id).executeTakeFirst(), 'the handed-back job');
    const resumedLog = await logOf(db, (await ended(db, resumed.id)).id);
    expect((await ended(db, resumed.id)).status, resumedLog).toBe('COMPLETE');
    expect(ranOn(resumedLog, others)).toBeDefined();

    const show = await db.selectFrom('pipelines').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
    const showRun = await enqueueJob(db, show.id, { kind: 'MANUAL' });
    if (showRun.status !== 'QUEUED') throw new Error(showRun.status);
    const shown = await ended(db, showRun.job.id);
    const showLog = await logOf(db, shown.id);
    expect(shown.status, showLog).toBe('COMPLETE');
    expect(ranOn(showLog, others)).toBeDefined();
    expect(showLog).toContain(`does not hold the deployed commit ${deployed.commit_id!.slice(0, 7)}; fetching it.`);
    expect(showLog).toContain('from the deployed commit');
    expect(showLog).not.toContain('a later commit');

    // The files pipeline's second run, on another disk, loads nothing new: the same files, the same state.
    const again = await enqueueJob(db, reference.id, { kind: 'MANUAL' });
    if (again.status !== 'QUEUED') throw new Error(again.status);
    const second = await ended(db, again.job.id);
    const secondLog = await logOf(db, second.id);
    expect(second.status, secondLog).toBe('COMPLETE');
    expect(ranOn(secondLog, others)).toBeDefined();
    expect(secondLog).toContain("Placed 2 of the workspace's files in the project");
    expect(Number(second.rows_loaded), secondLog).toBe(0);

    // A worker killed mid-job loses its lease; the other runs the retry to COMPLETE.
    const slow = await createPipeline(db, workspaceId, { name: 'slow', script: 'echo started; sleep 3; echo finished', draft: false, maxRetries: 1 });
    if (!slow.ok) throw new Error('pipeline name taken');
    const slowRun = await enqueueJob(db, slow.pipeline.id, { kind: 'MANUAL' });
    if (slowRun.status !== 'QUEUED') throw new Error(slowRun.status);
    const victim = await waitFor(
      async () => {
        const log = await logOf(db, slowRun.job.id);
        return log.split('\n').includes('started') ? ranOn(log, others) : undefined;
      },
      'the slow job to start',
    );
    victim.child.kill('SIGKILL');
    const lost = await ended(db, slowRun.job.id);
    expect(lost.status).toBe('ERROR');
    expect(lost.end_reason).toBe('RUNNER_LOST');
    const retry = await waitFor(() => db.selectFrom('jobs').selectAll().where('retry_of', '=', lost.id).executeTakeFirst(), 'the retry');
    const retried = await ended(db, retry.id);
    const retryLog = await logOf(db, retried.id);
    expect(retried.status, retryLog).toBe('COMPLETE');
    expect(ranOn(retryLog, others)).toBe(others.find((w) => w !== victim));
    expect(retryLog).toContain('finished');
  }, 90_000);
});
