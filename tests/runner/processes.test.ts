import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { newId } from '../../server/repositories/ids';
import { createPipeline } from '../../server/repositories/pipelines';
import { enqueueJob } from '../../server/runner';
import { createTestDatabase, type TestDatabase } from '../support/server';
import { startServerProcess, type ServerProcess } from './serverProcess';
import { logOf, waitFor } from './helpers';

const postgres = Boolean(process.env.TEST_DATABASE_URL);

async function prepare(database: TestDatabase, pipelines: Array<{ name: string; script: string }>): Promise<string[]> {
  const handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
  try {
    const workspaceId = newId();
    await handle.db.insertInto('workspaces').values({ id: workspaceId, name: 'Processes', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
    const jobs: string[] = [];
    for (const p of pipelines) {
      const created = await createPipeline(handle.db, workspaceId, { name: p.name, script: p.script, draft: false });
      if (!created.ok) throw new Error('name');
      const queued = await enqueueJob(handle.db, created.pipeline.id, { kind: 'MANUAL' });
      if (queued.status !== 'QUEUED') throw new Error(queued.status);
      jobs.push(queued.job.id);
    }
    return jobs;
  } finally {
    await handle.close();
  }
}

describe('runner processes', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  });

  it('kill -9 mid-job: after a restart nothing is RUNNING without a live lease and every line written before the kill is kept', async () => {
    const database = await createTestDatabase({ persistent: true });
    cleanup.push(() => database.dispose());
    const dataDir = database.url ? fs.mkdtempSync(path.join(os.tmpdir(), 'runner-kill-')) : database.dataDir;
    const [jobId] = await prepare(database, [{ name: 'long', script: 'for i in $(seq 1 400); do echo "line $i"; sleep 0.02; done' }]);
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url };

    const first = await startServerProcess(env);
    cleanup.push(() => Promise.resolve(first.child.kill('SIGKILL')));
    const written = await first.waitForLog((l) => l.jobId === jobId && l.msg === 'runner: job log written' && Number(l.sequence) >= 40, 'forty lines written');
    first.child.kill('SIGKILL');
    await first.exited;
    const lastWritten = Math.max(...first.logs.filter((l) => l.jobId === jobId && l.msg === 'runner: job log written').map((l) => Number(l.sequence)));
    expect(lastWritten).toBeGreaterThanOrEqual(Number(written.sequence));

    const second: ServerProcess = await startServerProcess(env);
    cleanup.push(() => Promise.resolve(second.child.kill('SIGKILL')));
    await second.waitForLog((l) => l.jobId === jobId && l.msg === 'runner: recovered a job whose runner was lost', 'the lost job to be recovered');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
    try {
      const job = await handle.db.selectFrom('jobs').selectAll().where('id', '=', jobId!).executeTakeFirstOrThrow();
      expect(job.status).toBe('ERROR');
      expect(job.end_reason).toBe('RUNNER_LOST');
      const running = await handle.db.selectFrom('jobs').select('id').where('status', '=', 'RUNNING').execute();
      expect(running).toEqual([]);
      const lines = await handle.db.selectFrom('job_logs').select(['sequence', 'message']).where('job_id', '=', jobId!).orderBy('sequence').execute();
      lines.forEach((line, i) => expect(line.sequence).toBe(i + 1));
      expect(lines.length).toBeGreaterThan(lastWritten);
      // line 1 is the runner's "Job started", line 2 how the job is sandboxed; the script's lines follow in order
      expect(lines[1]!.message).toMatch(/^Sandbox: /);
      for (let i = 2; i < lastWritten; i++) expect(lines[i]!.message).toBe(`line ${i - 1}`);
      expect(lines.some((l) => l.message.startsWith('The runner running this job was lost'))).toBe(true);
    } finally {
      await handle.close();
    }
    // Two embedded-database starts and a killed process: about a minute on a busy 2-core machine.
  }, 150_000);

  it.runIf(postgres)('two server processes on one PostgreSQL drain 200 queued jobs, each run exactly once', async () => {
    const database = await createTestDatabase();
    cleanup.push(() => database.dispose());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-drain-'));
    // each run appends its job id to a file of its project (the one place a sandboxed job writes)
    const jobs = await prepare(database, Array.from({ length: 200 }, (_, i) => ({ name: `trivial ${i}`, script: 'echo "$JOB_ID" >> "$MELTANO_PROJECT_ROOT/runs.txt"' })));
    const env = { DATA_DIR: dir, DATABASE_URL: database.url, RUNNER_CONCURRENCY: '4', RUNNER_POLL_MS: '100' };
    const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    cleanup.push(() => Promise.resolve(a.child.kill('SIGKILL')), () => Promise.resolve(b.child.kill('SIGKILL')));
    const handle = await openDatabase({ url: database.url, dataDir: 'memory://' });
    try {
      await waitFor(async () => {
        const left = await handle.db.selectFrom('jobs').select('id').where('status', 'in', ['QUEUED', 'RUNNING']).execute();
        return left.length === 0 ? true : undefined;
      }, 'the queue to drain', 90_000);
      const statuses = await handle.db.selectFrom('jobs').select(['id', 'status']).where('id', 'in', jobs).execute();
      // a job that did not complete is named with its log, so a failure says why
      const failed = statuses.filter((s) => s.status !== 'COMPLETE');
      const why = await Promise.all(failed.slice(0, 3).map(async (s) => `${s.id} ${s.status}: ${(await logOf(handle.db, s.id)).join(' | ')}`));
      expect(failed, why.join('\n')).toEqual([]);
      expect(statuses).toHaveLength(200);
      const [project] = fs.readdirSync(path.join(dir, 'projects'));
      const ran = fs.readFileSync(path.join(dir, 'projects', project!, 'runs.txt'), 'utf8').trim().split('\n');
      expect(ran).toHaveLength(200);
      expect(new Set(ran).size).toBe(200);
      expect(new Set(ran)).toEqual(new Set(jobs));
      const firstLines = await handle.db.selectFrom('job_logs').select('message').where('sequence', '=', 1).where('job_id', 'in', jobs).execute();
      const runners = new Set(firstLines.map((l) => /runner ([^)]+)\)/.exec(l.message)?.[1]));
      expect(runners.size).toBe(2);
    } finally {
      await handle.close();
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      await Promise.all([a.exited, b.exited]);
    }
  }, 120_000);
});
