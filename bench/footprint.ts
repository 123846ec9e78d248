// The server process itself: its memory idle and after the reads' load, and how soon a start
// answers, beside the targets of issue 21. Measured on what `npm start` runs (the compiled server
// with its node options, bench/processes.ts), never on the TypeScript sources under tsx.
import { setTimeout as delay } from 'node:timers/promises';
import { rssBytes, startCommand, startNpmStart, SERVER_ENTRY, type Child } from './processes';

const IDLE_RSS_TARGET_MB: Record<'pglite' | 'postgres', number> = { postgres: 150, pglite: 250 };
/** RSS after the load at most this many times the idle figure */
const AFTER_LOAD_FACTOR = 1.5;
/** `npm start` on a built tree and an existing database answers within this */
const FIRST_ANSWER_TARGET_MS = 3000;
/** how long a started server is left alone before its idle memory is read */
const IDLE_SETTLE_MS = 5000;
/**
 * How long the server is left alone after the reads before its memory is read again. Read at once,
 * RSS holds the garbage of the last seconds of load, which V8 collects and returns once allocation
 * stops (its memory reducer, within about 10 s here): 250 MB right after, 165 MB 15 s later, and the
 * same again after each of three rounds of load, so the figure a growing server would show is the settled one.
 */
export const AFTER_LOAD_SETTLE_MS = 15_000;

export interface Footprint {
  database: 'pglite' | 'postgres';
  /** spawn to first answer on a new database: migrations and the demo seed included */
  firstStartMs: number;
  idleRss: number | undefined;
  /** right after the reads, and AFTER_LOAD_SETTLE_MS later */
  afterLoadRss: number | undefined;
  settledRss: number | undefined;
  /** `npm start` (build check included) to first answer, on the same database once seeded */
  npmStartMs: number | undefined;
}

/** RSS of a just-started server left alone for IDLE_SETTLE_MS. */
export async function idleRss(server: Child): Promise<number | undefined> {
  await delay(IDLE_SETTLE_MS);
  return rssBytes(server.process.pid);
}

/** Runs `npm start` with `env` until `readyUrl` first answers, and stops it. */
export async function timeNpmStart(env: Record<string, string>, readyUrl: string): Promise<number> {
  const started = await startNpmStart(env, readyUrl);
  await started.stop();
  return started.readyMs;
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '—' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);
const seconds = (ms: number | undefined) => (ms === undefined || Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(2)} s`);
const verdict = (met: boolean | undefined, target: string) => `${met === undefined ? '—' : met ? 'met' : 'NOT met'} (${target})`;

const ratio = (rss: number | undefined, idle: number | undefined) => `${mb(rss)}${idle && rss ? ` (${(rss / idle).toFixed(2)}×)` : ''}`;

export function printFootprints(footprints: readonly Footprint[]): void {
  const { env, nodeOptions } = startCommand();
  const command = [...Object.entries(env).map(([name, value]) => `${name}=${value}`), 'node', ...nodeOptions, SERVER_ENTRY].join(' ');
  console.log(`\nThe server process, as \`npm start\` runs it (${command}); idle = ${IDLE_SETTLE_MS / 1000} s after its first answer, after load = right after the reads above and ${AFTER_LOAD_SETTLE_MS / 1000} s later (the target applies to the later):`);
  const header = ['database', 'first start (new db)', 'idle RSS', 'target', 'right after load', 'settled', 'target', 'npm start → first answer', 'target'];
  const lines = footprints.map((f) => {
    const idleTarget = IDLE_RSS_TARGET_MB[f.database];
    const idleMet = f.idleRss === undefined ? undefined : f.idleRss <= idleTarget * 1024 * 1024;
    const loadMet = f.idleRss === undefined || f.settledRss === undefined ? undefined : f.settledRss <= AFTER_LOAD_FACTOR * f.idleRss;
    const startMet = f.npmStartMs === undefined ? undefined : f.npmStartMs <= FIRST_ANSWER_TARGET_MS;
    return [
      f.database,
      seconds(f.firstStartMs),
      mb(f.idleRss),
      verdict(idleMet, `≤ ${idleTarget} MB`),
      ratio(f.afterLoadRss, f.idleRss),
      ratio(f.settledRss, f.idleRss),
      verdict(loadMet, `≤ ${AFTER_LOAD_FACTOR}× idle`),
      seconds(f.npmStartMs),
      verdict(startMet, `≤ ${FIRST_ANSWER_TARGET_MS / 1000} s, built tree, existing database`),
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  for (const cells of [header, ...lines]) console.log(`  ${cells.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')}`);
}
