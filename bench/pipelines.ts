// Loading rows, for `npm run bench`: the same CSV file pushed through the built-in path
// (tap-files → target-store), through Meltano's (the bench's singer-sdk tap → meltanolabs
// target-postgres, run by the real Meltano the runner provisions) and by PostgreSQL's COPY, the
// floor. Both pipelines run as jobs of the real runner, in the job sandbox, into the workspace's
// store on PostgreSQL, as a user's would; their rates come from the job log's own timestamps,
// install excluded, and Meltano's path is cut into what each part costs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../server/db/database';
import { loadMeltanoSettings } from '../server/runner/meltano/settings';
import { freePort } from '../tests/support/server';
import { timeCopy } from './copy-floor';
import { benchPipelinesPglite, type PgliteRuns } from './pipelines-pglite';
import { createScratchDatabase } from './scratch-postgres';
import { BUILT_IN_MARKS, MELTANO_MARKS, jobPhases, type JobPhases, type Marks } from './job-phases';
import { prepareWorkspace, resetPipeline, runJob, storedRows, type BenchPipeline } from './pipeline-workspace';
import { SERVER_ENTRY, serverEnv, startChild, type Child } from './processes';
import { ROWS_COLUMNS } from './rows-file';

/** Enough rows that the load, not the start, dominates Meltano's run (a minute or more on two shared cores), and the built-in one's. */
const PIPELINE_ROWS = 200_000;

/**
 * Meltano is installed once per machine and version, into the cache the runner's tests use
 * (tests/runner/meltano.test.ts), never into a bench run's own data directory. Outside /root: a
 * root server runs each workspace's sandbox under a uid of its own, which must pass every
 * directory above it. BENCH_MELTANO_FIRST_INSTALL=true installs it into a temporary cache instead,
 * to measure a first install on a machine whose cache is warm.
 */
const MACHINE_CACHE_DIR = process.env.RUNNER_TEST_CACHE_DIR ?? (process.getuid?.() === 0 ? '/var/cache/workspace-runner-test' : path.join(os.homedir(), '.cache', 'workspace-runner-test'));

/** A path's two runs (a new workspace's first, then the next after a Full refresh), or why it has none. */
type PathRuns = { runs: [JobPhases, JobPhases] } | { failed: string };

/** The line that says why a job failed: the runner's about installing, else the last before the job's end. */
function failureOf(log: readonly { message: string }[]): string {
  const install = log.find((line) => /could not be installed/.test(line.message));
  return install?.message ?? log.filter((line) => !/^Job ended /.test(line.message)).at(-1)?.message ?? 'the job wrote no log';
}

async function runTwice(db: Db, workspaceId: string, pipeline: BenchPipeline, marks: Marks): Promise<PathRuns> {
  const runs: JobPhases[] = [];
  for (let run = 0; run < 2; run++) {
    if (run > 0) await resetPipeline(db, workspaceId, pipeline);
    const job = await runJob(db, pipeline.id);
    if (job.status !== 'COMPLETE') return { failed: failureOf(job.log) };
    const stored = await storedRows(db, workspaceId, pipeline);
    if (job.rowsLoaded !== PIPELINE_ROWS || stored !== PIPELINE_ROWS) throw new Error(`${pipeline.table}: the job counted ${job.rowsLoaded} rows and the store holds ${stored}, not ${PIPELINE_ROWS}`);
    const phases = jobPhases(job.log, marks);
    if (typeof phases === 'string') return { failed: phases };
    runs.push(phases);
  }
  return { runs: [runs[0]!, runs[1]!] };
}

const rate = (seconds: number) => Math.round(PIPELINE_ROWS / seconds).toLocaleString('en');
const s = (seconds: number | undefined, digits = 1) => (seconds === undefined ? '—' : seconds.toFixed(digits));
const share = (seconds: number, floor: number) => `${((100 * floor) / seconds).toFixed(1)} %`;

/** Issue 39's targets for the built-in path's rows, beside its figures. */
const TARGETS = { postgres: 'rows ≥ 25 % of COPY and ≥ 150,000 rows/s', pglite: 'rows ≥ 60,000 rows/s' };

/**
 * One row per path and database, the next run of each: its run step (start included) and its rows
 * alone, each beside COPY of the same file on the same database, and the target.
 */
function table(copy: number, builtIn: PathRuns, meltano: PathRuns, pglite: PgliteRuns | { failed: string }): string[] {
  const header = ['database', 'path (next run)', 'run s', 'rows/s', 'of COPY', 'start s', 'rows s', 'rows/s', 'of COPY', 'target'];
  const row = (database: string, name: string, floor: number, phases: JobPhases | { failed: string }, target: string): string[] => {
    if ('failed' in phases) return [database, name, `not measured: ${phases.failed}`];
    const { start, rows } = phases;
    return [database, name, s(start + rows, 2), rate(start + rows), share(start + rows, floor), s(start, 2), s(rows, 2), rate(rows), share(rows, floor), target];
  };
  const floorRow = (database: string, seconds: number) => [database, 'COPY of the file (the floor)', s(seconds, 2), rate(seconds), '100 %', '—', s(seconds, 2), rate(seconds), '100 %', ''];
  const next = (result: PathRuns) => ('failed' in result ? result : result.runs[1]);
  const lines = [
    floorRow('PostgreSQL', copy),
    row('PostgreSQL', 'built-in: tap-files → target-store', copy, next(builtIn), TARGETS.postgres),
    row('PostgreSQL', 'Meltano: tap-bench-csv → target-postgres', copy, next(meltano), ''),
    ...('failed' in pglite ? [['PGlite', `not measured: ${pglite.failed}`]] : [floorRow('PGlite', pglite.copy), row('PGlite', 'built-in: tap-files → target-store', pglite.copy, pglite.next, TARGETS.pglite)]),
  ];
  // a path not measured has its names and the reason only: the names count, the reason spans the columns
  const widths = header.map((h, c) => Math.max(h.length, ...lines.filter((l) => c <= 1 || l.length === header.length).map((l) => l[c]?.length ?? 0)));
  const format = (cells: string[]) => `  ${cells.map((cell, c) => (c <= 1 || c === header.length - 1 || cells.length < header.length ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`.trimEnd();
  return [
    format(header),
    ...lines.map(format),
    "  run: the run step, from its start to the pipeline's end (install excluded); start: to the first row (processes up, the file read and typed); rows: from the first row to the end.",
  ];
}

/** What each part of Meltano's path cost, the first run of a new workspace beside the next (none when it failed: the table says why). */
function meltanoParts(result: PathRuns, cacheDir: string, version: string, fresh: boolean): string[] {
  if ('failed' in result) return [];
  const [first, next] = result.runs;
  const found = (run: JobPhases) => run.beforeRun - (run.install ?? 0);
  const where = `the runner's cache ${cacheDir}${fresh ? ', temporary (BENCH_MELTANO_FIRST_INSTALL)' : ''}`;
  const provisioning =
    first.provisioned === undefined
      ? `already in ${where}: found in ${s(found(first), 2)} s (with the store proxy opened and meltano.yml written); a first install is not measured (BENCH_MELTANO_FIRST_INSTALL=true measures one in a temporary cache)`
      : `installed by the first run into ${where} in ${s(first.provisioned)} s (once per machine and version); found there by the next in ${s(found(next), 2)} s`;
  return [
    "Meltano's path, part by part (from its job logs):",
    `  Meltano ${version}: ${provisioning}`,
    `  the plugins (meltano install into the workspace, once per workspace and pip_url): ${s(first.install)} s in a new workspace, ${s(next.install)} s when nothing changed`,
    `  process start (meltano, the tap and target-postgres up, the file read and typed; a first run also discovers the catalog and imports the plugins for the first time): ${s(first.start)} s first, ${s(next.start)} s next`,
    `  the rows: ${rate(next.rows)} rows/s next (${s(next.rows)} s), ${rate(first.rows)} rows/s first (${s(first.rows)} s)`,
    `  after the run (Meltano's state into the database, the rows counted): ${s(next.after)} s`,
  ];
}

/** The lines `npm run bench` prints before the figures. */
const PIPELINES_HEADING = `Loading: one CSV file of ${PIPELINE_ROWS.toLocaleString('en')} rows (4 columns, keyed by id) into the workspace's store on PostgreSQL and on PGlite, each pipeline a job of the real runner in its sandbox; rates from the job logs' timestamps`;

/** Both paths and the floor on `databaseUrl`, a scratch PostgreSQL database of their own. */
async function benchPipelines(databaseUrl: string): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pipelines-'));
  const fresh = process.env.BENCH_MELTANO_FIRST_INSTALL === 'true';
  const cacheDir = fresh ? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-meltano-cache-')) : MACHINE_CACHE_DIR;
  // the sandbox's uid passes it (mkdtemp makes it 0700)
  if (fresh) fs.chmodSync(cacheDir, 0o755);
  const handle = await openDatabase({ url: databaseUrl, dataDir: 'memory://' });
  let server: Child | undefined;
  try {
    const workspace = await prepareWorkspace(handle.db, dataDir, PIPELINE_ROWS);
    // the second of two COPYs, as the pipelines' next runs are measured: the first warms the file and the server's caches
    await timeCopy(databaseUrl, workspace.rowsFile, PIPELINE_ROWS, ROWS_COLUMNS);
    const copy = await timeCopy(databaseUrl, workspace.rowsFile, PIPELINE_ROWS, ROWS_COLUMNS);
    const port = await freePort();
    const env = serverEnv(port, dataDir, databaseUrl, { SEED_DEMO: 'false', SCHEDULER_ENABLED: 'false', RUNNER_POLL_MS: '100', RUNNER_CACHE_DIR: cacheDir });
    // the server reads the same settings: the version it provisions is the one named here
    const settings = loadMeltanoSettings(dataDir, { ...process.env, ...env });
    server = await startChild(SERVER_ENTRY, env, `http://127.0.0.1:${port}/config.json`);
    const builtIn = await runTwice(handle.db, workspace.workspaceId, workspace.builtIn, BUILT_IN_MARKS);
    let meltano = await runTwice(handle.db, workspace.workspaceId, workspace.meltano, MELTANO_MARKS);
    // a failure that does not name the package index (the plugins' install) gets it named: the usual cause is an index out of reach
    if ('failed' in meltano && !meltano.failed.includes(settings.indexUrl)) meltano = { failed: `${meltano.failed} (package index: ${settings.indexUrl})` };
    await server.stop();
    server = undefined;
    // PGlite's run after PostgreSQL's, so neither shares the machine with the other
    const pglite = await benchPipelinesPglite(PIPELINE_ROWS).catch((error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }));
    return [...table(copy, builtIn, meltano, pglite), ...meltanoParts(meltano, cacheDir, settings.version, fresh)];
  } finally {
    await server?.stop();
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (fresh) fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** The loading section as `npm run bench` prints it: on a scratch database of `adminUrl`'s server, or a line saying what it needs. */
export async function printPipelines(adminUrl: string | undefined): Promise<void> {
  console.log(`\n${PIPELINES_HEADING}${adminUrl ? '' : "; set BENCH_DATABASE_URL for PostgreSQL, which Meltano's target-postgres needs"}:`);
  if (!adminUrl) return;
  const scratch = await createScratchDatabase(adminUrl);
  try {
    console.log((await benchPipelines(scratch.url)).join('\n'));
  } finally {
    await scratch.drop();
  }
}
