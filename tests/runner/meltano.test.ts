import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readDiscovery } from '../../src/domain/discovery';
import { publishPlugins } from '../../server/repositories/dataPlugins';
import { enqueueJob } from '../../server/runner';
import { meltanoRoot } from '../../server/runner/meltano/provision';
import { loadMeltanoSettings, type MeltanoSettings } from '../../server/runner/meltano/settings';
import { STATE_DIR } from '../../server/runner/meltano/state';
import { projectDir } from '../../server/runner/project';
import { fullRefreshAs } from '../../server/services/pipelineState';
import { logOf, startBench, waitForStatus, type Bench } from './helpers';

// Meltano for real (issue 37): the pinned Meltano from the package index, a singer-sdk tap of our
// own installed from a path inside the project, target-jsonl from the index, all in the job sandbox.
// Meltano is installed once per machine into a cache that outlives the test (a later run reuses
// it); each workspace's plugins are installed by its first job, from its own download cache.

const FIXTURES = path.resolve(__dirname, '../fixtures');
/**
 * Outside /root: a root server runs each workspace's sandbox under a uid of its own, which must be
 * able to pass every directory above Meltano's environment (/root is 0700).
 */
const CACHE_DIR = process.env.RUNNER_TEST_CACHE_DIR ?? (process.getuid?.() === 0 ? '/var/cache/workspace-runner-test' : path.join(os.homedir(), '.cache', 'workspace-runner-test'));
const SECRET = `counter-secret-${Math.random().toString(36).slice(2)}`;
const RUN_TIMEOUT_MS = 600_000;

const DISCOVERY = `
extractors:
  - name: tap-counter
    namespace: tap_counter
    pip_url: ./tap-counter
    executable: tap-counter
    capabilities: [catalog, discover, state]
    settings:
      - { name: count, kind: integer }
      - { name: api_key, kind: password, sensitive: true }
      - { name: label, value: defaulted, value_processor: upcase_string }
loaders:
  - name: target-jsonl
    namespace: target_jsonl
    pip_url: target-jsonl
    settings:
      - { name: destination_path }
      - { name: do_timestamp_file, kind: boolean }
utilities:
  - name: net-probe
    namespace: net_probe
    pip_url: ./net-probe
    executable: python3
`;

async function publishFixturePlugins(bench: Bench): Promise<void> {
  const discovery = readDiscovery(parse(DISCOVERY));
  expect(discovery.errors).toEqual([]);
  await publishPlugins(bench.db, bench.workspaceId, discovery.plugins);
}

/** Copies a fixture into the workspace's project, as a deployed repository would hold a custom plugin. */
function copyFixture(bench: Bench, name: string): void {
  fs.cpSync(path.join(FIXTURES, name), path.join(projectDir(bench.dataDir, bench.workspaceId), name), { recursive: true });
}

async function run(bench: Bench, pipelineId: string) {
  const queued = await enqueueJob(bench.db, pipelineId, { kind: 'MANUAL' });
  if (queued.status !== 'QUEUED') throw new Error(queued.status);
  const started = Date.now();
  const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], RUN_TIMEOUT_MS);
  return { job, log: await logOf(bench.db, job.id), seconds: (Date.now() - started) / 1000 };
}

/** How long each part of a job took, from its log's timestamps: for the test's output, not asserted. */
async function timings(bench: Bench, jobId: string): Promise<string> {
  const rows = await bench.db.selectFrom('job_logs').select(['timestamp', 'message']).where('job_id', '=', jobId).orderBy('sequence').execute();
  const at = (text: string) => rows.find((r) => r.message.includes(text))?.timestamp;
  const seconds = (from: unknown, to: unknown) => (from && to ? ((new Date(to as string).getTime() - new Date(from as string).getTime()) / 1000).toFixed(1) : '-');
  const provisioned = rows.find((r) => /^Meltano [\d.]+ installed in/.test(r.message))?.message ?? 'Meltano was in the cache';
  return `${provisioned}; meltano install ${seconds(at("Installing the pipeline's Python plugins"), at('Plugins installed.'))} s; meltano run ${seconds(at('Plugins installed.'), rows[rows.length - 1]?.timestamp)} s`;
}

/** Every command line on the machine that holds `needle`, sampled until `stop` is called. */
function watchCommandLines(needle: string): { stop(): string[] } {
  const found = new Set<string>();
  const timer = setInterval(() => {
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        if (cmdline.includes(needle)) found.add(cmdline);
      } catch {
        // gone
      }
    }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return [...found];
    },
  };
}

/** The index of the first line containing `text`, searching from `from`; -1 when none. */
const lineAfter = (log: readonly string[], text: string, from = 0) => log.findIndex((line, i) => i >= from && line.includes(text));

describe('Meltano runs Python plugins in the job sandbox', () => {
  let bench: Bench;
  let settings: MeltanoSettings;
  beforeAll(async () => {
    bench = await startBench();
    settings = loadMeltanoSettings(bench.dataDir, { ...process.env, RUNNER_CACHE_DIR: CACHE_DIR });
    await bench.startRunner({ meltano: settings });
    await publishFixturePlugins(bench);
    await bench.component({ name: 'tap-counter', pluginType: 'EXTRACTOR', pluginName: 'tap-counter' });
    await bench.component({ name: 'target-jsonl', pluginType: 'LOADER', pluginName: 'target-jsonl' });
    await bench.component({ name: 'net-probe', pluginType: 'UTILITY', pluginName: 'net-probe' });
    copyFixture(bench, 'tap-counter');
    copyFixture(bench, 'net-probe');
  }, 60_000);
  afterAll(() => bench.close());

  const project = () => projectDir(bench.dataDir, bench.workspaceId);
  const rowsOf = () =>
    fs
      .readFileSync(path.join(project(), 'output', 'counts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; label: string; key_length: number });

  let pipelineId = '';

  it('installs Meltano, the tap from a path and target-jsonl from the index, then runs them: rows loaded, state in the database, the secret nowhere', async () => {
    const pipeline = await bench.pipeline({
      name: 'counter to jsonl',
      dataComponents: ['tap-counter', 'target-jsonl'],
      properties: { 'tap-counter.count': 10, 'tap-counter.api_key': SECRET, 'tap-counter.label': 'counted', 'target-jsonl.destination_path': 'output', 'target-jsonl.do_timestamp_file': false },
    });
    pipelineId = pipeline.id;
    const commandLines = watchCommandLines(SECRET);
    const { job, log, seconds } = await run(bench, pipeline.id);
    const leaked = commandLines.stop();
    const text = log.join('\n');
    expect(job.status, text).toBe('COMPLETE');
    console.log(`first run, ${seconds.toFixed(1)} s in all: ${await timings(bench, job.id)}`);
    expect(fs.existsSync(meltanoRoot(settings))).toBe(true);
    // the install step, then the run, line by line in order
    const install = lineAfter(log, "Installing the pipeline's Python plugins whose requirements changed (meltano install): meltano-install-changed tap-counter target-jsonl");
    expect(install, text).toBeGreaterThan(0);
    const onlyIndex = lineAfter(log, 'Network of this step: only the package index', install);
    const installed = lineAfter(log, "Installed extractor 'tap-counter'", install);
    const running = lineAfter(log, 'Plugins installed. Running the pipeline.', installed);
    const stateId = `dev:tap-counter-to-target-jsonl:${pipeline.id}`;
    const named = lineAfter(log, `Running job with name '${stateId}'`, running);
    const saved = lineAfter(log, `Meltano's state saved for the pipeline: ${stateId}.`, named);
    expect([onlyIndex, installed, running, named, saved].every((i) => i > 0), text).toBe(true);
    expect(lineAfter(log, "Installed loader 'target-jsonl'", install)).toBeLessThan(running);
    // the rows, with the secret's length: it reached the tap
    const rows = rowsOf();
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(rows.every((r) => r.key_length === SECRET.length)).toBe(true);
    // the label setting's value_processor (upcase_string) reached Meltano through meltano.yml
    expect(rows.map((r) => r.label)).toEqual(rows.map((r) => `COUNTED ${r.id}`));
    // the state is in the database, and on no disk
    const state = await bench.db.selectFrom('pipeline_states').selectAll().where('pipeline_id', '=', pipeline.id).executeTakeFirstOrThrow();
    expect(state.state_id).toBe(stateId);
    expect(state.value).toMatchObject({ completed: { singer_state: { bookmarks: { counts: { replication_key_value: 10 } } } } });
    expect(fs.readdirSync(path.join(project(), STATE_DIR))).toEqual([]);
    // the secret: never in the log, never on a command line of any process while the job ran
    expect(text).not.toContain(SECRET);
    expect(leaked).toEqual([]);
    // Meltano's own environment, mounted read-only; the plugins' in the project
    expect(fs.existsSync(path.join(project(), '.meltano', 'extractors', 'tap-counter', 'venv'))).toBe(true);
  }, RUN_TIMEOUT_MS);

  it('a second run reads only the rows after the bookmark the database holds, not a file on this disk', async () => {
    expect(pipelineId).not.toBe('');
    // the database says 12 was read: only a state seeded from it makes the tap start at 13
    const stateId = `dev:tap-counter-to-target-jsonl:${pipelineId}`;
    const row = await bench.db.selectFrom('pipeline_states').select('value').where('pipeline_id', '=', pipelineId).where('state_id', '=', stateId).executeTakeFirstOrThrow();
    const moved = JSON.parse(JSON.stringify(row.value).replace('"replication_key_value":10', '"replication_key_value":12')) as Record<string, unknown>;
    await bench.db.updateTable('pipeline_states').set({ value: JSON.stringify(moved) }).where('pipeline_id', '=', pipelineId).where('state_id', '=', stateId).execute();
    fs.rmSync(path.join(project(), 'output'), { recursive: true, force: true });
    fs.rmSync(path.join(project(), STATE_DIR), { recursive: true, force: true });
    await bench.db.updateTable('pipelines').set({ properties: JSON.stringify({ 'tap-counter.count': 15, 'tap-counter.api_key': SECRET, 'target-jsonl.destination_path': 'output', 'target-jsonl.do_timestamp_file': false }) }).where('id', '=', pipelineId).execute();
    const { job, log, seconds } = await run(bench, pipelineId);
    const text = log.join('\n');
    expect(job.status, text).toBe('COMPLETE');
    console.log(`second run, ${seconds.toFixed(1)} s in all: ${await timings(bench, job.id)}`);
    // nothing changed: Meltano reinstalls nothing
    expect(text).toContain("Installing the pipeline's Python plugins whose requirements changed");
    expect(text).not.toMatch(/Install(ing|ed) (extractor|loader)/);
    expect(rowsOf().map((r) => r.id)).toEqual([13, 14, 15]);
    // no label in the pipeline now: the definition's default reaches the tap, through its value_processor too
    expect(rowsOf().map((r) => r.label)).toEqual(['DEFAULTED 13', 'DEFAULTED 14', 'DEFAULTED 15']);
    const state = await bench.db.selectFrom('pipeline_states').select('value').where('pipeline_id', '=', pipelineId).where('state_id', '=', stateId).executeTakeFirstOrThrow();
    expect(state.value).toMatchObject({ completed: { singer_state: { bookmarks: { counts: { replication_key_value: 15 } } } } });
    expect(text).not.toContain(SECRET);
  }, RUN_TIMEOUT_MS);

  it('after Full refresh the next run reads every row again, and keeps a state of its own', async () => {
    expect(pipelineId).not.toBe('');
    // the service the 'full refresh' link calls, as a person would through the API
    const pipeline = await bench.db.selectFrom('pipelines').select(['id', 'name', 'workspace_id']).where('id', '=', pipelineId).executeTakeFirstOrThrow();
    await fullRefreshAs(bench.db, pipeline, { profileId: 'runner-test', name: 'Runner test' });
    expect(await bench.db.selectFrom('pipeline_states').select('state_id').where('pipeline_id', '=', pipelineId).execute()).toEqual([]);
    fs.rmSync(path.join(project(), 'output'), { recursive: true, force: true });
    const { job, log } = await run(bench, pipelineId);
    expect(job.status, log.join('\n')).toBe('COMPLETE');
    expect(rowsOf().map((r) => r.id)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    const state = await bench.db.selectFrom('pipeline_states').select('value').where('pipeline_id', '=', pipelineId).executeTakeFirstOrThrow();
    expect(state.value).toMatchObject({ completed: { singer_state: { bookmarks: { counts: { replication_key_value: 15 } } } } });
  }, RUN_TIMEOUT_MS);

  it('while plugins install, the job reaches the package index and nothing else', async () => {
    const pipeline = await bench.pipeline({ name: 'probe', dataComponents: ['net-probe'] });
    const { job, log } = await run(bench, pipeline.id);
    expect(job.status, log.join('\n')).toBe('COMPLETE');
    const probe = JSON.parse(fs.readFileSync(path.join(project(), 'net-probe.json'), 'utf8')) as Record<string, string>;
    expect(probe.index).toBe('connected');
    // refused by the sandbox's routes (EACCES), not timed out somewhere on the way
    expect(probe.public).toMatch(/PermissionError|Errno 13/);
    expect(probe.private).toMatch(/PermissionError|Errno 13/);
  }, RUN_TIMEOUT_MS);

  it("a deployed repository's own meltano.yml is Meltano's project, as written", async () => {
    // as a deployment leaves it: the clone in `repository/`, with its own custom tap and config
    const repository = path.join(project(), 'repository');
    fs.mkdirSync(repository);
    fs.cpSync(path.join(FIXTURES, 'tap-counter'), path.join(repository, 'tap-counter'), { recursive: true });
    fs.writeFileSync(
      path.join(repository, 'meltano.yml'),
      [
        'default_environment: dev',
        'environments: [{name: dev}]',
        'plugins:',
        '  extractors:',
        '  - name: tap-counter',
        '    namespace: tap_counter',
        '    pip_url: ./tap-counter',
        '    capabilities: [catalog, discover, state]',
        '    settings: [{name: count, kind: integer}, {name: api_key, kind: password, sensitive: true}]',
        '    config: {count: 3}',
        '  loaders:',
        '  - name: target-jsonl',
        '    namespace: target_jsonl',
        '    pip_url: target-jsonl',
        '    config: {destination_path: repo-output, do_timestamp_file: false}',
        '',
      ].join('\n'),
    );
    // a real clone is written by the deployment's job, as the workspace's own uid: so is this one
    const owner = fs.statSync(project());
    const chownAll = (p: string): void => {
      fs.lchownSync(p, owner.uid, owner.gid);
      if (fs.lstatSync(p).isDirectory()) for (const name of fs.readdirSync(p)) chownAll(path.join(p, name));
    };
    chownAll(repository);
    const written = fs.readFileSync(path.join(repository, 'meltano.yml'), 'utf8');
    try {
      const pipeline = await bench.pipeline({ name: 'from the repository', dataComponents: ['tap-counter', 'target-jsonl'], properties: { 'tap-counter.api_key': SECRET } });
      const { job, log } = await run(bench, pipeline.id);
      const text = log.join('\n');
      expect(job.status, text).toBe('COMPLETE');
      expect(text).toContain("Meltano's project is the deployed repository, its meltano.yml as written");
      // its config (count 3, the destination relative to the repository), and its file untouched
      const rows = fs.readFileSync(path.join(repository, 'repo-output', 'counts.jsonl'), 'utf8').trim().split('\n');
      expect(rows.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 2, 3]);
      expect(fs.readFileSync(path.join(repository, 'meltano.yml'), 'utf8')).toBe(written);
      expect(fs.existsSync(path.join(repository, '.meltano', 'extractors', 'tap-counter', 'venv'))).toBe(true);
    } finally {
      fs.rmSync(repository, { recursive: true, force: true });
    }
  }, RUN_TIMEOUT_MS);
});

describe('where the package index cannot be reached', () => {
  let bench: Bench;
  let cache: string;
  beforeAll(async () => {
    bench = await startBench();
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-cache-'));
    fs.chmodSync(cache, 0o755);
    // port 9 of the loopback: nothing listens, the connection is refused at once
    const settings = loadMeltanoSettings(bench.dataDir, { RUNNER_CACHE_DIR: cache, RUNNER_PACKAGE_INDEX_URL: 'http://127.0.0.1:9/simple' });
    await bench.startRunner({ meltano: settings });
    await publishFixturePlugins(bench);
    await bench.component({ name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: 'builtin' });
    await bench.component({ name: 'tap-counter', pluginType: 'EXTRACTOR', pluginName: 'tap-counter' });
    await bench.component({ name: 'target-jsonl', pluginType: 'LOADER', pluginName: 'target-jsonl' });
  }, 60_000);
  afterAll(async () => {
    await bench.close();
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('a pipeline of built-in plugins never provisions Meltano', async () => {
    const pipeline = await bench.pipeline({ name: 'built-in only', dataComponents: ['tap-demo'], script: 'meltano invoke tap-demo --discover > /dev/null && echo discovered' });
    const { job, log } = await run(bench, pipeline.id);
    expect(job.status, log.join('\n')).toBe('COMPLETE');
    expect(log).toContain('discovered');
    expect(fs.readdirSync(cache)).toEqual([]);
  }, 60_000);

  it('a Python pipeline ends ERROR with one line naming what it needed, and nothing half-installed stays', async () => {
    const pipeline = await bench.pipeline({ name: 'python', dataComponents: ['tap-counter', 'target-jsonl'] });
    const { job, log } = await run(bench, pipeline.id);
    expect(job.status).toBe('ERROR');
    const lines = log.filter((line) => line.startsWith('Meltano 4.4.1 could not be installed: the package index http://127.0.0.1:9/simple could not be reached ('));
    expect(lines, log.join('\n')).toHaveLength(1);
    // no environment, no temporary directory, no lock: the next job starts from nothing
    expect(fs.readdirSync(path.join(cache, 'meltano'))).toEqual([]);
  }, 120_000);
});
