// `npm run bench`: what the first route costs the browser, and how many authenticated API reads
// per second our server serves next to a bare Fastify hello-world measured in the same run.
// It prints figures and the targets; it does not pass or fail on timing (that would flake).
//
// Every server under test runs in a child process of its own and autocannon runs here, so the
// load generator never shares an event loop with the server it measures. The child is our real
// entry point as `npm start` runs it (server/main.ts compiled to dist-server/main.js): it opens
// its own database (PGlite cannot be shared between processes), migrates and seeds the demo at
// start exactly as production does; this process then signs in over HTTP through the embedded
// identity provider, like any client.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO } from '../server/seed';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';
import { printBundleReport, printDatasetPageReport } from './bundle';
import { CONNECTIONS, MEASURE_SECONDS, WARM_UP_SECONDS, measure, type Measurement } from './measure';
import { benchCsvExport } from './datasets';
import { benchDrain, benchLogStream } from './lab';
import { benchSandbox } from './sandbox';
import { benchSearch, SEARCH_DATASETS, SEARCH_P95_TARGET_MS } from './search';
import { idleRss, printFootprints, timeNpmStart, type Footprint } from './footprint';
import { rssBytes, SERVER_ENTRY, startChild } from './processes';
import { createScratchDatabase } from './scratch-postgres';

interface Endpoint {
  name: string;
  path: string;
  /** share of the bare figure and p99 the issue asks for, per database */
  target: Record<'pglite' | 'postgres', number>;
}

const P99_TARGET_MS = 50;
const ENDPOINTS: Endpoint[] = [
  { name: 'workspaces', path: '/api/workspaces?size=99', target: { postgres: 20, pglite: 8 } },
  { name: 'feed', path: `/api/workspaces/${DEMO.workspaceId}/feed?page=0&size=10`, target: { postgres: 12, pglite: 5 } },
];

interface Row {
  database: string;
  endpoint: string;
  result: Measurement;
  /** the bare figure this row is a share of: the mean of the bare runs just before and after its database's block */
  bare: number;
  target?: { share: number; p99: number | undefined };
}

/** One trivial statement per request through our data layer, on the same database: the floor of a design with one round trip. */
async function measureFloor(kind: 'pglite' | 'postgres', databaseUrl: string | undefined): Promise<Omit<Row, 'bare'>> {
  const port = await freePort();
  const floor = await startChild('bench/floor-server.ts', { PORT: String(port), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, `http://127.0.0.1:${port}/`);
  try {
    return { database: kind, endpoint: 'floor: 1 query', result: await measure(`http://127.0.0.1:${port}/`, {}, floor.process.pid) };
  } finally {
    await floor.stop();
  }
}

async function measureOurs(kind: 'pglite' | 'postgres', databaseUrl: string | undefined): Promise<Omit<Row, 'bare'>[]> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    // Reads are measured alone: the seeded pipelines' first runs and the scheduler stay off.
    RUNNER_ENABLED: 'false',
    SCHEDULER_ENABLED: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  // the compiled server as `npm start` runs it: its memory and start are figures of their own
  const server = await startChild(SERVER_ENTRY, env, `${baseUrl}/config.json`);
  const footprint: Footprint = { database: kind, firstStartMs: server.readyMs, idleRss: await idleRss(server), afterLoadRss: undefined, npmStartMs: undefined };
  footprints.push(footprint);
  try {
    const { accessToken } = await signIn(baseUrl, DEMO.member);
    const headers = { authorization: `Bearer ${accessToken}` };
    const rows: Omit<Row, 'bare'>[] = [];
    for (const endpoint of ENDPOINTS) {
      const check = await fetch(`${baseUrl}${endpoint.path}`, { headers });
      if (!check.ok) throw new Error(`${endpoint.path} answered ${check.status} on ${kind}: ${await check.text()}`);
      const result = await measure(`${baseUrl}${endpoint.path}`, headers, server.process.pid);
      rows.push({ database: kind, endpoint: endpoint.name, result, target: { share: endpoint.target[kind], p99: kind === 'postgres' ? P99_TARGET_MS : undefined } });
    }
    footprint.afterLoadRss = rssBytes(server.process.pid);
    return rows;
  } catch (error) {
    console.error(server.output());
    throw error;
  } finally {
    await server.stop();
    // a second start, now of `npm start` itself, on the built tree and the database the first one seeded
    footprint.npmStartMs = await timeNpmStart(env, `${baseUrl}/config.json`).catch((error: unknown) => {
      console.error(`npm start on ${kind}: ${String(error)}`);
      return undefined;
    });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const footprints: Footprint[] = [];

const cpu = (result: Measurement) => (result.serverCpuUs === undefined ? '—' : result.serverCpuUs.toFixed(0));

function printTable(bareRuns: Measurement[], rows: Row[]): void {
  const header = ['database', 'endpoint', 'req/s', '% of bare', 'p50 ms', 'p99 ms', 'non-2xx', 'server CPU µs/req', 'target'];
  const lines = [
    ...bareRuns.map((result, i) => ['—', `bare hello-world #${i + 1}`, result.requestsPerSecond.toFixed(0), '100 %', String(result.p50), String(result.p99), String(result.non2xx + result.errors), cpu(result), '']),
    ...rows.map(({ database, endpoint, result, bare, target }) => {
      const share = (100 * result.requestsPerSecond) / bare;
      const met = target !== undefined && share >= target.share && (target.p99 === undefined || result.p99 < target.p99);
      const verdict = target ? `${met ? 'met' : 'NOT met'} (≥ ${target.share} %${target.p99 === undefined ? '' : `, p99 < ${target.p99} ms`})` : '';
      return [database, endpoint, result.requestsPerSecond.toFixed(0), `${share.toFixed(1)} %`, String(result.p50), String(result.p99), String(result.non2xx + result.errors), cpu(result), verdict];
    }),
  ];
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  const format = (cells: string[]) => `  ${cells.map((cell, c) => (c < 2 || c === 8 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`;
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

printBundleReport(path.resolve('dist'));
printDatasetPageReport(path.resolve('dist'));

const adminUrl = process.env.BENCH_DATABASE_URL;
console.log(
  `\nAuthenticated reads (the demo member's token), ${CONNECTIONS} connections, ${WARM_UP_SECONDS} s warm-up + ${MEASURE_SECONDS} s each, ${os.cpus().length} CPUs${adminUrl ? '' : '; set BENCH_DATABASE_URL for PostgreSQL'}.`,
);
console.log('The bare yardstick is measured before and after each database, and each row is a share of the two around it.');

// The yardstick runs all along in its own process; it is idle while ours is measured.
const barePort = await freePort();
const bareServer = await startChild('bench/bare-server.ts', { PORT: String(barePort) }, `http://127.0.0.1:${barePort}/`);
const measureBare = () => measure(`http://127.0.0.1:${barePort}/`, {}, bareServer.process.pid);
const bareRuns: Measurement[] = [];
const rows: Row[] = [];
try {
  const blocks: Array<{ kind: 'pglite' | 'postgres'; url: string | undefined }> = [{ kind: 'pglite', url: undefined }];
  const scratch = adminUrl ? await createScratchDatabase(adminUrl) : undefined;
  if (scratch) blocks.push({ kind: 'postgres', url: scratch.url });
  try {
    bareRuns.push(await measureBare());
    for (const block of blocks) {
      const measured = [await measureFloor(block.kind, block.url), ...(await measureOurs(block.kind, block.url))];
      bareRuns.push(await measureBare());
      const bare = (bareRuns.at(-2)!.requestsPerSecond + bareRuns.at(-1)!.requestsPerSecond) / 2;
      rows.push(...measured.map((row) => ({ ...row, bare })));
    }
  } finally {
    await scratch?.drop();
  }
} finally {
  await bareServer.stop();
}
printTable(bareRuns, rows);
printFootprints(footprints);

console.log(`\nThe Lab: a 100,000-line job log read through the logs link in pages of 10,000 (NDJSON)${adminUrl ? '' : '; set BENCH_DATABASE_URL for PostgreSQL and the queue drain'}:`);
console.log(await benchLogStream('pglite', undefined));
if (adminUrl) {
  for (const run of [(url: string) => benchLogStream('postgres', url), benchDrain]) {
    const scratch = await createScratchDatabase(adminUrl);
    try {
      console.log(await run(scratch.url));
    } finally {
      await scratch.drop();
    }
  }
}

console.log(`\nDatasets: a 1,000,000-row dataset exported as CSV through its data link (streamed, no row cap)${adminUrl ? '' : '; set BENCH_DATABASE_URL for PostgreSQL'}:`);
console.log(await benchCsvExport('pglite', undefined));
if (adminUrl) {
  const scratch = await createScratchDatabase(adminUrl);
  try {
    console.log(await benchCsvExport('postgres', scratch.url));
  } finally {
    await scratch.drop();
  }
}

console.log(`\nSearch: ${SEARCH_DATASETS.toLocaleString('en')} datasets, through the search engine in process; target p95 ≤ ${SEARCH_P95_TARGET_MS} ms on PostgreSQL${adminUrl ? '' : '; set BENCH_DATABASE_URL for PostgreSQL'}:`);
console.log((await benchSearch('pglite', undefined)).join('\n'));
if (adminUrl) {
  const scratch = await createScratchDatabase(adminUrl);
  try {
    console.log((await benchSearch('postgres', scratch.url)).join('\n'));
  } finally {
    await scratch.drop();
  }
}

console.log(`\nThe job sandbox: a trivial \`true\` job from start to end, ${os.cpus().length} CPUs, 30 runs each after 2 warm-up runs:`);
console.log((await benchSandbox()).join('\n'));
