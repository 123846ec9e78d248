import { spawn } from 'node:child_process';

// A command the runner itself runs outside the sandbox (python -m venv, pip, chmod): only ever our
// own pinned packages, never a tenant's code. Its output is kept for the one line a failure shows.

interface ToolResult {
  /** the exit code; null when it was killed (timeout) or could not start */
  code: number | null;
  /** the last lines of stdout and stderr together (at most ~64 kB) */
  output: string;
  /** the last non-empty line of that output, trimmed */
  lastLine: string;
}

const KEEP_CHARS = 64 * 1024;

export function runTool(file: string, args: readonly string[], env: Record<string, string>, timeoutMs: number): Promise<ToolResult> {
  return new Promise((resolve) => {
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-KEEP_CHARS);
    };
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      output += `\n${file} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const done = (code: number | null) => {
      clearTimeout(timer);
      const lines = output.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
      resolve({ code, output, lastLine: lines[lines.length - 1] ?? '' });
    };
    child.once('error', (error) => {
      output += `\n${error.message}`;
      done(null);
    });
    child.once('close', (code) => done(code));
  });
}
