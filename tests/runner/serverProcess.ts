import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { freePort } from '../support/server';

/** A real `server/main.ts` process, its structured log lines collected as they come. */
export interface ServerProcess {
  child: ChildProcess;
  logs: Array<Record<string, unknown>>;
  waitForLog(match: (line: Record<string, unknown>) => boolean, what: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

export interface ProcessKind {
  /** server/main.ts (API and worker) or server/worker.ts (worker alone) */
  entry: string;
  /** the log line that says the process is up; undefined: do not wait */
  ready?: (line: Record<string, unknown>) => boolean;
  /** a command the server is started under (e.g. a user namespace without nested namespaces) */
  wrapper?: readonly string[];
}

const API_AND_WORKER: ProcessKind = { entry: 'server/main.ts', ready: (l) => l.msg === 'runner: started' };

export async function startServerProcess(
  env: { DATA_DIR: string; DATABASE_URL?: string | undefined; [name: string]: string | undefined },
  kind: ProcessKind = API_AND_WORKER,
): Promise<ServerProcess> {
  const port = await freePort();
  const command = [...(kind.wrapper ?? []), process.execPath, '--import', 'tsx', kind.entry];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      STATIC_DIR: path.join(os.tmpdir(), 'no-spa-in-runner-tests'),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'trace',
      RUNNER_LEASE_SECONDS: '2',
      RUNNER_POLL_MS: '200',
      RUNNER_RETRY_DELAY_SECONDS: '0',
      ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as Record<string, unknown>);
      for (const w of waiters) w();
    } catch {
      // not a log line
    }
  });
  const stderr: string[] = [];
  readline.createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForLog: ServerProcess['waitForLog'] = (match, what, timeoutMs = 60_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = logs.find(match);
        if (found) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`Timed out waiting for ${what}; stderr: ${stderr.slice(-5).join(' | ')}`));
      }, timeoutMs);
      waiters.add(check);
      void exited.then(() => check());
      check();
    });
  // A first start on a fresh database migrates and seeds under tsx: 10 s on a quiet machine, past
  // 40 s once when CI's five lanes shared two slow cores.
  if (kind.ready) await waitForLog(kind.ready, `${kind.entry} to start`, 90_000);
  return { child, logs, waitForLog, exited };
}
