import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { newId } from '../../server/repositories/ids';
import { createPipeline } from '../../server/repositories/pipelines';
import { enqueueJob } from '../../server/runner';
import { createTestDatabase } from '../support/server';
import { waitFor } from './helpers';
import { startServerProcess, type ProcessKind } from './serverProcess';

// The scale-out topology (README "Scale out"): API processes without runner or scheduler, and
// `npm run worker` processes with no HTTP, sharing one PostgreSQL.

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const WORKER: ProcessKind = { entry: 'server/worker.ts', ready: (l) => l.msg === 'worker: ready' };
const API_ONLY: ProcessKind = { entry: 'server/main.ts', ready: (l) => l.msg === 'ready' };

describe('npm run worker', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  });

  it.runIf(!postgres)('refuses the embedded database, saying why', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-pglite-'));
    cleanup.push(() => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })));
    const worker = await startServerProcess({ DATA_DIR: dataDir }, { entry: 'server/worker.ts' });
    expect(await worker.exited).toBe(2);
    expect(worker.logs.some((l) => String(l.msg).startsWith('a worker needs DATABASE_URL'))).toBe(true);
  });

  it.runIf(postgres)('a worker runs the jobs while the API process runs none', async () => {
    const database = await createTestDatabase();
    cleanup.push(() => database.dispose());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-pg-'));
    cleanup.push(() => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })));
    const handle = await openDatabase({ url: database.url, dataDir: 'memory://' });
    cleanup.push(() => handle.close());
    const workspaceId = newId();
    await handle.db.insertInto('workspaces').values({ id: workspaceId, name: 'Worker', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
    const created = await createPipeline(handle.db, workspaceId, { name: 'hello', script: 'echo "hello from the worker"', draft: false });
    if (!created.ok) throw new Error('pipeline name taken');

    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url };
    const api = await startServerProcess({ ...env, RUNNER_ENABLED: 'false', SCHEDULER_ENABLED: 'false' }, API_ONLY);
    cleanup.push(() => Promise.resolve(api.child.kill('SIGKILL')));
    const worker = await startServerProcess(env, WORKER);
    cleanup.push(() => Promise.resolve(worker.child.kill('SIGKILL')));

    const queued = await enqueueJob(handle.db, created.pipeline.id, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    const job = await waitFor(async () => {
      const row = await handle.db.selectFrom('jobs').select(['status']).where('id', '=', queued.job.id).executeTakeFirstOrThrow();
      return row.status === 'COMPLETE' || row.status === 'ERROR' ? row : undefined;
    }, 'the job to end', 60_000);
    expect(job.status).toBe('COMPLETE');
    const lines = await handle.db.selectFrom('job_logs').select('message').where('job_id', '=', queued.job.id).orderBy('sequence').execute();
    expect(lines[0]?.message).toContain(`:${worker.child.pid}:`);
    expect(lines.map((l) => l.message)).toContain('hello from the worker');
    expect(api.logs.some((l) => l.msg === 'runner: started')).toBe(false);

    worker.child.kill('SIGTERM');
    api.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await api.exited).toBe(0);
  }, 120_000);
});
