import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_BIN_DIR } from '../../server/plugins/catalogue';
import { createTestDatabase, type TestDatabase } from '../support/server';

// tap-postgres reads big tables through a cursor (issue 39, item 2): a table far larger than the
// tap's heap is sent record by record, with the exact count, whether its rows are small (many per
// batch) or 100 KB documents (a fixed 1,000-row batch would be 100 MB at once). The tap runs as a
// job runs it, a process of its own, here with a V8 heap of 64 MB and its peak RSS read from /proc.
// It reads the PostgreSQL of TEST_DATABASE_URL, so it runs in the runner lane's PostgreSQL pass.

const HEAP_MB = 64;
/** Node's own memory beside the heap (the binary, code, buffers): what the tap may hold in all */
const PEAK_MB = 160;
const SMALL_ROWS = 400_000;
const WIDE_ROWS = 3_000;
const WIDE_BYTES = 100_000;

const postgres = process.env.TEST_DATABASE_URL;

describe.runIf(postgres)('tap-postgres on tables larger than its memory', () => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tap-postgres-cursor-'));
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // about 120 MB of small rows as JSON, and 300 MB of documents (TOAST compresses their repeats on disk)
      await client.query(`CREATE TABLE small_rows (id bigint PRIMARY KEY, label text, amount numeric, at timestamptz)`);
      await client.query(`INSERT INTO small_rows SELECT i, 'label ' || md5(i::text) || ' ' || md5((i * 7)::text), i % 1000 / 10.0, timestamptz '2026-01-01' + i * interval '1 minute' FROM generate_series(1, ${SMALL_ROWS}) i`);
      await client.query(`CREATE TABLE documents (id bigint PRIMARY KEY, body text)`);
      await client.query(`INSERT INTO documents SELECT i, repeat(md5(i::text), ${WIDE_BYTES / 32}) FROM generate_series(1, ${WIDE_ROWS}) i`);
    } finally {
      await client.end();
    }
  }, 180_000);
  afterAll(async () => {
    await database?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the tap on one table; its records counted, its log and its peak resident memory. */
  const read = async (table: string) => {
    const url = new URL(database.url!);
    const config = path.join(dir, `${table}.json`);
    fs.writeFileSync(config, JSON.stringify({ host: url.hostname, port: Number(url.port || 5432), user: decodeURIComponent(url.username), password: url.password ? decodeURIComponent(url.password) : undefined, database: url.pathname.slice(1), tables: [table] }));
    const child = spawn(path.join(PLUGIN_BIN_DIR, 'tap-postgres'), ['--config', config], {
      cwd: dir,
      // the job's allow list names the test's database host, as an admin's RUNNER_ALLOWED_HOSTS would
      env: { PATH: process.env.PATH, RUNNER_ALLOWED_HOSTS: url.hostname, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // the launcher execs node, so the child's pid is the tap's; VmHWM keeps the peak between samples
    let peakKb = 0;
    const watch = setInterval(() => {
      try {
        peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
      } catch {
        // the process has ended
      }
    }, 100);
    const log: string[] = [];
    child.stderr.setEncoding('utf8').on('data', (text: string) => log.push(text));
    let records = 0;
    let states = 0;
    for await (const line of readline.createInterface({ input: child.stdout, crlfDelay: Infinity })) {
      if (line.startsWith('{"type":"RECORD"')) records++;
      else if (line.startsWith('{"type":"STATE"')) states++;
    }
    const code = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
    clearInterval(watch);
    return { code, records, states, log: log.join(''), peakMb: peakKb / 1024 };
  };

  it('sends every small row in batches, and holds no more than one batch', async () => {
    const result = await read('small_rows');
    expect(result.code, result.log).toBe(0);
    expect(result.records).toBe(SMALL_ROWS);
    expect(result.log).toContain(`public-small_rows: ${SMALL_ROWS} records (full table)`);
    // a STATE after each full batch: the table came in many batches, not one
    expect(result.states).toBeGreaterThan(20);
    expect(result.peakMb).toBeLessThan(PEAK_MB);
  }, 300_000);

  it('sends every 100 KB document with batches sized by bytes, not rows', async () => {
    const result = await read('documents');
    expect(result.code, result.log).toBe(0);
    expect(result.records).toBe(WIDE_ROWS);
    expect(result.log).toContain(`public-documents: ${WIDE_ROWS} records (full table)`);
    expect(result.states).toBeGreaterThan(20);
    expect(result.peakMb).toBeLessThan(PEAK_MB);
  }, 300_000);
});
