import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';

/** A server in a child process of its own, stopped by `stop()`. */
export interface Child {
  process: ChildProcess;
  /** what the child wrote to stderr (and stdout), for the error message when it dies */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node --import tsx <script>` with `env` and waits until `readyUrl` answers 2xx. */
export async function startChild(script: string, env: Record<string, string>, readyUrl: string, timeoutMs = 60_000): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle: Child = {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, delay(15_000).then(() => child.kill('SIGKILL'))]);
    },
  };

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const response = await fetch(readyUrl);
      if (response.ok) return handle;
    } catch {
      // not listening yet
    }
    await delay(200);
  }
  await handle.stop();
  throw new Error(`${script} was not ready at ${readyUrl} within ${timeoutMs} ms:\n${output}`);
}
