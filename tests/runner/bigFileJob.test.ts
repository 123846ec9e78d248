import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDbOf } from '../../server/db/storeDatabase';
import { enqueueJob } from '../../server/runner';
import { loadRunnerSettings } from '../../server/runner/config';
import { projectDir } from '../../server/runner/project';
import { treeUsage } from '../../server/runner/sandbox/watch';
import { storeSchemaName } from '../../server/stores/defaultStore';
import { logOf, startBench, waitForStatus, type Bench } from './helpers';

// A file larger than the job's memory loads through tap-files (issue 39, item 2): a pipeline
// tap-files → target-store, a job of the real runner in its sandbox under RUNNER_MEMORY_MB, reads a
// CSV bigger than that limit. The runner's own watch ends a job whose processes hold more, so a
// COMPLETE job stayed within it; the test samples the job's processes and this process (the
// server's runner and bridge, which every row passes) besides. Every row lands, counted exactly;
// the one bad row is named by file and line and skipped, or ends the run with fail_on_bad_rows.
// PostgreSQL only: on PGlite in memory the store itself lives in this process, so its growth is
// the loaded table's and no bound on the path.

const MEMORY_MB = 320;
const FILE_MB = MEMORY_MB + 40;
/** what this process may gain while every row passes through its bridge */
const SERVER_GROWTH_MB = 128;
const MB = 1024 * 1024;

const postgres = process.env.TEST_DATABASE_URL;

describe.runIf(postgres)('tap-files → target-store on a file larger than the job may hold', () => {
  let bench: Bench;
  let project: string;
  let rows = 0;
  beforeAll(async () => {
    bench = await startBench();
    const base = loadRunnerSettings({}).sandbox;
    await bench.startRunner({ sandbox: { ...base, limits: { ...base.limits, memoryMb: MEMORY_MB } }, diskQuotaMb: FILE_MB * 2, concurrency: 1 });
    await bench.component({ name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' });
    project = projectDir(bench.dataDir, bench.workspaceId);
    fs.mkdirSync(path.join(project, 'files'), { recursive: true });
    // rows of about 1 KB: the file passes the limit in a few hundred thousand rows
    const out = fs.createWriteStream(path.join(project, 'files', 'big.csv'));
    const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve())));
    await write('id,name,amount,at,note\n');
    const filler = 'lorem ipsum dolor sit amet '.repeat(34);
    let bytes = 0;
    let chunk = '';
    while (bytes < FILE_MB * MB) {
      rows++;
      chunk += `${rows},"name ${rows}, quoted",${(rows % 1000) / 10},2026-01-01T00:00:${String(rows % 60).padStart(2, '0')}Z,${filler}${rows}\n`;
      // one bad row, its line the header's plus 100 good rows plus itself
      if (rows === 100) chunk += '0,too,many,fields,in,this row\n';
      if (chunk.length > MB) {
        bytes += chunk.length;
        await write(chunk);
        chunk = '';
      }
    }
    await write(chunk);
    await new Promise<void>((resolve) => out.end(resolve));
    fs.writeFileSync(path.join(project, 'files', 'small.csv'), 'id,name\n1,one\n2,two,three\n3,three\n');
  }, 180_000);
  afterAll(() => bench?.close());

  let pipelines = 0;
  const run = async (properties: Record<string, unknown>, sample?: (job: { rss: number; server: number }) => void) => {
    const name = `tap-files-${++pipelines}`;
    await bench.component({ name, pluginType: 'EXTRACTOR', pluginName: 'tap-files', variant: 'builtin', properties });
    const pipeline = await bench.pipeline({ name: `big file ${pipelines}`, dataComponents: [name, 'target-store'], timeout: 900 });
    const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    // every process below this one is the job's (the sandbox's launcher, the shim, the tap, the target)
    const watch = sample && setInterval(() => sample({ rss: treeUsage(process.pid).rssBytes, server: process.memoryUsage().rss }), 200);
    try {
      const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 900_000);
      return { job, log: (await logOf(bench.db, job.id)).join('\n') };
    } finally {
      clearInterval(watch);
    }
  };

  it('loads every row of a CSV larger than RUNNER_MEMORY_MB, the job and the server within bounds, the bad row named', async () => {
    const size = fs.statSync(path.join(project, 'files', 'big.csv')).size;
    expect(size).toBeGreaterThan(MEMORY_MB * MB);
    const serverStart = process.memoryUsage().rss;
    let jobPeak = 0;
    let serverPeak = serverStart;
    const { job, log } = await run({ paths: ['files/big.csv'], key_properties: { big: ['id'] } }, ({ rss, server }) => {
      jobPeak = Math.max(jobPeak, rss);
      serverPeak = Math.max(serverPeak, server);
    });
    // the runner's watch would have stopped it, naming RUNNER_MEMORY_MB
    expect(job.status, log).toBe('COMPLETE');
    expect(log).not.toContain('Memory limit exceeded');
    expect(jobPeak).toBeGreaterThan(0);
    expect(jobPeak).toBeLessThan(MEMORY_MB * MB);
    expect(serverPeak - serverStart, `this process grew from ${(serverStart / MB).toFixed(0)} MB to ${(serverPeak / MB).toFixed(0)} MB`).toBeLessThan(SERVER_GROWTH_MB * MB);
    expect(Number(job.rows_loaded)).toBe(rows);
    expect(Object.fromEntries(Object.entries(job.rows_by_stream).map(([stream, n]) => [stream, Number(n)]))).toEqual({ big: rows });
    const stored = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.id(storeSchemaName(bench.workspaceId), 'big')}`.execute(storeDbOf(bench.db));
    expect(stored.rows[0]!.n).toBe(rows);
    expect(log).toContain('tap-files | files/big.csv line 102 has 6 fields, the header 5: skipped');
    expect(log).toContain(`tap-files | big: ${rows} records from files/big.csv (1 bad rows skipped)`);
  }, 900_000);

  it('ends the run at the first bad row when fail_on_bad_rows is set, naming its file and line', async () => {
    const { job, log } = await run({ paths: ['files/small.csv'], fail_on_bad_rows: true });
    expect(job.status).toBe('ERROR');
    expect(log).toContain('tap-files | ERROR files/small.csv line 3 has 3 fields, the header 2 (fail_on_bad_rows is set)');
  }, 120_000);
});
