// `npm run bench`: what the first route costs the browser, and how many authenticated API reads
// per second our server serves next to a bare Fastify hello-world measured in the same run.
// It prints figures and the targets; it does not pass or fail on timing (that would flake).
//
// Every server under test runs in a child process of its own and autocannon runs here, so the
// load generator never shares an event loop with the server it measures. The child is our real
// entry point (server/main.ts): it opens its own database (PGlite cannot be shared between
// processes), migrates and seeds the demo at start exactly as production does; this process then
// signs in over HTTP through the embedded identity provider, like any client.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO } from '../server/seed';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';
import { printBundleReport } from './bundle';
import { CONNECTIONS, MEASURE_SECONDS, WARM_UP_SECONDS, measure, type Measurement } from './measure';
import { startChild } from './processes';
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
  target?: { share: number; p99: number | undefined };
}

async function measureBare(): Promise<Measurement> {
  const port = await freePort();
  const bare = await startChild('bench/bare-server.ts', { PORT: String(port) }, `http://127.0.0.1:${port}/`);
  try {
    return await measure(`http://127.0.0.1:${port}/`);
  } finally {
    await bare.stop();
  }
}

async function measureOurs(kind: 'pglite' | 'postgres', databaseUrl: string | undefined): Promise<Row[]> {
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
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const server = await startChild('server/main.ts', env, `${baseUrl}/config.json`);
  try {
    const { accessToken } = await signIn(baseUrl, DEMO.member);
    const headers = { authorization: `Bearer ${accessToken}` };
    const rows: Row[] = [];
    for (const endpoint of ENDPOINTS) {
      const check = await fetch(`${baseUrl}${endpoint.path}`, { headers });
      if (!check.ok) throw new Error(`${endpoint.path} answered ${check.status} on ${kind}: ${await check.text()}`);
      const result = await measure(`${baseUrl}${endpoint.path}`, headers);
      rows.push({ database: kind, endpoint: endpoint.name, result, target: { share: endpoint.target[kind], p99: kind === 'postgres' ? P99_TARGET_MS : undefined } });
    }
    return rows;
  } catch (error) {
    console.error(server.output());
    throw error;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(bare: Measurement, rows: Row[]): void {
  const header = ['database', 'endpoint', 'req/s', '% of bare', 'p50 ms', 'p99 ms', 'non-2xx', 'target'];
  const lines = [bare, ...rows.map((r) => r.result)].map((result, i) => {
    const row = i === 0 ? undefined : rows[i - 1];
    const share = (100 * result.requestsPerSecond) / bare.requestsPerSecond;
    const target = row?.target;
    const verdict = target
      ? `${share >= target.share && (target.p99 === undefined || result.p99 < target.p99) ? 'met' : 'NOT met'} (≥ ${target.share} %${target.p99 === undefined ? '' : `, p99 < ${target.p99} ms`})`
      : '';
    return [
      row?.database ?? '—',
      row?.endpoint ?? 'bare hello-world',
      result.requestsPerSecond.toFixed(0),
      `${share.toFixed(1)} %`,
      String(result.p50),
      String(result.p99),
      String(result.non2xx + result.errors),
      verdict,
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  const format = (cells: string[]) => `  ${cells.map((cell, c) => (c < 2 || c === 7 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`;
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

printBundleReport(path.resolve('dist'));

const adminUrl = process.env.BENCH_DATABASE_URL;
console.log(
  `\nAuthenticated reads (the demo member's token), ${CONNECTIONS} connections, ${WARM_UP_SECONDS} s warm-up + ${MEASURE_SECONDS} s each, ${os.cpus().length} CPUs${adminUrl ? '' : '; set BENCH_DATABASE_URL for PostgreSQL'}:`,
);
const bare = await measureBare();
const rows = await measureOurs('pglite', undefined);
if (adminUrl) {
  const scratch = await createScratchDatabase(adminUrl);
  try {
    rows.push(...(await measureOurs('postgres', scratch.url)));
  } finally {
    await scratch.drop();
  }
}
printTable(bare, rows);
