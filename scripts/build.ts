// `npm run build` builds the web app (Vite, into dist/) and compiles the server ahead of time
// (esbuild, into dist-server/), so production runs JavaScript without a run-time transpiler.
// `npm start` and `npm run worker` run this with --if-stale: a build whose inputs have not changed
// since its last run (scripts/buildStamp.ts) is skipped, so a start on a built tree is quick.
//
//   node --import tsx scripts/build.ts [--if-stale] [--server-only]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build, version as esbuildVersion, type BuildOptions } from 'esbuild';
import { fingerprint, isCurrent, listInputs, writeStamp } from './buildStamp';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((arg) => !['--if-stale', '--server-only'].includes(arg));
if (unknown.length > 0) {
  console.error(`unknown option ${unknown.join(' ')}; usage: node --import tsx scripts/build.ts [--if-stale] [--server-only]`);
  process.exit(2);
}
const ifStale = args.has('--if-stale');

// ---- the web app -----------------------------------------------------------------------------

/** What the SPA is built from (scripts/: the Vite plugins vite.config.ts imports); tests beside the sources change nothing in it. */
const SPA_INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'scripts', 'tsconfig.json', 'package-lock.json'];
const SPA_OUTPUTS = ['dist/index.html'];
const isTestFile = (file: string) => /\.test\.tsx?$/.test(file);

function buildSpa(): void {
  const files = listInputs(ROOT, SPA_INPUTS, isTestFile);
  // Vite's own environment variables change what it emits; the build mode is the one that matters here
  const extra = `vite ${process.env.NODE_ENV ?? ''}`;
  if (ifStale && isCurrent(ROOT, 'spa', extra, SPA_OUTPUTS, files)) {
    console.log('web app: dist/ is current');
    return;
  }
  const started = Date.now();
  if (ifStale) console.log('web app: building dist/ …');
  // A start prints warnings and errors only; `npm run build` shows Vite's whole report.
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', ...(ifStale ? ['--logLevel', 'warn'] : [])], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeStamp(ROOT, 'spa', { fingerprint: fingerprint(ROOT, files, extra), files });
  if (ifStale) console.log(`web app: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// ---- the server ------------------------------------------------------------------------------

const SERVER_OUT_DIR = 'dist-server';
/** The modules the built-in plugins' scripts run: each server/plugins/bin/<name> ends `_launch <module> "$@"`. */
const PLUGIN_BIN = path.join(ROOT, 'server', 'plugins', 'bin');
const BUILTIN_PLUGIN_MODULES = fs
  .readdirSync(PLUGIN_BIN)
  .flatMap((name) => /_launch" (\S+\.ts) /.exec(fs.readFileSync(path.join(PLUGIN_BIN, name), 'utf8'))?.[1] ?? [])
  .sort();
// storeWorker: the thread that holds the embedded stores' database (server/db/storeWorkerPool.ts)
const SERVER_ENTRIES = {
  main: 'server/main.ts',
  worker: 'server/worker.ts',
  storeWorker: 'server/db/storeWorker.ts',
  // The built-in plugins, which the compiled server's jobs run compiled (server/plugins/bin/_launch):
  // compiling them under tsx at each process's start cost more than half a second of a job's CPU per plugin.
  ...Object.fromEntries(BUILTIN_PLUGIN_MODULES.map((module) => [`plugins/${module.replace(/\.ts$/, '')}`, `server/plugins/${module}`])),
};
const SERVER_OUTPUTS = Object.keys(SERVER_ENTRIES).map((name) => `${SERVER_OUT_DIR}/${name}.js`);

const serverOptions: BuildOptions = {
  absWorkingDir: ROOT,
  entryPoints: SERVER_ENTRIES,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // node_modules is loaded by Node at run time, as under tsx: no package is copied into the bundle
  packages: 'external',
  sourcemap: true,
  // No keepNames: it wraps every function expression in a `__name(fn, "name")` call that runs each
  // time the closure is made (Object.defineProperty per closure per request: 2 % of the workspace
  // list's server CPU). Bundling renames only clashing top-level names (no class among them); a
  // stack trace shows the bundle's names and lines, which the source map beside it maps back.
  keepNames: false,
  metafile: true,
  write: false,
  outdir: SERVER_OUT_DIR,
  logLevel: 'warning',
};
/** A change of esbuild or of these options makes the last bundle stale as much as a change of source. */
const serverExtra = `esbuild ${esbuildVersion} ${JSON.stringify(serverOptions)}`;
/** Inputs of the bundle besides its modules: the dependencies Node resolves at run time, and the compiler's settings. */
const SERVER_EXTRA_INPUTS = ['package-lock.json', 'tsconfig.json'];

async function buildServer(): Promise<void> {
  if (ifStale && isCurrent(ROOT, 'server', serverExtra, SERVER_OUTPUTS)) {
    console.log(`server: ${SERVER_OUT_DIR}/ is current`);
    return;
  }
  const started = Date.now();
  const result = await build(serverOptions);
  fs.mkdirSync(path.join(ROOT, SERVER_OUT_DIR), { recursive: true });
  // Each file is written aside and renamed into place: a server starting meanwhile (an API process
  // and a worker on one machine) reads the old file or the new one, never a half-written one.
  for (const file of result.outputFiles ?? []) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
  const files = [...Object.keys(result.metafile?.inputs ?? {}), ...SERVER_EXTRA_INPUTS].sort();
  writeStamp(ROOT, 'server', { fingerprint: fingerprint(ROOT, files, serverExtra), files });
  console.log(`server: compiled ${SERVER_OUT_DIR}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (!args.has('--server-only')) buildSpa();
await buildServer();
