// `npm run bench:profile -- <endpoint> [postgres-url]`: where one read's server time goes.
// Starts the compiled server with `--cpu-prof`, signs in as the demo member, loads one endpoint of
// bench/run.ts for a few seconds at 50 connections, stops the server (which writes the profile) and
// prints the functions with the most self time and the files that hold the most time in total.
// BENCH_NODE_ARGS adds node options (say, a heap size) to try. The .cpuprofile stays in the printed folder for Chrome DevTools or speedscope.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO } from '../server/seed';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';
import { measure } from './measure';
import { idleRss } from './footprint';
import { readServerEnv, rssBytes, SERVER_ENTRY, startChild } from './processes';
import { readPath } from './reads';
import { createScratchDatabase } from './scratch-postgres';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [endpointName = 'feed', adminUrl] = process.argv.slice(2);
const endpointPath = readPath(endpointName);

/** Self time per function and total self time per file (node_modules folded to the package). */
function summarise(profile: CpuProfile): { functions: [string, number][]; files: [string, number][] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.replace(/^file:\/\//, '').replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, 'npm:$1').replace(process.cwd() + '/', '') || '(native)';
    functions.set(`${frame.functionName || '(anonymous)'}  ${file}:${frame.lineNumber + 1}`, (functions.get(`${frame.functionName || '(anonymous)'}  ${file}:${frame.lineNumber + 1}`) ?? 0) + micros);
    files.set(file, (files.get(file) ?? 0) + micros);
  }
  const top = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return { functions: top(functions), files: top(files) };
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '—' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

const scratch = adminUrl ? await createScratchDatabase(adminUrl) : undefined;
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-profile-'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env = readServerEnv(port, dataDir, scratch?.url);
const server = await startChild(SERVER_ENTRY, env, `${baseUrl}/config.json`, 60_000, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)]);
try {
  const idle = await idleRss(server);
  const { accessToken } = await signIn(baseUrl, DEMO.member);
  const result = await measure(`${baseUrl}${endpointPath}`, { authorization: `Bearer ${accessToken}` }, server.process.pid);
  console.log(`${endpointPath} on ${scratch ? 'PostgreSQL' : 'PGlite'}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99} ms, ${result.serverCpuUs?.toFixed(0) ?? '—'} µs CPU/req; RSS idle ${mb(idle)}, after the load ${mb(rssBytes(server.process.pid))}`);
} finally {
  await server.stop();
  await scratch?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const file = fs.readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`the server wrote no profile in ${profileDir}: did it exit normally on SIGTERM?`);
const { functions, files } = summarise(JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile);
const ms = (micros: number) => `${(micros / 1000).toFixed(0).padStart(7)} ms`;
console.log('\nSelf time by function:');
for (const [name, micros] of functions) console.log(`${ms(micros)}  ${name}`);
console.log('\nSelf time by file or package:');
for (const [name, micros] of files) console.log(`${ms(micros)}  ${name}`);
console.log(`\nprofile: ${path.join(profileDir, file)}`);
