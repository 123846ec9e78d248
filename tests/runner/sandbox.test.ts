import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { newId } from '../../server/repositories/ids';
import { createPipeline } from '../../server/repositories/pipelines';
import { enqueueJob } from '../../server/runner';
import type { SandboxSettings } from '../../server/runner/config';
import { hostAddresses } from '../../server/runner/sandbox/network';
import { LocalSandbox } from '../../server/runner/sandbox/sandbox';
import { storeTables } from '../../server/stores/defaultStore';
import { createTestDatabase, type TestDatabase } from '../support/server';
import { startBench, logOf, waitForStatus, type Bench } from './helpers';
import { startServerProcess } from './serverProcess';

// The hostile-job suite (issue 17): each job tries an escape for real, on both sandbox paths,
// and must fail with its log saying how. The runner runs in this process, so "the server" whose
// environment, pid and loopback port the jobs go after is this test process.

const SECRET = `sandbox-secret-${process.pid}-${Date.now()}`;
process.env.SANDBOX_TEST_SECRET = SECRET;

const settings = (mode: 'bwrap' | 'unshare'): SandboxSettings => ({
  mode,
  network: { mode: 'public', allowedHosts: [] },
  limits: { memoryMb: 512, cpuSeconds: 60, processes: 64, openFiles: 256, fileSizeMb: 16, logMb: 1 },
});

for (const mode of ['bwrap', 'unshare'] as const) {
  describe(`the job sandbox (${mode})`, () => {
    let bench: Bench;
    let listener: net.Server;
    let port = 0;
    let connections = 0;
    let otherProject: string;

    beforeAll(async () => {
      bench = await startBench();
      await bench.startRunner({ sandbox: settings(mode), concurrency: 2 });
      listener = net.createServer((socket) => {
        connections += 1;
        socket.end('hello from the host\n');
      });
      await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
      port = (listener.address() as net.AddressInfo).port;
      otherProject = path.join(bench.dataDir, 'projects', 'another-workspace');
      fs.mkdirSync(otherProject, { recursive: true });
      fs.writeFileSync(path.join(otherProject, 'secret.txt'), SECRET);
      // the runner tries its sandbox out before it starts: the unshare path takes seconds on a busy machine
    }, 180_000);
    afterAll(async () => {
      if (listener) await new Promise<void>((resolve) => listener.close(() => resolve()));
      await bench?.close();
    });

    let count = 0;
    const run = async (script: string, timeoutMs = 60_000) => {
      const pipeline = await bench.pipeline({ name: `${mode} hostile ${++count}`, script });
      const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
      if (queued.status !== 'QUEUED') throw new Error(queued.status);
      const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], timeoutMs);
      const log = (await logOf(bench.db, job.id)).join('\n');
      return { job, log };
    };

    it("says in the job log how the job is isolated: the sandbox, its uid, slirp4netns's network and the limits", async () => {
      const { job, log } = await run('id -u; cat /etc/resolv.conf; ip route; ls /proc | grep -c "^[0-9]"');
      expect(job.status, log).toBe('COMPLETE');
      expect(log).toContain(`Sandbox: ${mode}, uid 65534, network: public egress through slirp4netns`);
      expect(log).toMatch(/^65534$/m);
      // public egress is set up as far as a machine without internet shows it: slirp's DNS and gateway
      expect(log).toContain('nameserver 10.0.2.3');
      expect(log).toContain('default via 10.0.2.2 dev tap0');
      expect(log).toContain('prohibit 10.0.0.0/8');
      // its own pid namespace: a handful of processes, not the host's
      expect(Number(/^(\d+)$/m.exec(log.split('\n').slice(-3).join('\n'))?.[1])).toBeLessThan(10);
    });

    it("cannot read the server's environment", async () => {
      const { job, log } = await run(`cat /proc/${process.pid}/environ; grep -a -l "${SECRET.slice(0, 14)}" /proc/*/environ && echo FOUND-THE-SECRET; env; exit 1`);
      expect(job.status).toBe('ERROR');
      expect(log).toContain(`/proc/${process.pid}/environ: No such file or directory`);
      expect(log).not.toContain(SECRET);
      expect(log).not.toContain('FOUND-THE-SECRET');
      expect(log).not.toContain('DATABASE_URL');
    });

    it('cannot list the data directory nor read another workspace by absolute path or by a symlink', async () => {
      const secretFile = path.join(otherProject, 'secret.txt');
      const { job, log } = await run(`set -e; ls ${bench.dataDir} || echo "no data directory"; ln -sf ${secretFile} link.txt; cat link.txt || echo "link leads nowhere"; cat ${secretFile}`);
      expect(job.status).toBe('ERROR');
      expect(log).toContain(`ls: cannot access '${bench.dataDir}': No such file or directory`);
      expect(log).toContain('link leads nowhere');
      expect(log).toContain(`cat: ${secretFile}: No such file or directory`);
      expect(log).not.toContain(SECRET);
    });

    it("cannot connect to the host's loopback, the host's own addresses or private ranges", async () => {
      const targets = ['127.0.0.1', '10.0.2.2', ...hostAddresses().slice(0, 2), '192.168.1.1', '172.16.0.1'];
      const script = targets.map((t) => `if timeout 5 bash -c 'exec 3<>/dev/tcp/${t}/${port}'; then echo "REACHED ${t}"; else echo "refused ${t}"; fi`).join('\n');
      const { log } = await run(script);
      for (const t of targets) expect(log).toContain(`refused ${t}`);
      expect(log).not.toContain('REACHED');
      expect(log).toMatch(/Connection refused|Permission denied|Network is unreachable/);
      expect(connections).toBe(0);
      // the listener itself answers from the host: the refusals are the sandbox's
      await new Promise<void>((resolve, reject) => net.connect(port, '127.0.0.1', resolve).once('error', reject).end());
      expect(connections).toBe(1);
      connections = 0;
    });

    it('is refused by a prohibit route at both ends of every special-purpose range (issue 40)', async () => {
      // Written out by hand from IANA's special-purpose registry (RFC 6890), not read from the code:
      // the second address of each range and the one before its last, so a narrowed range shows.
      const targets = [
        '0.0.0.1', '0.255.255.254', // 0.0.0.0/8
        '10.0.0.1', '10.255.255.254', // 10.0.0.0/8 (slirp's own 10.0.2.0/24 aside)
        '100.64.0.1', '100.127.255.254', // 100.64.0.0/10
        '169.254.169.254', '169.254.255.254', // 169.254.0.0/16
        '172.16.0.1', '172.31.255.254', // 172.16.0.0/12
        '192.0.0.1', '192.0.0.254', // 192.0.0.0/24
        '192.0.2.1', '192.0.2.254', // 192.0.2.0/24
        '192.88.99.1', '192.88.99.254', // 192.88.99.0/24
        '192.168.0.1', '192.168.255.254', // 192.168.0.0/16
        '198.18.0.1', '198.19.255.254', // 198.18.0.0/15
        '198.51.100.1', '198.51.100.254', // 198.51.100.0/24
        '203.0.113.1', '203.0.113.254', // 203.0.113.0/24
        '224.0.0.1', '239.255.255.254', // 224.0.0.0/4
        '240.0.0.1', '255.255.255.254', // 240.0.0.0/4
      ];
      // A prohibit route answers at once with EACCES ("Permission denied"): no packet leaves the job,
      // so the whole probe takes well under a second. Anything else (a timeout, a reset from slirp,
      // the kernel's own refusal of multicast) means the route was not there.
      const script = targets.map((t) => `echo "probe ${t} $(timeout 2 bash -c 'exec 3<>/dev/tcp/${t}/${port}' 2>&1 | tail -1 | sed 's/.*: //')"`).join('\n');
      const started = Date.now();
      const { log } = await run(script);
      for (const t of targets) expect(log, t).toContain(`probe ${t} Permission denied\n`);
      expect(connections).toBe(0);
      expect(Date.now() - started).toBeLessThan(30_000);
    });

    it('cannot signal the server', async () => {
      const { job, log } = await run(`kill -TERM ${process.pid}; kill -KILL ${process.pid}`);
      expect(job.status).toBe('ERROR');
      expect(log).toContain('No such process');
    });

    it('cannot write outside the project, and its /tmp is its own', async () => {
      const marker = `sandbox-tmp-${process.pid}-${count}`;
      const { job, log } = await run(`touch /usr/x /etc/x /x ${bench.dataDir}/x ${path.resolve('package.json')} 2>&1; echo hello > /tmp/${marker}; echo written > inside.txt; exit 1`);
      expect(job.status).toBe('ERROR');
      expect(log).toContain("touch: cannot touch '/usr/x': Read-only file system");
      expect(log).toContain("touch: cannot touch '/x': Read-only file system");
      expect(log).toMatch(/touch: cannot touch '.*package\.json': (Read-only file system|Permission denied)/);
      expect(fs.existsSync(path.join(bench.dataDir, 'x'))).toBe(false);
      expect(fs.existsSync(path.join(os.tmpdir(), marker))).toBe(false);
      expect(fs.readFileSync(path.join(bench.dataDir, 'projects', bench.workspaceId, 'inside.txt'), 'utf8')).toBe('written\n');
    });

    it('a bounded fork bomb ends the job, naming the process limit', async () => {
      const started = Date.now();
      const { job, log } = await run('for i in $(seq 1 500); do sleep 60 & done; wait');
      expect(job.status).toBe('ERROR');
      expect(log).toContain('Process limit reached: the job may run at most 64 processes at once (RUNNER_MAX_PROCESSES)');
      expect(Date.now() - started).toBeLessThan(45_000);
    });

    it('a memory hog ends the job, naming the memory limit', async () => {
      const { job, log } = await run('x=$(head -c 1500000000 /dev/zero | tr "\\0" a); echo ${#x}');
      expect(job.status).toBe('ERROR');
      expect(log).toContain('Memory limit exceeded: the job may use at most 512 MB (RUNNER_MEMORY_MB)');
    });

    it('endless output ends the job, naming the log volume limit', async () => {
      const { job, log } = await run('yes "endless output"');
      const tail = log.split('\n').slice(-3).join('\n');
      expect(job.status, tail).toBe('ERROR');
      expect(tail).toContain('Log volume limit exceeded: the job wrote more than 1 MB of output');
      expect(log.length).toBeLessThan(1.2 * 1024 * 1024);
    });

    it('a file beyond the file size limit ends the job, naming it', async () => {
      const { job, log } = await run('head -c 40000000 /dev/zero > big.bin; echo after');
      expect(job.status).toBe('ERROR');
      expect(log).toContain('File size limit exceeded: a file the job writes may be at most 16 MB (RUNNER_MAX_FILE_MB)');
    });

    it("filling /tmp and /dev/shm past the memory limit ends the job naming it, and the host's shared memory does not keep it", async () => {
      const shmemBefore = hostShmemBytes();
      // files under the 16 MB file limit, 600 MB in all against a 512 MB memory limit
      const { job, log } = await run('for d in /tmp /dev/shm; do for i in $(seq 1 20); do head -c 15000000 /dev/zero > $d/f$i || echo "full at $d $i"; done; done; sleep 5; echo "still running"');
      expect(job.status, log).toBe('ERROR');
      expect(log).toContain('Memory limit exceeded: the job may use at most 512 MB (RUNNER_MEMORY_MB)');
      expect(log).not.toContain('still running');
      // the job's mounts go with its namespaces, which the kernel tears down a moment after the last
      // process ends (seconds on a loaded host: CI once read 202 MB straight away). A kept mount would
      // hold about 500 MB for good, so wait for the figure to fall, with a wide margin for other jobs.
      const margin = 200 * 1024 * 1024;
      const deadline = Date.now() + 20_000;
      while (hostShmemBytes() - shmemBefore >= margin && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(hostShmemBytes() - shmemBefore).toBeLessThan(margin);
    });

    it('afterwards the runner still runs jobs, and the demo pipeline loads its data through the sandbox', async () => {
      const ok = await run('echo "still working" && test -w /project');
      expect(ok.job.status, ok.log).toBe('COMPLETE');
      await bench.component({ name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: 'builtin' });
      await bench.component({ name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' });
      const pipeline = await bench.pipeline({
        name: `${mode} demo to store`,
        dataComponents: ['tap-demo', 'target-store'],
        properties: { 'tap-demo.start_date': '2026-10-01T00:00:00Z', 'tap-demo.end_date': '2026-10-05T00:00:00Z', 'tap-demo.seed': 3 },
      });
      const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
      if (queued.status !== 'QUEUED') throw new Error(queued.status);
      const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 90_000);
      const demoLog = (await logOf(bench.db, job.id)).join('\n');
      expect(job.status, demoLog).toBe('COMPLETE');
      expect(await storeTables(bench.db, bench.workspaceId)).toEqual(['customers', 'orders', 'web_sessions']);
    });
  });
}

for (const kind of ['bwrap', 'unshare'] as const) {
  describe(`the ${kind} launcher`, () => {
    const sandbox = new LocalSandbox({ kind, launcher: `/usr/bin/${kind}`, ...settings(kind), hidden: [] });
    const project = fs.mkdtempSync(path.join(os.tmpdir(), `launcher-${kind}-`));
    afterAll(() => {
      sandbox.close();
      fs.rmSync(project, { recursive: true, force: true });
    });
    const start = (script: string, readOnlyPaths: string[] = []) => {
      const lines: string[] = [];
      const started = sandbox.start({ workspaceId: `launcher-${kind}`, script, projectDir: project, env: { PATH: '/usr/bin:/bin' }, readOnlyPaths, timeoutMs: 60_000, killGraceMs: 1000, onLine: (line) => lines.push(line) });
      return started.done.then((result) => ({ result, log: lines.join('\n') }));
    };

    it('shows a read-only path below /tmp (a local repository to deploy) on top of the job\'s own /tmp', async () => {
      const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'launcher-shared-'));
      fs.chmodSync(shared, 0o755);
      fs.writeFileSync(path.join(shared, 'definition.yml'), 'seen\n');
      fs.chmodSync(path.join(shared, 'definition.yml'), 0o644);
      try {
        const { result, log } = await start(`cat ${shared}/definition.yml; touch ${shared}/x 2>&1; touch /tmp/own && echo own-tmp`, [shared]);
        expect(result.exitCode, log).toBe(0);
        expect(log).toContain('seen');
        expect(log).toMatch(/Read-only file system|Permission denied/);
        expect(log).toContain('own-tmp');
        expect(fs.existsSync(path.join(shared, 'x'))).toBe(false);
      } finally {
        fs.rmSync(shared, { recursive: true, force: true });
      }
    });

    it('many jobs starting at once all get their loopback and the public network (slirp4netns attaches after the launcher is done)', { timeout: 120_000 }, async () => {
      const runs = await Promise.all(Array.from({ length: 12 }, () => start('ip -o -4 addr show lo; ip route show default')));
      for (const { result, log } of runs) {
        expect(result.exitCode, log).toBe(0);
        expect(log).toContain('inet 127.0.0.1/8');
        expect(log).toContain('default via 10.0.2.2 dev tap0');
      }
    });
  });
}

describe('without user namespaces', () => {
  // A real server process in a user namespace that may create no nested one: neither bwrap nor
  // unshare can build a sandbox there, as on a host with user namespaces switched off.
  const NO_USER_NAMESPACES = ['unshare', '--user', '--map-root-user', '--', 'bash', '-c', 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"', 'no-userns'];
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  });

  const queue = async (database: TestDatabase, workspaceId: string, name: string): Promise<string> => {
    const handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
    try {
      if (!(await handle.db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst())) {
        await handle.db.insertInto('workspaces').values({ id: workspaceId, name: 'No sandbox', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
      }
      const created = await createPipeline(handle.db, workspaceId, { name, script: 'echo "ran as $(id -u)"', draft: false });
      if (!created.ok) throw new Error('name');
      const queued = await enqueueJob(handle.db, created.pipeline.id, { kind: 'MANUAL' });
      if (queued.status !== 'QUEUED') throw new Error(queued.status);
      return queued.job.id;
    } finally {
      await handle.close();
    }
  };
  const logLines = async (database: TestDatabase, jobId: string) => {
    const handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
    try {
      return (await logOf(handle.db, jobId)).join('\n');
    } finally {
      await handle.close();
    }
  };

  // Two servers start one after the other, each waiting for its events (35 s alone); beside the
  // other lanes on two cores one start took over a minute, so the budget is a bound, not a timing.
  it('the server says why at start and each job ends ERROR saying so; RUNNER_SANDBOX=off runs it', { timeout: 360_000 }, async () => {
    const database = await createTestDatabase({ persistent: true });
    cleanup.push(() => database.dispose());
    const dataDir = database.url ? fs.mkdtempSync(path.join(os.tmpdir(), 'runner-nosandbox-')) : database.dataDir;
    const workspaceId = newId();
    const refused = await queue(database, workspaceId, 'refused');
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url };

    const first = await startServerProcess({ ...env, RUNNER_SANDBOX: 'auto' }, { entry: 'server/main.ts', ready: (l) => l.msg === 'runner: started', wrapper: NO_USER_NAMESPACES });
    cleanup.push(() => Promise.resolve(first.child.kill('SIGKILL')));
    const why = await first.waitForLog((l) => String(l.msg).includes('no job sandbox can be built'), 'the reason at start');
    expect(String(why.msg)).toMatch(/bwrap failed: .*namespace/);
    expect(String(why.msg)).toMatch(/unshare failed: .*(No space left on device|namespace)/);
    await first.waitForLog((l) => l.jobId === refused && l.msg === 'runner: job ended', 'the refused job to end');
    first.child.kill('SIGTERM');
    await first.exited;
    const refusedLog = await logLines(database, refused);
    expect(refusedLog).toContain('The job was not started: no sandbox can be built on this server');
    expect(refusedLog).not.toContain('ran as');

    const allowed = await queue(database, workspaceId, 'allowed');
    const second = await startServerProcess({ ...env, RUNNER_SANDBOX: 'off' }, { entry: 'server/main.ts', ready: (l) => l.msg === 'runner: started', wrapper: NO_USER_NAMESPACES });
    cleanup.push(() => Promise.resolve(second.child.kill('SIGKILL')));
    await second.waitForLog((l) => String(l.msg).includes('RUNNER_SANDBOX=off'), 'the warning that jobs are not isolated');
    const ended = await second.waitForLog((l) => l.jobId === allowed && l.msg === 'runner: job ended', 'the allowed job to end');
    expect(ended.status).toBe('COMPLETE');
    second.child.kill('SIGTERM');
    await second.exited;
    const allowedLog = await logLines(database, allowed);
    expect(allowedLog).toContain('Sandbox: off (RUNNER_SANDBOX=off)');
    expect(allowedLog).toContain('ran as 0');
  });
});

/** Shmem of /proc/meminfo: what every tmpfs on the host holds. */
function hostShmemBytes(): number {
  return Number(/^Shmem:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) * 1024;
}
