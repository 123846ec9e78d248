import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** A server in a child process of its own, stopped by `stop()`. */
export interface Child {
  process: ChildProcess;
  /** what the child wrote to stderr (and stdout), for the error message when it dies */
  output(): string;
  stop(): Promise<void>;
  /** from the spawn to the first 2xx answer of the ready URL, in ms */
  readyMs: number;
}

/** The compiled server `npm start` runs (`npm run build` makes it; the bench script builds first). */
export const SERVER_ENTRY = 'dist-server/main.js';

/**
 * `npm start`'s last command (package.json: `… && [NAME=value …] node <options> dist-server/main.js`):
 * the environment it sets and the node options, so a compiled entry runs here exactly as in production.
 * The environment is GLIBC_TUNABLES: a fixed mmap threshold, so the 16 MB a password hash's scrypt
 * borrows goes back to the system when freed instead of staying in a thread's malloc arena (up to
 * ~40 MB held by an idle server after the demo seed's three hashes; docs/decisions.md).
 */
export function startCommand(): { env: Record<string, string>; nodeOptions: string[] } {
  const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  const words = (scripts.start ?? '').split('&&').at(-1)!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  if (words[0] !== 'node' || words.at(-1) !== SERVER_ENTRY) throw new Error(`npm start no longer ends with "node … ${SERVER_ENTRY}": update bench/processes.ts`);
  return { env, nodeOptions: words.slice(1, -1) };
}

/** The node options of `npm start`'s last command. */
function startNodeOptions(): string[] {
  return startCommand().nodeOptions;
}

/** Resident memory of a process (VmRSS), in bytes; undefined where /proc is not there. */
export function rssBytes(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Starts a server with `env` and waits until `readyUrl` answers 2xx: a compiled `.js` entry as
 * `npm start` runs it, a TypeScript one with `node --import tsx`.
 */
export async function startChild(script: string, env: Record<string, string>, readyUrl: string, timeoutMs = 60_000, nodeArgs: string[] = []): Promise<Child> {
  const compiled = script.endsWith('.js');
  if (compiled && !fs.existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first (the bench measures the server as \`npm start\` runs it)`);
  const args = compiled ? [...startNodeOptions(), ...nodeArgs, script] : ['--import', 'tsx', ...nodeArgs, script];
  const startEnv = compiled ? startCommand().env : {};
  return waitReady(spawn(process.execPath, args, { env: { ...process.env, ...startEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }), script, readyUrl, timeoutMs);
}

/**
 * Runs `npm start` itself (its freshness check of the builds, then the server) in a process group
 * of its own, and waits until `readyUrl` answers 2xx: the start a user sees, timed from the command.
 */
export async function startNpmStart(env: Record<string, string>, readyUrl: string, timeoutMs = 120_000): Promise<Child> {
  const child = spawn('npm', ['start', '--silent'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return waitReady(child, 'npm start', readyUrl, timeoutMs, true);
}

async function waitReady(child: ChildProcess, script: string, readyUrl: string, timeoutMs: number, group = false): Promise<Child> {
  const started = performance.now();
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // npm start is a shell running node: the signal goes to the whole group
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (group && child.pid !== undefined) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
  };
  const handle: Child = {
    process: child,
    output: () => output,
    readyMs: Number.NaN,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      kill('SIGTERM');
      await Promise.race([exited, delay(15_000).then(() => kill('SIGKILL'))]);
    },
  };

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const response = await fetch(readyUrl);
      if (response.ok) {
        handle.readyMs = performance.now() - started;
        return handle;
      }
    } catch {
      // not listening yet
    }
    // often enough that the time to the first answer is measured to a few tens of ms
    await delay(25);
  }
  await handle.stop();
  throw new Error(`${script} was not ready at ${readyUrl} within ${timeoutMs} ms:\n${output}`);
}

/** The environment of our server on `port` with its own data folder, logs at warn; PGlite unless `databaseUrl`. */
export function serverEnv(port: number, dataDir: string, databaseUrl: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  };
}

/**
 * For a read measurement: the demo seeded, and the runner and scheduler off so the reads are
 * measured alone (the seeded pipelines' first runs would otherwise share the CPU).
 */
export function readServerEnv(port: number, dataDir: string, databaseUrl: string | undefined): Record<string, string> {
  return serverEnv(port, dataDir, databaseUrl, { SEED_DEMO: 'true', RUNNER_ENABLED: 'false', SCHEDULER_ENABLED: 'false' });
}
