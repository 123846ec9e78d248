import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Executor, JobEgress, JobLimits, JobPaths, JobProcess, JobProcessResult, JobSpec, NetworkPolicy } from '../executor';
import { startProcessGroup, type GroupProcess } from '../jobProcess';
import { FD_GO, FD_INNER, FD_PAYLOAD, FD_READY, LAUNCHER_ENV, bwrapArgs, innerCommand, jobPayload, unshareArgs, unshareMaps, unshareSetupEnv } from './launchers';
import { SANDBOX_BRIDGE, SANDBOX_PROJECT, SANDBOX_TMP, SANDBOX_UID, hostSystem, pluginCodePaths, sandboxLayout, writeEtc } from './layout';
import { limitOfExit, limitOfLine, limitOfUsage } from './limits';
import { attachPublicNetwork, type Attached } from './network';
import { outerIds, ownProjectDir } from './outerUid';
import { treeUsage } from './watch';
import { describeReadProblem, readProblem } from '../../security/readableBy';

export type SandboxKind = 'bwrap' | 'unshare';

interface SandboxOptions {
  kind: SandboxKind;
  /** absolute path of bwrap or unshare */
  launcher: string;
  network: NetworkPolicy;
  limits: JobLimits;
  /** what the job must never see, even below a read-only path (the data directory) */
  hidden: readonly string[];
  /** how often the runner reads the job's process tree */
  watchMs?: number;
}

/** The local sandbox (server/runner/README.md "The job sandbox"): Linux namespaces through bubblewrap or util-linux unshare. */
export class LocalSandbox implements Executor {
  readonly kind: SandboxKind;
  private readonly scratch: string;
  private readonly etcDir: string;
  private readonly rootDir: string;
  private readonly system = hostSystem();
  private readonly code = pluginCodePaths();

  constructor(private readonly options: SandboxOptions) {
    this.kind = options.kind;
    // world-traversable: a dropped uid reads the generated /etc files and the mount point through it
    this.scratch = path.join(os.tmpdir(), `runner-sandbox-${process.pid}-${randomBytes(6).toString('hex')}`);
    fs.mkdirSync(this.scratch, { mode: 0o755 });
    fs.chmodSync(this.scratch, 0o755);
    this.etcDir = path.join(this.scratch, 'etc');
    writeEtc(this.etcDir, options.network.mode);
    this.rootDir = path.join(this.scratch, 'root');
    fs.mkdirSync(this.rootDir, { mode: 0o755 });
  }

  describe(): string {
    const network = this.options.network.mode === 'public' ? 'public egress through slirp4netns (no host loopback, no private ranges' + (this.options.network.allowedHosts.length > 0 ? ` but ${this.options.network.allowedHosts.join(', ')}` : '') + ')' : 'no network';
    const l = this.options.limits;
    return `Sandbox: ${this.kind}, uid ${SANDBOX_UID}, network: ${network}; limits: ${l.memoryMb} MB memory, ${l.cpuSeconds} s CPU, ${l.processes} processes, ${l.openFiles} open files, ${l.fileSizeMb} MB per file, ${l.logMb} MB of log.`;
  }

  paths(): JobPaths {
    return { project: SANDBOX_PROJECT, bridgeSocket: SANDBOX_BRIDGE, tmp: SANDBOX_TMP };
  }

  jobUid(workspaceId: string): number | undefined {
    return outerIds(workspaceId).uid;
  }

  close(): void {
    fs.rmSync(this.scratch, { recursive: true, force: true });
  }

  start(spec: JobSpec): JobProcess {
    const { limits } = this.options;
    const network = withEgress(this.options.network, spec.egress);
    if (spec.egress && network.mode === 'public') spec.onLine(`Network of this step: ${spec.egress.exclusive ? 'only' : 'also'} ${spec.egress.label} (${spec.egress.allowHosts.join(', ')}).`, 'stdout');
    const ids = outerIds(spec.workspaceId);
    if (ids.uid !== undefined) ownProjectDir(spec.projectDir, ids.uid, this.options.hidden);
    // The job reads these as the workspace's outer uid: a path only root may read, or one below a
    // directory others cannot pass, would make the launcher fail with "Can't find source path".
    const reader = ids.uid === undefined ? undefined : { uid: ids.uid };
    const unreadable = reader === undefined ? [] : (spec.readOnlyPaths ?? []).flatMap((p) => {
      const problem = readProblem(p, reader);
      return problem ? [`${p}: ${describeReadProblem(problem, p, reader, 'it', 'start the job again')}`] : [];
    });
    if (unreadable.length > 0) {
      spec.onLine(`The job was not started: its user (uid ${ids.uid ?? ''}, with only the rights every user has) cannot read ${unreadable.join(' ')}`, 'stderr');
      return { pid: undefined, done: Promise.resolve({ reason: 'EXITED', exitCode: 1, signal: null }), stop: () => undefined };
    }
    const ops = sandboxLayout({
      projectDir: spec.projectDir,
      bridgeSocket: spec.bridgeSocket,
      sockets: spec.sockets,
      etcDir: this.etcDir,
      system: this.system,
      readOnly: [...this.code, ...(spec.readOnlyPaths ?? [])],
      hidden: this.options.hidden,
    });
    const payload = jobPayload(spec.script, spec.env);
    if (!payload) {
      spec.onLine("The job was not started: its script or a variable holds a NUL character, or a variable's name is not a name.", 'stderr');
      return { pid: undefined, done: Promise.resolve({ reason: 'EXITED', exitCode: 1, signal: null }), stop: () => undefined };
    }
    const inner = innerCommand(limits, this.kind);
    // The launcher starts from LAUNCHER_ENV whatever the job's variables are: they travel on FD_PAYLOAD
    const group: GroupProcess = startProcessGroup(
        this.kind === 'bwrap'
          ? { file: this.options.launcher, args: bwrapArgs(ops, inner, limits), cwd: '/', env: { ...LAUNCHER_ENV }, ...ids, extraStdio: ['pipe', 'pipe', 'pipe', 'pipe'] }
          : { file: this.options.launcher, args: unshareArgs(ops, this.rootDir, inner), cwd: '/', env: unshareSetupEnv(ids.uid, limits), extraStdio: ['pipe', 'pipe', 'pipe', 'pipe'] },
        {
          timeoutMs: spec.timeoutMs,
          killGraceMs: spec.killGraceMs,
          maxLogBytes: limits.logMb * 1024 * 1024,
          onLine: (line, stream) => {
            spec.onLine(line, stream);
            const limit = stream === 'stderr' ? limitOfLine(line, limits) : undefined;
            if (limit) group.fail(limit);
          },
        },
      );
    const [ready, go, innerPipe, payloadPipe] = [FD_READY, FD_GO, FD_INNER, FD_PAYLOAD].map((i) => group.child.stdio[i]) as [Readable | null, Writable | null, Readable | null, Writable | null];
    // a launcher that died early closes its pipes; its exit is reported, not the pipe's error
    for (const pipe of [ready, go, innerPipe, payloadPipe]) pipe?.on('error', () => undefined);
    // the pipe buffers it until the job's own shell reads it, inside every namespace
    payloadPipe?.end(payload);

    let attached: Attached | undefined;
    /** a process whose root is the sandbox's, once the set-up has made it: its /tmp and /dev/shm count as the job's memory */
    let insider: number | undefined;
    const watch = setInterval(() => {
      if (group.pid === undefined) return;
      const usage = treeUsage(group.pid, limits.processes * 2);
      if (insider !== undefined) usage.rssBytes += memoryMountBytes(insider);
      const limit = limitOfUsage(usage, limits);
      if (limit) group.fail(limit);
    }, this.options.watchMs ?? 250);
    watch.unref();

    // Namespaces ready: attach the network if the policy wants one, then let the job go.
    const setUp = (async () => {
      if (!ready || !go || group.pid === undefined) return;
      const lines = lineReader(ready);
      let pid: number | undefined;
      if (this.kind === 'unshare') {
        if ((await lines.next()) !== 'ns') return;
        unshareMaps(group.pid, ids.uid);
        go.write('maps\n');
        pid = (await lines.next()) === 'ready' ? group.pid : undefined;
        // unshare --fork's child is the set-up shell, now at the sandbox's root
        if (pid !== undefined) insider = firstChild(pid);
      } else {
        pid = Number(/"child-pid"\s*:\s*(\d+)/.exec(await lines.until('}'))?.[1]) || undefined;
        // bwrap configures the namespace's loopback after naming its child: wait for the job's shell
        if (pid !== undefined && innerPipe && (await lineReader(innerPipe).next()) !== 'ready') pid = undefined;
        insider = pid;
      }
      if (pid === undefined) return; // the launcher failed and says why on stderr
      if (network.mode === 'public') attached = await attachPublicNetwork(pid, network);
      go.end('go\n');
    })().catch((error: unknown) => {
      group.fail(`The job's sandbox could not be set up: ${error instanceof Error ? error.message : String(error)}`);
    });

    const done = group.done.then(async (result): Promise<JobProcessResult> => {
      clearInterval(watch);
      // the launcher is gone, so its pipes end; the timer only guards against a set-up that never returns
      await Promise.race([setUp, new Promise<void>((resolve) => setTimeout(resolve, 2000).unref())]);
      attached?.close();
      const limit = result.reason === 'EXITED' && result.exitCode !== 0 ? limitOfExit(result.exitCode, result.signal, limits) : undefined;
      if (limit) spec.onLine(limit, 'stderr');
      return result;
    });
    return { pid: group.pid, done, stop: (reason) => group.stop(reason) };
  }
}

/**
 * The executor's policy with one job's egress: added to the allowed hosts, or (exclusive) in place
 * of them and of the public internet. A sandbox without a network stays without one.
 */
function withEgress(policy: NetworkPolicy, egress: JobEgress | undefined): NetworkPolicy {
  if (!egress || policy.mode !== 'public') return policy;
  if (egress.exclusive) return { mode: 'public', allowedHosts: [...egress.allowHosts], exclusive: true };
  return { ...policy, allowedHosts: [...policy.allowedHosts, ...egress.allowHosts] };
}

/** Lines (or a text up to a mark) from a launcher's ready descriptor; '' once it closed. */
function lineReader(stream: Readable): { next(): Promise<string>; until(mark: string): Promise<string> } {
  let text = '';
  let ended = false;
  const waiters: Array<() => void> = [];
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const w of waiters.splice(0)) w();
  });
  const end = () => {
    ended = true;
    for (const w of waiters.splice(0)) w();
  };
  // the pipe is one end of a socket pair: its reading side ends before the whole closes
  stream.once('end', end);
  stream.once('close', end);
  const take = async (mark: string, keepMark: boolean): Promise<string> => {
    while (!text.includes(mark) && !ended) await new Promise<void>((resolve) => waiters.push(resolve));
    const at = text.indexOf(mark);
    if (at < 0) return '';
    const taken = text.slice(0, keepMark ? at + mark.length : at);
    text = text.slice(at + mark.length);
    return taken;
  };
  return { next: () => take('\n', false), until: (mark) => take(mark, true) };
}

function firstChild(pid: number): number | undefined {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0]) || undefined;
  } catch {
    return undefined;
  }
}

/** What the sandbox's memory-backed mounts hold, read from the host through a process inside. */
function memoryMountBytes(insider: number): number {
  let bytes = 0;
  for (const mount of [SANDBOX_TMP, '/dev/shm']) {
    try {
      const s = fs.statfsSync(`/proc/${insider}/root${mount}`);
      bytes += (s.blocks - s.bfree) * s.bsize;
    } catch {
      // the job ended meanwhile
    }
  }
  return bytes;
}

