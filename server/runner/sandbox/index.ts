import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxSettings } from '../config';
import type { Executor, JobPaths, JobProcess, JobSpec } from '../executor';
import { startJobProcess } from '../jobProcess';
import { LocalSandbox, type SandboxKind } from './sandbox';
import { findTool } from './tools';

// Which executor a runner gets (RUNNER_SANDBOX): the local sandbox, tried for real before the
// first job; none at all when asked (`off`); or one that refuses every job, saying why.

/** RUNNER_SANDBOX=off: the job runs as the server's own user, in the project directory as it is. */
export class Unsandboxed implements Executor {
  readonly kind = 'off';
  constructor(private readonly logMb: number) {}
  describe(): string {
    return "Sandbox: off (RUNNER_SANDBOX=off): the job runs as the server's own user and can read what the server reads.";
  }
  /** no private /tmp: the job's temporary files stay in its project, not beside other jobs' */
  paths(projectDir: string, bridgeSocket: string): JobPaths {
    return { project: projectDir, bridgeSocket, tmp: path.join(projectDir, '.tmp') };
  }
  start(spec: JobSpec): JobProcess {
    fs.mkdirSync(path.join(spec.projectDir, '.tmp'), { recursive: true });
    return startJobProcess({ script: spec.script, cwd: spec.projectDir, env: spec.env, timeoutMs: spec.timeoutMs, killGraceMs: spec.killGraceMs, maxLogBytes: this.logMb * 1024 * 1024, onLine: (line, stream) => spec.onLine(line, stream) });
  }
  close(): void {}
}

/** No sandbox could be built and none was waived: every job ends ERROR with this reason. */
class SandboxUnavailable implements Executor {
  readonly kind = 'unavailable';
  constructor(readonly reason: string) {}
  describe(): string {
    return `No job sandbox: ${this.reason}`;
  }
  paths(projectDir: string, bridgeSocket: string): JobPaths {
    return { project: projectDir, bridgeSocket, tmp: os.tmpdir() };
  }
  start(spec: JobSpec): JobProcess {
    spec.onLine(`The job was not started: no sandbox can be built on this server (${this.reason}). An operator can set RUNNER_SANDBOX=off on a trusted single-team install.`, 'stderr');
    return { pid: undefined, done: Promise.resolve({ reason: 'SPAWN_FAILED', exitCode: null, signal: null }), stop: () => undefined };
  }
  close(): void {}
}

interface ExecutorChoice {
  executor: Executor;
  /** what the server logs at start when the choice is not the full sandbox */
  warnings: string[];
}

/** Picks and tries the executor RUNNER_SANDBOX asks for; `hidden` are paths no job may see (the data directory). */
export async function createExecutor(settings: SandboxSettings, hidden: readonly string[]): Promise<ExecutorChoice> {
  if (settings.mode === 'off') return { executor: new Unsandboxed(settings.limits.logMb), warnings: ["RUNNER_SANDBOX=off: jobs run as the server's own user and can read its environment, the data directory and every workspace's files"] };
  const warnings: string[] = [];
  let network = settings.network;
  if (network.mode === 'public' && (!findTool('slirp4netns') || !findTool('nsenter'))) {
    warnings.push('slirp4netns is not installed: jobs get no network (RUNNER_NETWORK=none); install it for public egress');
    network = { ...network, mode: 'none' };
  }
  const kinds: SandboxKind[] = settings.mode === 'auto' ? ['bwrap', 'unshare'] : [settings.mode];
  const problems: string[] = [];
  for (const kind of kinds) {
    const launcher = findTool(kind);
    if (!launcher) {
      problems.push(`${kind} is not installed`);
      continue;
    }
    const sandbox = new LocalSandbox({ kind, launcher, network, limits: settings.limits, hidden });
    const failure = await tryOut(sandbox);
    if (!failure) return { executor: sandbox, warnings };
    sandbox.close();
    problems.push(`${kind} failed: ${failure}`);
  }
  return { executor: new SandboxUnavailable(problems.join('; ')), warnings };
}

/** Runs `true` in the sandbox: undefined when it worked, else what went wrong. */
async function tryOut(executor: Executor): Promise<string | undefined> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-probe-'));
  const lines: string[] = [];
  try {
    const started = executor.start({
      workspaceId: 'sandbox-probe',
      script: 'touch .probe && rm .probe',
      projectDir: dir,
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 20_000,
      killGraceMs: 1000,
      onLine: (line) => lines.push(line),
    });
    const result = await started.done;
    if (result.reason === 'EXITED' && result.exitCode === 0) return undefined;
    return lines.slice(-3).join(' ').slice(0, 500) || `exit ${result.exitCode ?? result.signal ?? result.reason}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
