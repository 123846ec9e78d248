import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../server/http/errors';
import { createDataComponent } from '../../server/repositories/dataComponents';
import { newId } from '../../server/repositories/ids';
import { enqueueJob } from '../../server/runner';
import type { JobLimits } from '../../server/runner/executor';
import { LocalSandbox } from '../../server/runner/sandbox/sandbox';
import { findTool } from '../../server/runner/sandbox/tools';
import { savePipeline } from '../../server/services/savePipeline';
import { logOf, startBench, waitForStatus, type Bench } from './helpers';

// Issue 36: setting names became environment variables, and the launchers started with the job's
// environment, so a component named `ld` with a setting `audit` handed bwrap (or unshare's set-up
// shell, still mapped root) a library to run on the host. Here a marker library, a BASH_ENV
// script and a NODE_OPTIONS module each write a file into a host directory when they run; inside
// the sandbox that directory does not exist (its /tmp is private), so a marker on the host means
// code ran outside the sandbox. The controls prove the markers do run when loaded on the host.

const limits: JobLimits = { memoryMb: 256, cpuSeconds: 60, processes: 64, openFiles: 256, fileSizeMb: 16, logMb: 1 };

let work: string;
let markers: string;
let library: string;
let bashEnv: string;
let nodeModule: string;

const markersNow = () => fs.readdirSync(markers);

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'closed-env-'));
  markers = path.join(work, 'markers');
  fs.mkdirSync(markers);
  // world-readable and -writable, so the marker would land whichever outer uid ran it
  fs.chmodSync(work, 0o755);
  fs.chmodSync(markers, 0o777);
  const source = path.join(work, 'marker.c');
  fs.writeFileSync(
    source,
    `#include <stdio.h>
#include <unistd.h>
unsigned int la_version(unsigned int version) { return version; }
__attribute__((constructor)) static void mark(void) {
  char name[512];
  snprintf(name, sizeof name, "${markers}/library-%d-uid%d", (int)getpid(), (int)getuid());
  FILE *f = fopen(name, "w");
  if (f) { fputs("ran outside the sandbox\\n", f); fclose(f); }
}
`,
  );
  library = path.join(work, 'marker.so');
  execFileSync(findTool('cc') ?? 'cc', ['-shared', '-fPIC', '-o', library, source]);
  bashEnv = path.join(work, 'bash-env.sh');
  fs.writeFileSync(bashEnv, `echo ran > "${markers}/bash-env-$$"\n`);
  nodeModule = path.join(work, 'node-options.cjs');
  fs.writeFileSync(nodeModule, `require('fs').writeFileSync(${JSON.stringify(markers)} + '/node-options-' + process.pid, 'ran');\n`);
  for (const f of [library, bashEnv, nodeModule]) fs.chmodSync(f, 0o755);
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** The variables an attacker would hand a launcher, each pointing at code that leaves a marker. */
const hostile = () => ({ LD_AUDIT: library, LD_PRELOAD: library, BASH_ENV: bashEnv, NODE_OPTIONS: `--require ${nodeModule}` });

describe('the markers run when loaded on the host (the controls)', () => {
  it('the library under LD_PRELOAD and under LD_AUDIT, the BASH_ENV script and the NODE_OPTIONS module each leave a marker', () => {
    spawnSync('/bin/true', { env: { PATH: '/usr/bin:/bin', LD_PRELOAD: library } });
    spawnSync('/bin/true', { env: { PATH: '/usr/bin:/bin', LD_AUDIT: library } });
    // stdin not a socket: bash would take itself for rshd's child and read ~/.bashrc instead
    spawnSync('/bin/bash', ['-c', 'true'], { env: { PATH: '/usr/bin:/bin', BASH_ENV: bashEnv }, stdio: 'ignore' });
    spawnSync(process.execPath, ['-e', '0'], { env: { PATH: '/usr/bin:/bin', NODE_OPTIONS: `--require ${nodeModule}` } });
    const found = markersNow();
    expect(found.filter((m) => m.startsWith('library-'))).toHaveLength(2);
    expect(found.filter((m) => m.startsWith('bash-env-'))).toHaveLength(1);
    expect(found.filter((m) => m.startsWith('node-options-'))).toHaveLength(1);
    for (const m of found) fs.rmSync(path.join(markers, m));
  });
});

for (const mode of ['bwrap', 'unshare'] as const) {
  describe(`the closed environment (${mode})`, () => {
    let bench: Bench;

    beforeAll(async () => {
      bench = await startBench();
      await bench.startRunner({ sandbox: { mode, network: { mode: 'none', allowedHosts: [] }, limits }, concurrency: 1 });
    }, 180_000);
    afterAll(async () => {
      await bench?.close();
    });

    it('refuses at save the components and pipeline settings that would name LD_AUDIT, LD_PRELOAD, BASH_ENV and NODE_OPTIONS', async () => {
      for (const name of ['ld', 'bash', 'node']) {
        const created = await createDataComponent(bench.db, bench.workspaceId, { name, pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: 'builtin' });
        expect(created.ok, name).toBe(false);
        if (!created.ok) expect(created.problem).toContain(`${name.toUpperCase()}_…`);
      }
      // components saved before the rule, written below the API
      await insertComponents(bench, ['ld', 'bash', 'node']);
      const attempt = savePipeline(bench.db, {
        workspaceId: bench.workspaceId,
        id: newId(),
        existing: undefined,
        draft: false,
        createdBy: null,
        body: { name: `${mode} escape by settings`, dataComponents: ['ld', 'bash', 'node'], properties: { 'ld.audit': library, 'ld.preload': library, 'bash.env': bashEnv, 'node.options': `--require ${nodeModule}` } },
      });
      const error = await attempt.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      const fields = Object.fromEntries((error as HttpError).errors.map((e) => [e.field, e.defaultMessage]));
      expect(fields['properties.ld.audit']).toContain('LD_AUDIT');
      expect(fields['properties.ld.preload']).toContain('LD_PRELOAD');
      expect(fields['properties.bash.env']).toContain('BASH_ENV');
      expect(fields['properties.node.options']).toContain('NODE_OPTIONS');
    });

    it('a pipeline holding such settings (written below the API) runs without them: no variable, no marker on the host', async () => {
      await insertComponents(bench, ['ld', 'bash', 'node']);
      const pipeline = await bench.pipeline({
        name: `${mode} settings below the API`,
        dataComponents: ['ld', 'bash', 'node'],
        properties: { 'ld.audit': library, 'ld.preload': library, 'bash.env': bashEnv, 'node.options': `--require ${nodeModule}` },
        script: 'env | grep -E "^(LD_|BASH_ENV|NODE_OPTIONS)" || echo "no such variable"',
      });
      const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
      if (queued.status !== 'QUEUED') throw new Error(queued.status);
      const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 60_000);
      const log = (await logOf(bench.db, job.id)).join('\n');
      expect(job.status, log).toBe('COMPLETE');
      expect(log).toContain('no such variable');
      expect(log).toMatch(/Settings not passed to the job .*ld\.audit/);
      expect(markersNow()).toEqual([]);
    });

    it('variables injected straight into the executor reach only the job’s own processes, and its script no command line', async () => {
      const sandbox = new LocalSandbox({ kind: mode, launcher: findTool(mode)!, network: { mode: 'none', allowedHosts: [] }, limits, hidden: [bench.dataDir] });
      const project = path.join(bench.dataDir, 'projects', bench.workspaceId);
      fs.mkdirSync(project, { recursive: true });
      const mark = `script-mark-${process.pid}-${Date.now()}`;
      const lines: string[] = [];
      try {
        const started = sandbox.start({
          workspaceId: bench.workspaceId,
          // the job sees its own variables: the loader inside cannot find the host's library at that path
          script: `echo ${mark} started; printenv LD_AUDIT LD_PRELOAD BASH_ENV NODE_OPTIONS; sleep 3; echo done`,
          projectDir: project,
          env: { PATH: '/usr/bin:/bin', ...hostile() },
          timeoutMs: 30_000,
          killGraceMs: 1000,
          onLine: (line) => lines.push(line),
        });
        // while it runs, no process on the host carries the script in its arguments
        await waitUntil(() => lines.some((l) => l.includes(`${mark} started`)));
        expect(commandLinesHolding(mark)).toEqual([]);
        const result = await started.done;
        expect(result, lines.join('\n')).toMatchObject({ reason: 'EXITED', exitCode: 0 });
      } finally {
        sandbox.close();
      }
      const log = lines.join('\n');
      expect(log).toContain(library);
      expect(log).toContain(`--require ${nodeModule}`);
      expect(log).toContain('done');
      expect(markersNow()).toEqual([]);
    });
  });
}

async function insertComponents(bench: Bench, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await bench.db
      .insertInto('data_components')
      .values({ id: newId(), workspace_id: bench.workspaceId, name, plugin_type: 'EXTRACTOR', plugin_name: 'tap-demo', variant: 'builtin', properties: '{}' })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

async function waitUntil(test: () => boolean, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The host's processes (this one aside) whose command line holds `text`. */
function commandLinesHolding(text: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(text)) found.push(`${pid}: ${cmdline.replace(/\0/g, ' ')}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
