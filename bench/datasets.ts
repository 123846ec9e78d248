// The dataset page's figure for `npm run bench`: a 1,000,000-row dataset exported as CSV through
// its data link (Accept: text/csv), rows/s and the server's peak RSS, on each database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { pino } from 'pino';
import { openDatabase } from '../server/db/database';
import { storeDbOf } from '../server/db/storeDatabase';
import { newId } from '../server/repositories/ids';
import { DEMO, seedDemo } from '../server/seed';
import { storeSchemaName } from '../server/stores/defaultStore';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';
import { cpuSeconds } from './measure';
import { SERVER_ENTRY, startChild, type Child } from './processes';

const EXPORT_ROWS = 1_000_000;
/** Issue 21's targets: rows/s per database, and the most the server's RSS may grow during an export. */
const TARGET_ROWS_PER_S: Record<string, number> = { postgres: 300_000, pglite: 150_000 };
const TARGET_RSS_GROWTH_KB = 64 * 1024;

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

function rssKb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** A store table of EXPORT_ROWS rows and a dataset reading it, written before the server starts. */
async function prepareBigDataset(dataDir: string, databaseUrl: string | undefined): Promise<string> {
  const handle = await openDatabase({ url: databaseUrl, dataDir });
  try {
    await seedDemo(handle.db, pino({ level: 'silent' }));
    const schema = storeSchemaName(DEMO.workspaceId);
    // the stores' own database on PGlite, the app's on PostgreSQL (server/db/storeDatabase.ts)
    const store = storeDbOf(handle.db);
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(store);
    await sql`CREATE TABLE ${sql.id(schema, 'bench_export')} AS
      SELECT g AS id, md5(g::text) AS label, (g % 1000) * 1.5 AS amount, now() - g * interval '1 minute' AS at
      FROM generate_series(1, ${EXPORT_ROWS}) g`.execute(store);
    const id = newId();
    await handle.db
      .insertInto('datasets')
      .values({ id, workspace_id: DEMO.workspaceId, title: 'Bench export', description_content_type: 'text/markdown', query: 'SELECT id, label, amount, at FROM bench_export ORDER BY id' })
      .execute();
    return id;
  } finally {
    await handle.close();
  }
}

/** Downloads the CSV once, counting lines as they arrive; the server's RSS sampled all along. */
export async function benchCsvExport(kind: string, databaseUrl: string | undefined): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-csv-'));
  let server: Child | undefined;
  try {
    const datasetId = await prepareBigDataset(dataDir, databaseUrl);
    const port = await freePort();
    const env = { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn', RUNNER_ENABLED: 'false', SCHEDULER_ENABLED: 'false', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
    server = await startChild(SERVER_ENTRY, env, `http://127.0.0.1:${port}/config.json`);
    const pid = server.process.pid;
    const { accessToken } = await signIn(`http://127.0.0.1:${port}`, DEMO.member);
    // one read of the dataset first: it checks the query, which loads PostgreSQL's parser (~20 MB
    // of RSS on first use, server/stores/sqlParser.ts), a one-time cost, not the export's
    const warm = await fetch(`http://127.0.0.1:${port}/api/datasets/${datasetId}`, { headers: { authorization: `Bearer ${accessToken}` } });
    if (!warm.ok) throw new Error(`the dataset answered ${warm.status}`);
    const before = rssKb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssKb(pid));
    }, 50);
    let lines = 0;
    let bytes = 0;
    const cpuBefore = cpuSeconds(pid) ?? Number.NaN;
    const started = performance.now();
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/datasets/${datasetId}/data`, { headers: { authorization: `Bearer ${accessToken}`, accept: 'text/csv' } });
      if (!response.ok || !response.body) throw new Error(`data answered ${response.status}: ${await response.text()}`);
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        // indexOf, not a loop over every byte: the client shares the machine's cores with the server
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = (cpuSeconds(pid) ?? Number.NaN) - cpuBefore;
    if (lines !== EXPORT_ROWS + 1) throw new Error(`exported ${lines - 1} rows of ${EXPORT_ROWS}`);
    const rate = EXPORT_ROWS / seconds;
    const growth = peak - before;
    const target = TARGET_ROWS_PER_S[kind] ?? Number.NaN;
    return [
      `  ${kind.padEnd(8)} ${EXPORT_ROWS.toLocaleString('en')} rows (${(bytes / 1e6).toFixed(0)} MB) in ${seconds.toFixed(2)} s: ${rate.toFixed(0)} rows/s (target ≥ ${target.toLocaleString('en')}); server CPU ${cpu.toFixed(2)} s (${((cpu / EXPORT_ROWS) * 1e6).toFixed(2)} µs/row)`,
      `  ${''.padEnd(8)} server RSS ${mb(before)} before, ${mb(peak)} at most (+${mb(growth)}, target ≤ +${mb(TARGET_RSS_GROWTH_KB)}), ${mb(rssKb(pid))} after`,
    ].join('\n');
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
