// `npm run bench`: what the first route costs the browser, and how many authenticated API reads
// per second our server serves next to the one-query floor measured in the same run; at the end,
// rows per second loaded by our pipelines and by Meltano's next to PostgreSQL's COPY (pipelines.ts).
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
import { setTimeout as delay } from 'node:timers/promises';
import { DEMO } from '../server/seed';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';
import { printBundleReport, printDatasetPageReport } from './bundle';
import { CONNECTIONS, MEASURE_SECONDS, WARM_UP_SECONDS, measure, type Measurement } from './measure';
import { benchCsvExport } from './datasets';
import { printBigCsv } from './bigCsv';
import { benchDatasetPage } from './datasetPage';
import { benchDrain, benchLogStream } from './lab';
import { printPipelines } from './pipelines';
import { benchSandbox } from './sandbox';
import { benchSearch, SEARCH_DATASETS, SEARCH_P95_TARGET_MS } from './search';
import { AFTER_LOAD_SETTLE_MS, idleRss, printFootprints, timeNpmStart, type Footprint } from './footprint';
import { readServerEnv, rssBytes, SERVER_ENTRY, startChild } from './processes';
import { READS } from './reads';
import { createScratchDatabase } from './scratch-postgres';

interface Endpoint {
  name: string;
  path: string;
  /**
   * The targets per database: the share of the one-query floor's req/s, and the p99. On PostgreSQL
   * they are the measured bound issue 39 set (the list reached 39 % and the feed 19 % of the floor,
   * and Node's own HTTP machinery holds most of the rest: docs/decisions.md), kept from regressing;
   * issue 21's 50 % and 25 % are no longer the bar.
   */
  target: Record<'pglite' | 'postgres', { share?: number; p99?: number }>;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'workspaces', path: READS.workspaces, target: { postgres: { share: 35, p99: 50 }, pglite: {} } },
  { name: 'feed', path: READS.feed, target: { postgres: { share: 18, p99: 50 }, pglite: { p99: 100 } } },
];

interface Row {
  database: 'pglite' | 'postgres';
  endpoint: string;
  result: Measurement;
  target?: { share?: number; p99?: number };
}

const FLOOR = 'floor: 1 query';

/** One trivial statement per request through our data layer, on the same database: the floor of a design with one round trip. */
async function measureFloor(kind: 'pglite' | 'postgres', databaseUrl: string | undefined): Promise<Row> {
  const port = await freePort();
  const floor = await startChild('bench/floor-server.ts', { PORT: String(port), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, `http://127.0.0.1:${port}/`);
  try {
    return { database: kind, endpoint: FLOOR, result: await measure(`http://127.0.0.1:${port}/`, {}, floor.process.pid) };
  } finally {
    await floor.stop();
  }
}

async function measureOurs(kind: 'pglite' | 'postgres', databaseUrl: string | undefined): Promise<Row[]> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const env = readServerEnv(port, dataDir, databaseUrl);
  // the compiled server as `npm start` runs it: its memory and start are figures of their own
  const server = await startChild(SERVER_ENTRY, env, `${baseUrl}/config.json`);
  const footprint: Footprint = { database: kind, firstStartMs: server.readyMs, idleRss: await idleRss(server), afterLoadRss: undefined, settledRss: undefined, npmStartMs: undefined };
  footprints.push(footprint);
  try {
    const { accessToken } = await signIn(baseUrl, DEMO.member);
    const headers = { authorization: `Bearer ${accessToken}` };
    const rows: Row[] = [];
    for (const endpoint of ENDPOINTS) {
      const check = await fetch(`${baseUrl}${endpoint.path}`, { headers });
      if (!check.ok) throw new Error(`${endpoint.path} answered ${check.status} on ${kind}: ${await check.text()}`);
      const result = await measure(`${baseUrl}${endpoint.path}`, headers, server.process.pid);
      rows.push({ database: kind, endpoint: endpoint.name, result, target: endpoint.target[kind] });
    }
    footprint.afterLoadRss = rssBytes(server.process.pid);
    await delay(AFTER_LOAD_SETTLE_MS);
    footprint.settledRss = rssBytes(server.process.pid);
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

const us = (micros: number | undefined) => (micros === undefined ? '—' : micros.toFixed(0));

/**
 * The machine's CPU per request: the server's, PostgreSQL's (on PGlite it runs inside the server)
 * and the load generator's, which share the same cores. Their sum bounds the req/s any server
 * design could reach here for the same statement and body; it is printed beside each row.
 */
const machineCpuUs = (result: Measurement) =>
  result.serverCpuUs === undefined || result.databaseCpuUs === undefined ? undefined : result.serverCpuUs + result.databaseCpuUs + result.loadCpuUs;

/** Each row beside the one-query floor of its own database, measured just before it. */
function printTable(rows: Row[]): void {
  const header = ['database', 'endpoint', 'req/s', 'share of floor', 'p50 ms', 'p99 ms', 'non-2xx', 'server CPU µs/req', 'PostgreSQL µs/req', 'load gen µs/req', 'machine bound req/s', 'target'];
  const floors = new Map(rows.filter((row) => row.endpoint === FLOOR).map((row) => [row.database, row.result.requestsPerSecond]));
  const cores = os.cpus().length;
  const lines = rows.map(({ database, endpoint, result, target }) => {
    const share = (100 * result.requestsPerSecond) / floors.get(database)!;
    // each target judged on its own: a row that misses one still shows the other met
    const verdict = [
      target?.share === undefined ? '' : `≥ ${target.share} % ${share >= target.share ? 'met' : 'NOT met'}`,
      target?.p99 === undefined ? '' : `p99 < ${target.p99} ms ${result.p99 < target.p99 ? 'met' : 'NOT met'}`,
    ]
      .filter(Boolean)
      .join('; ');
    const machine = machineCpuUs(result);
    return [
      database,
      endpoint,
      result.requestsPerSecond.toFixed(0),
      `${share.toFixed(1)} %`,
      String(result.p50),
      String(result.p99),
      String(result.non2xx + result.errors),
      us(result.serverCpuUs),
      database === 'postgres' ? us(result.databaseCpuUs) : 'in server',
      us(result.loadCpuUs),
      machine === undefined ? '—' : ((cores * 1e6) / machine).toFixed(0),
      verdict,
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  const last = header.length - 1;
  const format = (cells: string[]) => `  ${cells.map((cell, c) => (c < 2 || c === last ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`;
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  console.log(`  machine bound: ${cores} cores divided by the CPU per request of server, PostgreSQL and load generator together, which share them.`);
}

printBundleReport(path.resolve('dist'));
printDatasetPageReport(path.resolve('dist'));

const adminUrl = process.env.BENCH_DATABASE_URL;
console.log(
  `\nAuthenticated reads (the demo member's token), ${CONNECTIONS} connections, ${WARM_UP_SECONDS} s warm-up + ${MEASURE_SECONDS} s each, ${os.cpus().length} CPUs${adminUrl ? '' : '; set BENCH_DATABASE_URL for PostgreSQL'}.`,
);
console.log('Each database first serves the one-query floor (one trivial statement through our data layer, in its own server); each row is a share of it.');

const rows: Row[] = [];
rows.push(await measureFloor('pglite', undefined), ...(await measureOurs('pglite', undefined)));
if (adminUrl) {
  const scratch = await createScratchDatabase(adminUrl);
  try {
    rows.push(await measureFloor('postgres', scratch.url), ...(await measureOurs('postgres', scratch.url)));
  } finally {
    await scratch.drop();
  }
}
printTable(rows);
printFootprints(footprints);

console.log('\nThe dataset page: the requests one load makes (dataset, view, data, comments, alerts, related) and their server CPU, over 200 sequential loads:');
for (const database of adminUrl ? ['pglite', 'postgres'] : ['pglite']) {
  const scratch = database === 'postgres' && adminUrl ? await createScratchDatabase(adminUrl) : undefined;
  try {
    const { requests, cpuUsPerLoad } = await benchDatasetPage(scratch?.url);
    console.log(`  ${database}: ${requests} requests, ${cpuUsPerLoad.toFixed(0)} µs server CPU per load`);
  } finally {
    await scratch?.drop();
  }
}

console.log(`\nThe Lab: a 100,000-line job log read through the logs link in pages of 10,000 (NDJSON)${adminUrl ? '' : '; set BENCH_DATABASE_URL for PostgreSQL and the queue drain'}:`);
console.log(await benchLogStream('pglite', undefined));
if (adminUrl) {
  // the queue drain by 1, 2 and 4 workers: jobs per second one PostgreSQL serves (issue 42)
  for (const run of [(url: string) => benchLogStream('postgres', url), ...[1, 2, 4].map((workers) => (url: string) => benchDrain(url, workers))]) {
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

await printPipelines(adminUrl);

// last: a 2 GB CSV through the same path, the longest section (BENCH_BIGCSV_MB makes it smaller)
await printBigCsv(adminUrl);
