// A CSV of any size, for `npm run bench` and `npm run bench:bigcsv` (issue 39, item 2: a 2 GB CSV
// loads with at most 128 MB of RSS growth in any process). The file goes through the real job path
// (tap-files → target-store into the workspace's store on PostgreSQL, a job of the real runner in
// its sandbox, the workspace of bench/pipeline-workspace.ts), while the memory of every process of
// the server's tree is sampled from /proc. A process's growth is what the big file adds to it:
//   - the server's: its peak during the big job (VmHWM, reset at the job's start) minus its RSS then;
//   - a job process's (the tap, the target, the pipeline's shim): its peak on the big file minus its
//     peak on a small file of the same rows, run just before: both start the same processes, so
//     what differs is what the file's size made them hold (a process's own start is no growth).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../server/db/database';
import { freePort } from '../tests/support/server';
import { BUILT_IN_MARKS, jobPhases } from './job-phases';
import { prepareWorkspace, resetPipeline, runJob, storedRows, type BenchWorkspace } from './pipeline-workspace';
import { SERVER_ENTRY, serverEnv, startChild, type Child } from './processes';
import { createScratchDatabase } from './scratch-postgres';

const BIG_CSV_GROWTH_TARGET_MB = 128;
const DEFAULT_MB = 2048;
/** the small file each job process's start is measured on */
const SMALL_ROWS = 10_000;
const SAMPLE_MS = 200;
const MB = 1024 * 1024;

/**
 * Rows a CSV export might carry: an id, a label, an amount, a timestamp and a line of free text
 * (about 170 bytes in all). The columns and their types are the same for every row, so the small
 * and the big file make the same table.
 */
function row(id: number): string {
  const at = new Date(Date.UTC(2024, 0, 1) + id * 60_000).toISOString();
  const hash = ((id * 2654435761) % 4294967296).toString(16).padStart(8, '0');
  return `${id},item ${hash},${(id % 1000) * 1.5},${at},"note ${hash}, ${'lorem ipsum dolor sit amet '.repeat(3)}${id % 97}"\n`;
}

/** Writes `bytes` or a little more of rows to `file` in 4 MB chunks; the rows written. */
async function writeCsv(file: string, bytes: number | undefined, rows?: number): Promise<number> {
  const out = fs.createWriteStream(file);
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve())));
  await write('id,label,amount,at,note\n');
  let written = 0;
  let size = 0;
  let chunk: string[] = [];
  let chunkBytes = 0;
  while ((rows !== undefined && written < rows) || (bytes !== undefined && size < bytes)) {
    const line = row(++written);
    chunk.push(line);
    chunkBytes += line.length;
    size += line.length;
    if (chunkBytes >= 4 * MB) {
      await write(chunk.join(''));
      chunk = [];
      chunkBytes = 0;
    }
  }
  await write(chunk.join(''));
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return written;
}

/** One process's memory as /proc has it, in bytes; undefined once it ended. */
function status(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** Every process below `root`, from the kernel's children lists. */
function descendants(root: number): number[] {
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        for (const child of fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) {
          if (child.trim()) {
            found.push(Number(child));
            queue.push(Number(child));
          }
        }
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return found;
}

/** What a job process is, from its command line: the built-in plugin it runs, or its program's name. */
function roleOf(pid: number): string | undefined {
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    // a process that is ending has no command line left: it is counted under its name until then
    if (args.length === 0) return undefined;
    // a built-in plugin runs as `node … <plugins>/bin/../taps/files.ts …`, or compiled as
    // `node …/dist-server/plugins/taps/files.js …` under the compiled server (server/plugins/bin/_launch)
    const module = args.find((arg) => arg.endsWith('.ts') || /\/dist-server\/plugins\/.*\.js$/.test(arg));
    const plugin = module === undefined ? undefined : /(?:(?:^|\/)(taps|targets)\/)?([\w-]+)\.(?:ts|js)$/.exec(module);
    if (plugin) return plugin[1] === 'taps' ? `tap-${plugin[2]}` : plugin[1] === 'targets' ? `target-${plugin[2]}` : plugin[2] === 'meltano' ? 'meltano (the pipeline shim)' : plugin[2];
    return path.basename(args[0] ?? '?');
  } catch {
    return undefined;
  }
}

/** The peak resident memory of each kind of process in the server's tree while a job runs. */
class TreeSampler {
  private readonly peaks = new Map<string, number>();
  /** each kind's peak so far at every sample, the server as 'server': a plateau or a climb */
  private readonly series: Array<{ at: number; peaks: Map<string, number> }> = [];
  private timer: NodeJS.Timeout | undefined;
  serverStart = 0;
  serverPeak = 0;

  constructor(private readonly server: number) {}

  start(): void {
    // the server's peak counts from here: writing 5 to clear_refs resets its VmHWM to its VmRSS
    fs.writeFileSync(`/proc/${this.server}/clear_refs`, '5');
    this.serverStart = status(this.server)?.rss ?? 0;
    this.serverPeak = this.serverStart;
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  /** The peaks by kind of process (the server's apart), once the job ended. */
  stop(): Map<string, number> {
    clearInterval(this.timer);
    this.sample();
    return this.peaks;
  }

  private sample(): void {
    const server = status(this.server);
    if (server) this.serverPeak = Math.max(this.serverPeak, server.hwm);
    for (const pid of descendants(this.server)) {
      // read each time: a plugin's launcher (bash) execs node under the same pid
      const role = roleOf(pid);
      if (role === undefined) continue;
      const now = status(pid);
      // VmHWM keeps a process's peak between two samples
      if (now) this.peaks.set(role, Math.max(this.peaks.get(role) ?? 0, now.hwm));
    }
    this.series.push({ at: performance.now(), peaks: new Map([...this.peaks, ['server', this.serverPeak]]) });
  }

  /** Each kind's peak at the run's half-time: beside its final peak, whether memory levelled off or kept climbing with the file. */
  halfway(): Map<string, number> {
    const first = this.series[0]?.at ?? 0;
    const last = this.series.at(-1)?.at ?? 0;
    return [...this.series].reverse().find((s) => s.at <= (first + last) / 2)?.peaks ?? new Map<string, number>();
  }
}

interface Run {
  rows: number;
  seconds: number;
  serverStart: number;
  serverPeak: number;
  peaks: Map<string, number>;
  halfway: Map<string, number>;
}

/** Runs the workspace's built-in pipeline once on its file, sampled; the rows checked exact. */
async function sampledRun(db: Db, workspace: BenchWorkspace, server: Child, rows: number, timeoutS: number): Promise<Run> {
  await resetPipeline(db, workspace.workspaceId, workspace.builtIn);
  const sampler = new TreeSampler(server.process.pid!);
  sampler.start();
  let peaks = new Map<string, number>();
  const job = await runJob(db, workspace.builtIn.id, timeoutS).finally(() => (peaks = sampler.stop()));
  if (job.status !== 'COMPLETE') throw new Error(`the big-CSV job ended ${job.status}: ${job.log.slice(-5).map((line) => line.message).join(' / ')}`);
  const stored = await storedRows(db, workspace.workspaceId, workspace.builtIn);
  if (job.rowsLoaded !== rows || stored !== rows) throw new Error(`the job counted ${job.rowsLoaded} rows and the store holds ${stored}, not ${rows}`);
  const phases = jobPhases(job.log, BUILT_IN_MARKS);
  if (typeof phases === 'string') throw new Error(phases);
  return { rows, seconds: phases.start + phases.rows, serverStart: sampler.serverStart, serverPeak: sampler.serverPeak, peaks, halfway: sampler.halfway() };
}

const mb = (bytes: number) => (bytes / MB).toFixed(0);

/** The file's size in MB: BENCH_BIGCSV_MB, else 2 GB. */
function bigCsvMb(): number {
  const mbSetting = Number(process.env.BENCH_BIGCSV_MB ?? DEFAULT_MB);
  if (!Number.isFinite(mbSetting) || mbSetting <= 0) throw new Error(`BENCH_BIGCSV_MB must be a number of MB, not ${process.env.BENCH_BIGCSV_MB}`);
  return mbSetting;
}

/** The big CSV through tap-files → target-store on `databaseUrl` (a scratch database of its own); the lines to print. */
async function benchBigCsv(databaseUrl: string, sizeMb = bigCsvMb()): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bigcsv-'));
  const handle = await openDatabase({ url: databaseUrl, dataDir: 'memory://' });
  // a minute per 100 MB and ten more is far beyond this machine's rate (the job would say why it stopped)
  const timeoutS = 600 + Math.ceil(sizeMb / 100) * 60;
  let server: Child | undefined;
  try {
    const workspace = await prepareWorkspace(handle.db, dataDir, SMALL_ROWS, timeoutS);
    const port = await freePort();
    const env = serverEnv(port, dataDir, databaseUrl, {
      SEED_DEMO: 'false',
      SCHEDULER_ENABLED: 'false',
      RUNNER_POLL_MS: '100',
      // the file is the workspace's own: its project may hold it, and the job's CPU time is not what is measured
      WORKSPACE_DISK_QUOTA_MB: String(Math.ceil(sizeMb) + 1024),
      RUNNER_CPU_SECONDS: String(timeoutS * 2),
    });
    server = await startChild(SERVER_ENTRY, env, `http://127.0.0.1:${port}/config.json`);
    // the file tap-files reads: the small one first, each process's start; then the big one
    await writeCsv(workspace.rowsFile, undefined, SMALL_ROWS);
    const small = await sampledRun(handle.db, workspace, server, SMALL_ROWS, timeoutS);
    const written = performance.now();
    const bigRows = await writeCsv(workspace.rowsFile, sizeMb * MB);
    const writeSeconds = (performance.now() - written) / 1000;
    const bytes = fs.statSync(workspace.rowsFile).size;
    const big = await sampledRun(handle.db, workspace, server, bigRows, timeoutS);
    fs.rmSync(workspace.rowsFile, { force: true });

    const serverGrowth = big.serverPeak - big.serverStart;
    const roles = [...big.peaks.keys()].filter((role) => small.peaks.has(role)).sort();
    const growths = roles.map((role) => ({ role, small: small.peaks.get(role)!, big: big.peaks.get(role)!, growth: big.peaks.get(role)! - small.peaks.get(role)! }));
    const worst = Math.max(serverGrowth, ...growths.map((g) => g.growth));
    const size = sizeMb >= 1024 ? `${(sizeMb / 1024).toFixed(sizeMb % 1024 === 0 ? 0 : 1)} GB` : `${sizeMb} MB`;
    return [
      `  ${size} CSV: peak RSS growth ${mb(worst)} MB (target ≤ ${BIG_CSV_GROWTH_TARGET_MB} MB: ${worst <= BIG_CSV_GROWTH_TARGET_MB * MB ? 'met' : 'NOT met'}), rows/s ${Math.round(bigRows / big.seconds).toLocaleString('en')}, rows exact ${bigRows.toLocaleString('en')} (job and store)`,
      `  the file: ${(bytes / MB).toFixed(0)} MB, ${bigRows.toLocaleString('en')} rows of 5 columns, written in ${writeSeconds.toFixed(0)} s; loaded in ${big.seconds.toFixed(0)} s (the run step: the tap's typing pass and its sending pass)`,
      `  server: ${mb(big.serverStart)} MB at the job's start, peak ${mb(big.serverPeak)} MB (${mb(big.halfway.get('server') ?? 0)} MB by half-time), growth ${mb(serverGrowth)} MB`,
      ...growths.map((g) => `  ${g.role}: peak ${mb(g.big)} MB (${mb(big.halfway.get(g.role) ?? 0)} MB by half-time), ${mb(g.small)} MB on ${SMALL_ROWS.toLocaleString('en')} rows, growth ${mb(g.growth)} MB`),
    ];
  } finally {
    await server?.stop();
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The section as `npm run bench` prints it: on a scratch database of `adminUrl`'s server, or a line saying what it needs. */
export async function printBigCsv(adminUrl: string | undefined): Promise<void> {
  const sizeMb = bigCsvMb();
  console.log(
    `\nA ${sizeMb.toLocaleString('en')} MB CSV (BENCH_BIGCSV_MB) through tap-files → target-store into the workspace's store on PostgreSQL, a job of the real runner in its sandbox; peak RSS of the server and every job process sampled from /proc every ${SAMPLE_MS} ms${adminUrl ? '' : '; set BENCH_DATABASE_URL for PostgreSQL'}:`,
  );
  if (!adminUrl) return;
  const scratch = await createScratchDatabase(adminUrl);
  try {
    console.log((await benchBigCsv(scratch.url, sizeMb)).join('\n'));
  } finally {
    await scratch.drop();
  }
}
