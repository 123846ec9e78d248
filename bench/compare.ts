// `npm run bench:compare -- <revision> [read] [postgres-admin-url]`: this tree's server against an
// earlier revision's, on one read, in one run. Both compiled servers run at once, each on its own
// fresh database (a scratch PostgreSQL database with the admin URL, else PGlite), and the load
// alternates between them in short bursts (A B B A …). The host's speed drifts by a third within
// minutes on a shared machine; bursts a few seconds apart see much the same drift, which two runs
// of `npm run bench` minutes apart cannot offer. Trust server CPU per request over req/s: two
// builds of the same code differ by 0–3 % in it, their req/s by up to a sixth on a noisy host.
// `read` is a name of bench/reads.ts (default feed) or a path; BENCH_BURSTS sets the bursts per
// server (default 10). It prints figures, never a verdict.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { DEMO } from '../server/seed';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';
import { CONNECTIONS, cpuSeconds, postgresCpuSeconds } from './measure';
import { readServerEnv, SERVER_ENTRY, startChild, type Child } from './processes';
import { readPath } from './reads';
import { createScratchDatabase, type ScratchDatabase } from './scratch-postgres';

const WARM_UP_SECONDS = 3;
const BURST_SECONDS = 2;

const [revision, readName = 'feed', adminUrl] = process.argv.slice(2);
if (!revision) {
  console.error('usage: npm run bench:compare -- <revision> [read] [postgres-admin-url]');
  process.exit(2);
}
const bursts = Number(process.env.BENCH_BURSTS ?? 10);
const readUrlPath = readPath(readName);

interface Contender {
  label: string;
  entry: string;
  server?: Child;
  scratch?: ScratchDatabase | undefined;
  dataDir?: string;
  url?: string;
  headers?: Record<string, string>;
  requests: number;
  serverCpu: number;
  databaseCpu: number;
  perBurst: number[];
}

/** The revision's server, compiled in a worktree of its own that borrows this tree's packages and built SPA. */
function buildRevision(dir: string): string {
  execFileSync('git', ['worktree', 'add', '--detach', dir, revision!], { stdio: 'ignore' });
  for (const shared of ['node_modules', 'dist']) fs.symlinkSync(path.resolve(shared), path.join(dir, shared));
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--server-only'], { cwd: dir, stdio: 'ignore' });
  } catch {
    throw new Error(`${revision} does not build its server alone (node --import tsx scripts/build.ts --server-only failed in ${dir})`);
  }
  return path.join(dir, SERVER_ENTRY);
}

async function start(contender: Contender): Promise<void> {
  contender.scratch = adminUrl ? await createScratchDatabase(adminUrl) : undefined;
  contender.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  contender.server = await startChild(contender.entry, readServerEnv(port, contender.dataDir, contender.scratch?.url), `${baseUrl}/config.json`);
  contender.headers = { authorization: `Bearer ${(await signIn(baseUrl, DEMO.member)).accessToken}` };
  contender.url = `${baseUrl}${readUrlPath}`;
  const check = await fetch(contender.url, { headers: contender.headers });
  if (!check.ok) throw new Error(`${contender.label} answered ${readUrlPath} with ${check.status}: ${await check.text()}`);
}

async function burst(contender: Contender, seconds: number, counted: boolean): Promise<void> {
  const pid = contender.server!.process.pid;
  const before = { server: cpuSeconds(pid) ?? 0, database: postgresCpuSeconds() ?? 0 };
  const result = await autocannon({ url: contender.url!, connections: CONNECTIONS, duration: seconds, headers: contender.headers });
  if (!counted) return;
  contender.serverCpu += (cpuSeconds(pid) ?? 0) - before.server;
  contender.databaseCpu += (postgresCpuSeconds() ?? 0) - before.database;
  contender.requests += result.requests.total;
  contender.perBurst.push(result.requests.average);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const perRequest = (seconds: number, requests: number) => (requests === 0 ? Number.NaN : (seconds * 1e6) / requests);

const worktree = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-rev-'));
fs.rmdirSync(worktree);
const contender = (label: string, entry: string): Contender => ({ label, entry, requests: 0, serverCpu: 0, databaseCpu: 0, perBurst: [] });
const contenders: Contender[] = [];
try {
  contenders.push(contender(revision, buildRevision(worktree)), contender('this tree', SERVER_ENTRY));
  for (const each of contenders) await start(each);
  for (const each of contenders) await burst(each, WARM_UP_SECONDS, false);
  for (let round = 0; round < bursts; round++) {
    for (const each of round % 2 === 0 ? contenders : [...contenders].reverse()) await burst(each, BURST_SECONDS, true);
  }
  console.log(`${readUrlPath} on ${adminUrl ? 'PostgreSQL' : 'PGlite'}, ${CONNECTIONS} connections, ${bursts} bursts of ${BURST_SECONDS} s each, alternated:`);
  const rows = contenders.map((c) => ({
    label: c.label,
    rps: median(c.perBurst),
    server: perRequest(c.serverCpu, c.requests),
    database: adminUrl ? perRequest(c.databaseCpu, c.requests) : undefined,
    bursts: c.perBurst.map((rps) => rps.toFixed(0)).join(' '),
  }));
  const width = Math.max(...rows.map((row) => row.label.length));
  for (const row of rows) {
    const database = row.database === undefined ? '' : `  PostgreSQL ${row.database.toFixed(0).padStart(5)} µs/req`;
    console.log(`  ${row.label.padEnd(width)}  ${row.rps.toFixed(0).padStart(6)} req/s (median burst)  server ${row.server.toFixed(0).padStart(5)} µs/req${database}  bursts: ${row.bursts}`);
  }
  const [before, after] = rows as [(typeof rows)[0], (typeof rows)[0]];
  const change = (from: number, to: number) => `${to >= from ? '+' : ''}${((100 * (to - from)) / from).toFixed(1)} %`;
  console.log(`  this tree against ${revision}: req/s ${change(before.rps, after.rps)}, server CPU per request ${change(before.server, after.server)}`);
} finally {
  for (const each of contenders) {
    await each.server?.stop();
    await each.scratch?.drop();
    if (each.dataDir) fs.rmSync(each.dataDir, { recursive: true, force: true });
  }
  if (fs.existsSync(worktree)) execFileSync('git', ['worktree', 'remove', '--force', worktree], { stdio: 'ignore' });
}
