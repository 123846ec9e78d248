import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadRunnerSettings } from '../server/runner/config';
import type { Executor } from '../server/runner/executor';
import { Unsandboxed, createExecutor } from '../server/runner/sandbox';

// The job sandbox's start-up cost: a trivial `true` job from start to its end, sandboxed (each
// available launcher, with and without slirp4netns's network) next to the same job unsandboxed.

const SANDBOX_P50_TARGET_MS = 150;
const RUNS = 30;

async function timeJobs(executor: Executor, dir: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const started = performance.now();
    const job = executor.start({ workspaceId: 'bench-sandbox', script: 'true', projectDir: dir, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000, killGraceMs: 1000, onLine: () => undefined });
    const result = await job.done;
    if (result.reason !== 'EXITED' || result.exitCode !== 0) throw new Error(`the bench job failed under ${executor.kind}: ${result.reason} ${result.exitCode}`);
    if (i >= 2) times.push(performance.now() - started); // two warm-up runs
  }
  return times.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function benchSandbox(): Promise<string[]> {
  const base = loadRunnerSettings({}).sandbox;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sandbox-'));
  const lines: string[] = [];
  try {
    const rows: Array<{ name: string; times: number[]; target: boolean }> = [{ name: 'unsandboxed (RUNNER_SANDBOX=off)', times: await timeJobs(new Unsandboxed(base.limits.logMb), dir), target: false }];
    for (const mode of ['bwrap', 'unshare'] as const) {
      for (const network of ['none', 'public'] as const) {
        const choice = await createExecutor({ ...base, mode, network: { mode: network, allowedHosts: [] } }, []);
        try {
          if (choice.executor.kind === 'unavailable') lines.push(`  ${mode}, network ${network}: unavailable (${choice.executor.describe()})`);
          else rows.push({ name: `${mode}, network ${network}`, times: await timeJobs(choice.executor, dir), target: mode === 'bwrap' });
        } finally {
          choice.executor.close();
        }
      }
    }
    const bare = percentile(rows[0]!.times, 50);
    const table = rows.map(({ name, times, target }) => {
      const p50 = percentile(times, 50);
      const verdict = target ? `  overhead ${(p50 - bare).toFixed(0)} ms; target p50 < ${SANDBOX_P50_TARGET_MS} ms: ${p50 < SANDBOX_P50_TARGET_MS ? 'met' : 'NOT met'}` : '';
      return `  ${name.padEnd(34)} p50 ${p50.toFixed(0).padStart(5)} ms  p95 ${percentile(times, 95).toFixed(0).padStart(5)} ms${verdict}`;
    });
    return [...table, ...lines];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
