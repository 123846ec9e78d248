import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../server/runner';
import type { SandboxSettings } from '../../server/runner/config';
import { projectDir } from '../../server/runner/project';
import { startBench, logOf, waitForStatus, type Bench } from './helpers';

// The workspace's disk quota (issue 36): a job that takes the project past WORKSPACE_DISK_QUOTA_MB
// is ended naming the setting, and what the jobs wrote is taken back, on both sandbox paths and
// without a sandbox. The quota here is 8 MB; each file the jobs write stays under the per-file
// limit (16 MB), so only the quota can stop them.

const QUOTA_MB = 8;
const QUOTA_LINE = `Disk quota exceeded: the workspace's files may take at most ${QUOTA_MB} MB (WORKSPACE_DISK_QUOTA_MB); the job was stopped.`;

const settings = (mode: 'bwrap' | 'unshare' | 'off'): SandboxSettings => ({
  mode,
  network: { mode: 'none', allowedHosts: [] },
  limits: { memoryMb: 512, cpuSeconds: 60, processes: 64, openFiles: 256, fileSizeMb: 16, logMb: 1 },
});

/** What the project takes on disk: allocated blocks, as the quota counts them. */
function allocatedBytes(dir: string): number {
  let total = 0;
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    total += stat.blocks * 512;
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return total;
}

for (const mode of ['bwrap', 'unshare', 'off'] as const) {
  describe(`the workspace's disk quota (${mode})`, () => {
    let bench: Bench;
    let dir: string;

    beforeAll(async () => {
      bench = await startBench();
      await bench.startRunner({ sandbox: settings(mode), concurrency: 1, diskQuotaMb: QUOTA_MB, diskQuotaCheckMs: 500 });
      dir = projectDir(bench.dataDir, bench.workspaceId);
    }, 180_000);
    afterAll(async () => {
      await bench?.close();
    });

    let count = 0;
    const run = async (script: string) => {
      const pipeline = await bench.pipeline({ name: `${mode} quota ${++count}`, script });
      const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
      if (queued.status !== 'QUEUED') throw new Error(queued.status);
      const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 60_000);
      return { job, log: (await logOf(bench.db, job.id)).join('\n') };
    };

    it('keeps what a job writes within the quota', async () => {
      const { job, log } = await run('mkdir -p kept && printf "the workspace\'s own\\n" > kept/notes.txt && head -c 1M /dev/urandom > state.bin && echo written');
      expect(job.status, log).toBe('COMPLETE');
      expect(fs.readFileSync(path.join(dir, 'kept', 'notes.txt'), 'utf8')).toBe("the workspace's own\n");
      expect(fs.statSync(path.join(dir, 'state.bin')).size).toBe(1024 * 1024);
    });

    it('stops a job that writes past the quota, naming the setting, and takes back what it wrote', async () => {
      const before = fs.readFileSync(path.join(dir, 'state.bin'));
      // grows an earlier file, then writes new files until stopped; "finished" would come after 40 MB
      const { job, log } = await run(
        'head -c 2M /dev/zero >> state.bin; mkdir -p out/deep; mv kept/notes.txt out/deep/; for i in $(seq 1 40); do head -c 1M /dev/zero > out/deep/f$i; sleep 0.1; done; echo finished',
      );
      expect(job.status, log).toBe('ERROR');
      expect(log).toContain(QUOTA_LINE);
      expect(log).not.toContain('finished');
      expect(log).toMatch(/What the workspace's jobs wrote during this run was taken back: \d+ new files and directories removed, 1 grown files cut back/);
      // the host keeps its disk: the new files are gone, the grown file is as it was
      expect(fs.existsSync(path.join(dir, 'out', 'deep', 'f1'))).toBe(false);
      expect(fs.readFileSync(path.join(dir, 'state.bin')).equals(before)).toBe(true);
      // an earlier file the job moved into a directory of its own stays, with that directory
      expect(fs.readFileSync(path.join(dir, 'out', 'deep', 'notes.txt'), 'utf8')).toBe("the workspace's own\n");
      expect(allocatedBytes(dir)).toBeLessThan(QUOTA_MB * 1024 * 1024);
    });

    it('ends a job ERROR that wrote past the quota and exited before the next check', async () => {
      const { job, log } = await run('head -c 12M /dev/zero > burst.bin && echo done');
      expect(job.status, log).toBe('ERROR');
      expect(log).toContain(QUOTA_LINE);
      expect(fs.existsSync(path.join(dir, 'burst.bin'))).toBe(false);
      expect(allocatedBytes(dir)).toBeLessThan(QUOTA_MB * 1024 * 1024);
    });

    it('runs nothing in a workspace already over its quota, and says so', async () => {
      // over the quota from outside any job (as a lowered quota leaves it)
      const heavy = path.join(dir, 'heavy.bin');
      fs.writeFileSync(heavy, Buffer.alloc(10 * 1024 * 1024, 1));
      try {
        const { job, log } = await run('echo the script ran');
        expect(job.status, log).toBe('ERROR');
        expect(log).toContain(`Disk quota exceeded: the workspace's files already take more than ${QUOTA_MB} MB (WORKSPACE_DISK_QUOTA_MB), so the job was not started.`);
        expect(log).not.toContain('the script ran');
        // the workspace's files are its own: refusing to run removes nothing
        expect(fs.statSync(heavy).size).toBe(10 * 1024 * 1024);
      } finally {
        fs.rmSync(heavy);
      }
      const { job, log } = await run('echo the script ran');
      expect(job.status, log).toBe('COMPLETE');
    });
  });
}
