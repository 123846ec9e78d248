import { expect } from 'vitest';
import type { Db } from '../../server/db/database';
import { openDatabase } from '../../server/db/database';
import { createDataComponent, type DataComponentInput } from '../../server/repositories/dataComponents';
import { newId } from '../../server/repositories/ids';
import { createPipeline, type PipelineInput, type PipelineRow } from '../../server/repositories/pipelines';
import { Runner, type RunnerLog } from '../../server/runner';
import type { JobRow } from '../../server/runner/queue';
import { createTestDatabase, type TestDatabase } from '../support/server';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const quiet: RunnerLog = { info: () => undefined, warn: () => undefined, error: (o, m) => console.error(m, o), trace: () => undefined };

export interface Bench {
  db: Db;
  database: TestDatabase;
  dataDir: string;
  workspaceId: string;
  runner: Runner | undefined;
  startRunner(overrides?: Partial<ConstructorParameters<typeof Runner>[0]>): Promise<Runner>;
  pipeline(input: Partial<PipelineInput> & { name: string }): Promise<PipelineRow>;
  component(input: DataComponentInput): Promise<void>;
  close(): Promise<void>;
}

/** A database (PGlite in memory, or a fresh PostgreSQL database), a workspace, and a runner on demand. */
export async function startBench(): Promise<Bench> {
  const database = await createTestDatabase();
  const handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
  const db = handle.db;
  const workspaceId = newId();
  await db.insertInto('workspaces').values({ id: workspaceId, name: `Runner test ${workspaceId.slice(0, 8)}`, domains: '[]', app_properties: '{}', status: 'READY' }).execute();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-test-'));
  const runners: Runner[] = [];
  const bench: Bench = {
    db,
    database,
    dataDir,
    workspaceId,
    runner: undefined,
    async startRunner(overrides = {}) {
      const runner = new Runner({
        db,
        exclusiveDatabase: database.url === undefined,
        dataDir,
        log: quiet,
        concurrency: 2,
        leaseMs: 5000,
        pollMs: 200,
        retryBaseMs: 0,
        killGraceMs: 1000,
        shutdownGraceMs: 2000,
        ...overrides,
      });
      await runner.start();
      runners.push(runner);
      bench.runner = runner;
      return runner;
    },
    async pipeline(input) {
      const created = await createPipeline(db, workspaceId, { draft: false, ...input });
      if (!created.ok) throw new Error('pipeline name taken');
      return created.pipeline;
    },
    async component(input) {
      const created = await createDataComponent(db, workspaceId, input);
      if (!created.ok) throw new Error('component name taken');
    },
    async close() {
      for (const r of runners) await r.stop();
      await handle.close();
      await database.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return bench;
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function jobById(db: Db, id: string): Promise<JobRow> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function waitForStatus(db: Db, id: string, statuses: readonly string[], timeoutMs?: number): Promise<JobRow> {
  return waitFor(async () => {
    const job = await jobById(db, id);
    return statuses.includes(job.status) ? job : undefined;
  }, `job ${id} to reach ${statuses.join('/')}`, timeoutMs);
}

export async function logOf(db: Db, id: string): Promise<string[]> {
  const rows = await db.selectFrom('job_logs').select(['sequence', 'message']).where('job_id', '=', id).orderBy('sequence').execute();
  rows.forEach((r, i) => expect(r.sequence).toBe(i + 1));
  return rows.map((r) => r.message);
}
