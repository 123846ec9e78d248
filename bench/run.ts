// `npm run bench`: what the first route costs the browser, and how fast one authenticated API read is.
// Prints figures; it does not pass or fail on timing (that would flake), only reports the budget.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { buildServer } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { DEMO, seedDemo } from '../server/seed';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';

const FIRST_ROUTE_BUDGET_KB = 300;

function firstRouteAssets(distDir: string): string[] {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  return [...new Set(refs)].map((ref) => path.join(distDir, ref.replace(/^\//, '')));
}

function bundleReport(distDir: string) {
  const files = firstRouteAssets(distDir);
  const rows = files.map((file) => {
    const raw = fs.readFileSync(file);
    return { file: path.relative(distDir, file), kind: path.extname(file).slice(1), raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  });
  const total = rows.reduce((sum, r) => sum + r.gzip, 0);
  const lazy = fs.readdirSync(path.join(distDir, 'assets')).filter((f) => f.endsWith('.js')).length - rows.filter((r) => r.kind === 'js').length;
  return { rows, total, lazy };
}

async function apiReport() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const port = await freePort();
  const config = loadConfig({ ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://localhost:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const database = await openDatabase({ url: process.env.BENCH_DATABASE_URL, dataDir });
  const server = await buildServer({ config, db: database.db, logger: false });
  try {
    await seedDemo(database.db, server.app.log);
    await server.app.listen({ port, host: '127.0.0.1' });
    const baseUrl = `http://localhost:${port}`;
    const { accessToken } = await signIn(baseUrl, DEMO.member);
    const url = `${baseUrl}/api/workspaces?size=99`;
    const warm = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
    if (!warm.ok) throw new Error(`warm-up read answered ${warm.status}`);
    const result = await autocannon({ url, connections: 50, duration: 10, headers: { authorization: `Bearer ${accessToken}` } });
    return { url: '/api/workspaces?size=99', database: database.kind, result };
  } finally {
    await server.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const bundle = bundleReport(path.resolve('dist'));
console.log('First route (index.html and what it loads eagerly), gzip -9:');
for (const row of bundle.rows) console.log(`  ${row.kind.padEnd(3)} ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} raw ${kb(row.gzip).padStart(10)} gzip`);
console.log(`  total ${kb(bundle.total)} gzip (budget ${FIRST_ROUTE_BUDGET_KB} KB: ${bundle.total <= FIRST_ROUTE_BUDGET_KB * 1024 ? 'within' : 'OVER'}); ${bundle.lazy} more chunks load lazily`);

const api = await apiReport();
const { latency, requests, non2xx, errors } = api.result;
console.log(`\nAuthenticated API read GET ${api.url} on ${api.database}, 50 connections, 10 s:`);
console.log(`  latency p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms`);
console.log(`  throughput ${requests.average.toFixed(0)} req/s (total ${requests.total}); non-2xx ${non2xx}, errors ${errors}`);
