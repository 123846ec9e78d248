import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DAILY_CRON } from '../../src/domain/cron';
import { openDatabase } from '../../server/db/database';
import { DEMO, DEMO_PIPELINES } from '../../server/seed';
import { DEMO_DATASETS } from '../../server/seed/demoContent';
import { DEMO_SHOWCASE } from '../../server/seed/showcase';
import { storeSchemaName, storeTables } from '../../server/stores/defaultStore';
import { checkQuery } from '../../server/stores/queryGuard';
import { runQuery } from '../../server/stores/queryRunner';
import { createTestDatabase } from '../support/server';
import { startServerProcess, type ServerProcess } from './serverProcess';
import { storeDbOf } from '../../server/db/storeDatabase';

const postgres = Boolean(process.env.TEST_DATABASE_URL);

describe('the demo seed of the Lab', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  });

  it(`on a fresh ${postgres ? 'PostgreSQL (two servers starting together)' : 'embedded database'}, the seeded pipelines run to COMPLETE and their rows land in the default store`, async () => {
    const database = await createTestDatabase({ persistent: true });
    cleanup.push(() => database.dispose());
    const dataDir = database.url ? fs.mkdtempSync(path.join(os.tmpdir(), 'seed-runs-')) : database.dataDir;
    if (database.url) cleanup.push(() => fs.promises.rm(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, SEED_DEMO: 'true', LOG_LEVEL: 'info' };

    // Two processes can share PostgreSQL only; the embedded database belongs to one.
    const servers: ServerProcess[] = await Promise.all((postgres ? [1, 2] : [1]).map(() => startServerProcess(env)));
    for (const s of servers) cleanup.push(() => Promise.resolve(s.child.kill('SIGKILL')));
    const ended = () => servers.flatMap((s) => s.logs.filter((l) => l.msg === 'runner: job ended'));
    await Promise.race(servers.map((s) => s.waitForLog(() => ended().length >= 2, 'both seeded runs to end', 90_000)));
    expect(ended().map((l) => l.status)).toEqual(['COMPLETE', 'COMPLETE']);
    for (const s of servers) s.child.kill('SIGTERM');
    expect(await Promise.all(servers.map((s) => s.exited))).toEqual(servers.map(() => 0));

    const handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
    try {
      const db = handle.db;
      const pipelines = await db.selectFrom('pipelines').selectAll().where('workspace_id', '=', DEMO.workspaceId).orderBy('name').execute();
      expect(pipelines.map((p) => [p.name, p.draft, p.schedule, p.triggered_by])).toEqual([
        [DEMO_PIPELINES.sales, false, DAILY_CRON, []],
        [DEMO_PIPELINES.reference, false, null, [DEMO_PIPELINES.sales]],
      ]);
      const [sales, reference] = pipelines;
      const jobs = await db.selectFrom('jobs').selectAll().where('pipeline_id', 'is not', null).where('workspace_id', '=', DEMO.workspaceId).orderBy('created').execute();
      // Seeded once, even by two servers: one first run, and the run it triggered.
      expect(jobs.map((j) => [j.pipeline_id, j.trigger_kind, j.status])).toEqual([
        [sales!.id, 'SEED', 'COMPLETE'],
        [reference!.id, 'PIPELINE', 'COMPLETE'],
      ]);
      expect(jobs[1]!.triggered_by_job_id).toBe(jobs[0]!.id);
      expect(Number(jobs[0]!.rows_loaded)).toBeGreaterThan(500);
      expect(Number(jobs[1]!.rows_loaded)).toBe(7 + 24);

      expect(await storeTables(db, DEMO.workspaceId)).toEqual(['countries', 'customers', 'orders', 'sales_targets', 'web_sessions']);
      const schema = storeSchemaName(DEMO.workspaceId);
      const rows = async (table: string) => (await sql<Record<string, unknown>>`SELECT * FROM ${sql.id(schema, table)}`.execute(storeDbOf(db))).rows;
      const countries = await rows('countries');
      expect(countries).toHaveLength(7);
      expect(countries.find((c) => c.code === 'GB')).toMatchObject({ name: 'United Kingdom', currency: 'GBP' });
      expect(await rows('sales_targets')).toHaveLength(24);
      expect((await rows('orders')).length).toBeGreaterThan(100);
      // Every demo dataset's query answers rows from what the runs loaded, and each table's last load is recorded.
      for (const dataset of [...DEMO_DATASETS, ...DEMO_SHOWCASE]) {
        if (dataset.query === undefined) continue;
        const result = await runQuery(db, DEMO.workspaceId, await checkQuery(dataset.query), 1000, { timeoutMs: 10_000 });
        expect(result.rows.length, dataset.alias).toBeGreaterThan(0);
        // Revenue Targets vs Actuals (issue 38): whole past months with orders only, never a zero or a month to come
        if (dataset.alias === 'sales/targets-vs-actuals') {
          const thisMonth = new Date().toISOString().slice(0, 7);
          for (const row of result.rows as { month: string; actual: number; target: number }[]) {
            expect(row.actual, row.month).toBeGreaterThan(0);
            expect(row.month < thisMonth, row.month).toBe(true);
          }
        }
      }
      const loads = await db.selectFrom('store_loads').select(['table_name', 'job_id']).where('workspace_id', '=', DEMO.workspaceId).orderBy('table_name').execute();
      expect(loads).toEqual([
        { table_name: 'countries', job_id: jobs[1]!.id },
        { table_name: 'customers', job_id: jobs[0]!.id },
        { table_name: 'orders', job_id: jobs[0]!.id },
        { table_name: 'sales_targets', job_id: jobs[1]!.id },
        { table_name: 'web_sessions', job_id: jobs[0]!.id },
      ]);
      const store = await db.selectFrom('data_stores').select(['name', 'is_default']).where('workspace_id', '=', DEMO.workspaceId).execute();
      expect(store).toEqual([{ name: 'Default store', is_default: true }]);
    } finally {
      await handle.close();
    }
  }, 210_000);
});
