import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../server/runner';
import { projectDir } from '../../server/runner/project';
import { storeTables } from '../../server/stores/defaultStore';
import { logOf, startBench, waitForStatus, type Bench } from './helpers';

// The built-in plugins refuse what a workspace must not reach, each with a line saying so:
// tap-files reads files of the project only (no absolute path, no .., no link out of it), and
// tap-postgres connects to no loopback or private host the job's allow list does not name —
// attempted here against this machine's own files and its loopback.

describe('built-in plugins stay inside the workspace', () => {
  let bench: Bench;
  let project: string;
  beforeAll(async () => {
    bench = await startBench();
    await bench.startRunner();
    project = projectDir(bench.dataDir, bench.workspaceId);
    fs.mkdirSync(path.join(project, 'files'), { recursive: true });
    fs.writeFileSync(path.join(project, 'files', 'cities.csv'), 'name,people\nLeeds,800000\nYork,200000\n');
    // A link planted in the project, pointing at the server's own files.
    fs.symlinkSync(path.resolve(import.meta.dirname, '../../package.json'), path.join(project, 'files', 'package.json'));
    fs.symlinkSync(path.resolve(import.meta.dirname, '../..'), path.join(project, 'app'));
    await bench.component({ name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' });
  });
  afterAll(() => bench?.close());

  let pipelines = 0;
  const run = async (extractor: { pluginName: string; properties: Record<string, unknown> }) => {
    const name = `${extractor.pluginName}-${++pipelines}`;
    await bench.component({ name, pluginType: 'EXTRACTOR', pluginName: extractor.pluginName, variant: 'builtin', properties: extractor.properties });
    const pipeline = await bench.pipeline({ name: `boundary ${pipelines}`, dataComponents: [name, 'target-store'] });
    const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 40_000);
    return { status: job.status, log: (await logOf(bench.db, job.id)).join('\n') };
  };

  it('tap-files reads a file of the project by a relative path', async () => {
    const result = await run({ pluginName: 'tap-files', properties: { paths: ['files/cities.csv'] } });
    expect(result.status, result.log).toBe('COMPLETE');
    expect(await storeTables(bench.db, bench.workspaceId)).toContain('cities');
  });

  it.each([
    ['an absolute path', '/etc/hostname', "paths entry '/etc/hostname' leads outside the project directory: refused"],
    ['a path up and out', '../../..', "paths entry '../../..' leads outside the project directory: refused"],
    ['a link to a file outside', 'files/package.json', "paths entry 'files/package.json' leads outside the project directory: refused"],
    ['a link to a directory outside', 'app/package.json', "paths entry 'app/package.json' leads outside the project directory: refused"],
  ])('tap-files refuses %s with a clear line', async (_, entry, line) => {
    const result = await run({ pluginName: 'tap-files', properties: { paths: [entry] } });
    expect(result.status).toBe('ERROR');
    expect(result.log).toContain(`tap-files | ERROR ${line}`);
    expect(result.log).not.toContain('"name"');
  });

  it('tap-files refuses a link to outside found inside a directory it reads', async () => {
    const result = await run({ pluginName: 'tap-files', properties: { paths: ['files'] } });
    expect(result.status).toBe('ERROR');
    expect(result.log).toContain("tap-files | ERROR paths entry 'files/package.json' leads outside the project directory: refused");
  });

  it.each([['127.0.0.1'], ['localhost'], ['::ffff:127.0.0.1'], ['169.254.169.254']])('tap-postgres refuses %s by the network policy before connecting', async (host) => {
    const result = await run({ pluginName: 'tap-postgres', properties: { host, port: 5432, user: 'postgres', database: 'postgres' } });
    expect(result.status).toBe('ERROR');
    expect(result.log).toMatch(/tap-postgres \| ERROR refused by the network policy: .* is a (loopback|link-local) address; a private host must be named in RUNNER_ALLOWED_HOSTS/);
  });
});
