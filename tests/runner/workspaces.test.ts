import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchedule } from '../../src/domain/cron';
import { createList } from '../../server/repositories/channels';
import { githubWebhookRoutes } from '../../server/routes/githubWebhook';
import { githubSignature } from '../../server/security/githubWebhook';
import { createDataComponent } from '../../server/repositories/dataComponents';
import { newId } from '../../server/repositories/ids';
import { createWorkspace, deleteWorkspace, findWorkspace, insertWorkspaceJob } from '../../server/repositories/workspaces';
import { applyDefinitions } from '../../server/runner/deploy/apply';
import { parseDefinitions } from '../../server/runner/deployDefinitions';
import { projectDir } from '../../server/runner/project';
import { outerIds } from '../../server/runner/sandbox/outerUid';
import { queueSignals } from '../../server/runner/signals';
import { defaultStoreOf, storeSchemaName } from '../../server/stores/defaultStore';
import { checkQuery, QueryRefused } from '../../server/stores/queryGuard';
import { logOf, startBench, waitFor, waitForStatus, type Bench } from './helpers';
import { storeDbOf } from '../../server/db/storeDatabase';

// The workspace's own jobs on the real runner: WORKSPACE_INIT takes a new workspace from
// PROVISIONING to READY (project directory, default store); WORKSPACE_DEPLOY clones a local git
// repository with git and applies its pipeline and dataset definitions (all or nothing).

let bench: Bench;
let owner: string;
let repo: string;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
}

beforeAll(async () => {
  bench = await startBench();
  owner = `auth0|${newId()}`;
  await bench.db.insertInto('profiles').values({ id: owner, name: 'Owner', email: 'owner@example.com', can_create_workspaces: true }).execute();
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-repo-'));
  // readable by others, as an operator's repositories are: the clone runs as the workspace's own uid
  fs.chmodSync(repo, 0o755);
  git(repo, 'init', '--quiet', '--initial-branch=main');
  fs.mkdirSync(path.join(repo, 'pipelines'));
  fs.mkdirSync(path.join(repo, 'datasets'));
  fs.writeFileSync(path.join(repo, 'pipelines', 'sales.yml'), 'label: Sales import\ntimeout: 60\n');
  fs.writeFileSync(path.join(repo, 'datasets', 'revenue.yaml'), 'title: Revenue\nquery: SELECT 1\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'definitions');
  // Local repositories are deployed from the temporary directory only (REPOSITORY_LOCAL_ROOTS).
  await bench.startRunner({ repositoryLocalRoots: [os.tmpdir()] });
});
afterAll(async () => {
  await bench?.close();
  fs.rmSync(repo, { recursive: true, force: true });
});

async function newWorkspace(name: string): Promise<string> {
  const id = newId();
  const created = await createWorkspace(bench.db, id, owner, { name });
  expect(created?.workspace.status).toBe('PROVISIONING');
  queueSignals.emit('queued', created!.initJobId);
  const job = await waitForStatus(bench.db, created!.initJobId, ['COMPLETE', 'ERROR'], 30_000);
  expect(job.status, (await logOf(bench.db, job.id)).join('\n')).toBe('COMPLETE');
  return id;
}

async function deploy(workspaceId: string): Promise<{ status: string; log: string; commit: string | null }> {
  const job = await insertWorkspaceJob(bench.db, workspaceId, 'WORKSPACE_DEPLOY', owner, 'test');
  queueSignals.emit('queued', job!.id);
  const ended = await waitForStatus(bench.db, job!.id, ['COMPLETE', 'ERROR', 'STOPPED'], 60_000);
  return { status: ended.status, log: (await logOf(bench.db, job!.id)).join('\n'), commit: ended.commit_id };
}

describe('WORKSPACE_INIT', () => {
  it('makes the project directory and the default store, and the workspace READY', async () => {
    const id = await newWorkspace('Init test');
    expect((await findWorkspace(bench.db, id))?.status).toBe('READY');
    expect(fs.existsSync(path.join(projectDir(bench.dataDir, id), 'meltano.yml'))).toBe(true);
    expect((await defaultStoreOf(bench.db, id))?.is_default).toBe(true);
  });
});

describe('WORKSPACE_DEPLOY', () => {
  it('says there is nothing to deploy when no repository is set', async () => {
    const id = await newWorkspace('No repository');
    const result = await deploy(id);
    expect(result.status).toBe('COMPLETE');
    expect(result.log).toMatch(/Nothing to deploy: this workspace has no repository URL/);
  });

  it('clones a local git repository and applies its pipeline and dataset definitions, recording the commit', async () => {
    const id = await newWorkspace('Local repository');
    await bench.db.updateTable('workspaces').set({ repository_url: repo }).where('id', '=', id).execute();
    const result = await deploy(id);
    expect(result.status, result.log).toBe('COMPLETE');
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    expect(result.commit).toBe(head);
    expect(result.log).toContain('pipelines/sales.yml: label is ignored: pipelines are shown by their name (the file name).');
    expect(result.log).toContain('Created pipeline sales from pipelines/sales.yml.');
    expect(result.log).toContain('Created dataset revenue from datasets/revenue.yaml.');
    expect(result.log).toContain('Deployed 1 pipeline (1 new) and 1 dataset (1 new).');
    expect(fs.existsSync(path.join(projectDir(bench.dataDir, id), 'repository', 'pipelines', 'sales.yml'))).toBe(true);

    // A deleted workspace takes its default store's schema with it.
    expect(await deleteWorkspace(bench.db, id)).toBe(true);
    const schemas = await storeDbOf(bench.db).selectFrom('information_schema.schemata' as never).select('schema_name' as never).where('schema_name' as never, '=', storeSchemaName(id) as never).execute();
    expect(schemas).toEqual([]);
  });

  it("deploys on GitHub's push webhook to the workspace's branch, signed with its deployment secret; a wrong signature is 401 and nothing runs", async () => {
    const id = await newWorkspace('Webhook');
    await bench.db.updateTable('workspaces').set({ repository_url: repo, repository_branch: 'main' }).where('id', '=', id).execute();
    const secret = (await findWorkspace(bench.db, id))!.deployment_secret!;
    const app = Fastify();
    await app.register(githubWebhookRoutes, { prefix: '/api', db: bench.db });
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    // the shape of a real push delivery (https://docs.github.com/webhooks/webhook-events-and-payloads#push)
    const push = (ref: string) =>
      JSON.stringify({
        ref,
        before: '0000000000000000000000000000000000000000',
        after: head,
        repository: { id: 1, name: 'workspace', full_name: 'acme/workspace', default_branch: 'main', clone_url: 'https://github.com/acme/workspace.git' },
        pusher: { name: 'ada', email: 'ada@example.com' },
        sender: { login: 'ada', id: 2 },
        created: false,
        deleted: false,
        forced: false,
        commits: [{ id: head, message: 'definitions', timestamp: new Date().toISOString(), author: { name: 't', email: 't@example.com' }, added: ['pipelines/sales.yml'], removed: [], modified: [] }],
        head_commit: { id: head, message: 'definitions' },
      });
    const deliver = (body: string, signature: string | undefined, event = 'push') =>
      app.inject({
        method: 'POST',
        url: `/api/workspaces/${id}/deployments/github-webhook`,
        headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': newId(), ...(signature ? { 'x-hub-signature-256': signature } : {}) },
        payload: body,
      });
    const deployments = () => bench.db.selectFrom('jobs').select('id').where('workspace_id', '=', id).where('type', '=', 'WORKSPACE_DEPLOY').execute();

    const main = push('refs/heads/main');
    for (const forged of [undefined, githubSignature('not-the-secret', Buffer.from(main)), githubSignature(secret, Buffer.from(`${main} `))]) {
      const refused = await deliver(main, forged);
      expect(refused.statusCode).toBe(401);
    }
    const unknown = await app.inject({ method: 'POST', url: `/api/workspaces/${newId()}/deployments/github-webhook`, headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': githubSignature(secret, Buffer.from(main)) }, payload: main });
    expect(unknown.statusCode).toBe(401);
    expect((await deliver('{}', githubSignature(secret, Buffer.from('{}')), 'ping')).statusCode).toBe(200);
    const other = push('refs/heads/feature');
    const ignored = await deliver(other, githubSignature(secret, Buffer.from(other)));
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json()).toMatchObject({ message: expect.stringContaining('this workspace deploys main') });
    expect(await deployments()).toEqual([]);

    const accepted = await deliver(main, githubSignature(secret, Buffer.from(main)));
    expect(accepted.statusCode).toBe(202);
    const { jobId } = accepted.json<{ jobId: string }>();
    const ended = await waitForStatus(bench.db, jobId, ['COMPLETE', 'ERROR', 'STOPPED'], 60_000);
    expect(ended.status, (await logOf(bench.db, jobId)).join('\n')).toBe('COMPLETE');
    expect(ended.commit_id).toBe(head);
    expect(ended.triggered_by).toBe(`GitHub push ${head.slice(0, 12)} by ada`);
    expect(await deployments()).toHaveLength(1);
    await app.close();
  });

  it('ends ERROR with a clear line when the branch does not exist, keeping what was deployed', async () => {
    const id = await newWorkspace('Missing branch');
    await bench.db.updateTable('workspaces').set({ repository_url: repo, repository_branch: 'no-such-branch' }).where('id', '=', id).execute();
    const result = await deploy(id);
    expect(result.status).toBe('ERROR');
    expect(result.log).toMatch(/could not be fetched/);
  });

  it('refuses a repository inside the data directory', async () => {
    const id = await newWorkspace('Inside data');
    await bench.db.updateTable('workspaces').set({ repository_url: path.join(bench.dataDir, 'projects') }).where('id', '=', id).execute();
    const result = await deploy(id);
    expect(result.status).toBe('ERROR');
    expect(result.log).toMatch(/inside the server's data directory/);
  });

  // The clone runs as the workspace's own uid, which has only the rights every user has (on a server
  // that is host root; elsewhere the job reads as the server and this case cannot arise).
  it.skipIf(outerIds(newId()).uid === undefined)("names the directory the job's user cannot read, and the fix, before the job starts (issue 38)", async () => {
    const id = await newWorkspace('Unreadable repository');
    // a repository others may read, in a directory they may not pass through (mkdtemp makes it 0700)
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-closed-'));
    const inside = path.join(closed, 'repo');
    git(os.tmpdir(), 'clone', '--quiet', repo, inside);
    fs.chmodSync(inside, 0o755);
    try {
      await bench.db.updateTable('workspaces').set({ repository_url: inside }).where('id', '=', id).execute();
      const closedDir = await deploy(id);
      expect(closedDir.status, closedDir.log).toBe('ERROR');
      expect(closedDir.log).toContain(`Nothing deployed: the local repository ${inside} cannot be read by the job's user (uid ${outerIds(id).uid ?? ''}`);
      expect(closedDir.log).toContain(`${closed} is a directory other users cannot pass through (mode 0700)`);
      expect(closedDir.log).toContain(`chmod o+x ${closed}`);
      expect(closedDir.log).not.toMatch(/Can't find source path|bwrap/);
      expect(closedDir.log).not.toMatch(/^Deploying /m);

      // passable, but a file of the repository's git data readable by its owner only
      fs.chmodSync(closed, 0o711);
      const head = path.join(inside, '.git', 'HEAD');
      fs.chmodSync(head, 0o600);
      const closedFile = await deploy(id);
      expect(closedFile.status, closedFile.log).toBe('ERROR');
      expect(closedFile.log).toContain(`${head} is a file other users cannot read (mode 0600)`);
      expect(closedFile.log).toContain(`chmod -R o+rX ${inside}`);

      fs.chmodSync(head, 0o644);
      const readable = await deploy(id);
      expect(readable.status, readable.log).toBe('COMPLETE');
    } finally {
      fs.rmSync(closed, { recursive: true, force: true });
    }
  });

  it('refuses a local repository outside REPOSITORY_LOCAL_ROOTS, also when a link inside them leads there', async () => {
    const id = await newWorkspace('Outside the roots');
    // This project's own checkout is a git repository outside the temporary directory.
    const outside = path.resolve(import.meta.dirname, '../..');
    const link = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-link-'));
    fs.symlinkSync(outside, path.join(link, 'repo'));
    try {
      for (const url of [outside, path.join(link, 'repo')]) {
        await bench.db.updateTable('workspaces').set({ repository_url: url }).where('id', '=', id).execute();
        const result = await deploy(id);
        expect(result.status, result.log).toBe('ERROR');
        expect(result.log).toContain(`Nothing deployed: the local repository ${url} is not under a directory REPOSITORY_LOCAL_ROOTS allows.`);
        expect(fs.existsSync(path.join(projectDir(bench.dataDir, id), 'repository'))).toBe(false);
      }
    } finally {
      fs.rmSync(link, { recursive: true, force: true });
    }
  });
});

describe('WORKSPACE_DEPLOY applies definitions', () => {
  let definitions: string;
  let workspaceId: string;
  let channelId: string;

  const write = (file: string, text: string) => fs.writeFileSync(path.join(definitions, file), text);
  const commit = (message: string) => {
    git(definitions, 'add', '-A');
    git(definitions, 'commit', '--quiet', '-m', message);
  };
  const pipelinesOf = (id: string) => bench.db.selectFrom('pipelines').selectAll().where('workspace_id', '=', id).orderBy('name').execute();
  const datasetsOf = (id: string) => bench.db.selectFrom('datasets').selectAll().where('workspace_id', '=', id).orderBy('alias').execute();

  const DAILY = [
    'version: pipelines/v0.1',
    'data_components: [tap-demo, target-store]',
    'inline_script: echo deployed',
    'schedule: 0 0 6 * * *',
    'timeout: 600',
    'max_retries: 1',
    'properties:',
    '  tap-demo.seed: 7',
    'triggered_by: [deploy]',
    'colour: red',
    '',
  ].join('\n');

  beforeAll(async () => {
    definitions = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-definitions-'));
    fs.chmodSync(definitions, 0o755);
    git(definitions, 'init', '--quiet', '--initial-branch=main');
    fs.mkdirSync(path.join(definitions, 'pipelines'));
    fs.mkdirSync(path.join(definitions, 'datasets'));
    write('pipelines/daily.yml', DAILY);
    write('datasets/revenue.yml', ['version: datasets/v0.2', 'source: Sales', 'title: Revenue', 'description: "Money in #finance"', 'query: SELECT 1 AS total', ''].join('\n'));
    write(
      'datasets/customers.yaml',
      [
        'title: Customers',
        'questions: Who buys?',
        `metadata: '{"name": "customers"}'`,
        `visualisation: '{"chartjs-chart": {"chartType": "bar"}}'`,
        'query: SELECT * FROM customers',
        `rawData: '[{"id": 1}]'`,
        '',
      ].join('\n'),
    );
    commit('definitions');

    workspaceId = await newWorkspace('Definitions');
    await bench.db.updateTable('workspaces').set({ repository_url: definitions }).where('id', '=', workspaceId).execute();
    for (const component of [
      { name: 'tap-demo', pluginType: 'EXTRACTOR' as const, pluginName: 'tap-demo', variant: 'builtin', properties: { seed: 42, scale: 1 } },
      { name: 'target-store', pluginType: 'LOADER' as const, pluginName: 'target-store', variant: 'builtin' },
    ]) {
      expect((await createDataComponent(bench.db, workspaceId, component)).ok).toBe(true);
    }
    channelId = (await createList(bench.db, { id: newId(), workspaceId, creatorId: owner, name: 'Sales', description: null, scope: 'WORKSPACE' })).id;
  });
  afterAll(() => {
    fs.rmSync(definitions, { recursive: true, force: true });
  });

  it('creates the pipeline and the datasets, then updates them on the next commit without duplicating', async () => {
    const first = await deploy(workspaceId);
    expect(first.status, first.log).toBe('COMPLETE');
    expect(first.log).toContain("pipelines/daily.yml: unknown key 'colour' is ignored.");
    expect(first.log).toContain('Created pipeline daily from pipelines/daily.yml.');
    expect(first.log).toContain('Created dataset customers from datasets/customers.yaml.');
    expect(first.log).toContain('Created dataset revenue from datasets/revenue.yml.');
    expect(first.log).toContain('Deployed 1 pipeline (1 new) and 2 datasets (2 new).');

    const [daily, ...morePipelines] = await pipelinesOf(workspaceId);
    expect(morePipelines).toEqual([]);
    expect(daily).toMatchObject({
      name: 'daily',
      draft: false,
      schedule: '0 0 6 * * *',
      script: 'echo deployed',
      timeout: 600,
      max_retries: 1,
      created_by: owner,
    });
    expect(daily!.data_components).toEqual(['tap-demo', 'target-store']);
    // a deployed pipeline writes the bare stream names its repository's datasets read
    expect(daily!.properties).toEqual({ 'tap-demo.seed': 7, 'target-store.table_prefix': '' });
    expect(daily!.triggered_by).toEqual(['deploy']);

    const datasets = await datasetsOf(workspaceId);
    expect(datasets.map((d) => d.alias)).toEqual(['customers', 'revenue']);
    expect(datasets[0]).toMatchObject({
      title: 'Customers',
      questions: 'Who buys?',
      metadata: '{"name": "customers"}',
      visualisation: '{"chartjs-chart": {"chartType": "bar"}}',
      query: 'SELECT * FROM customers',
      raw_data: '[{"id": 1}]',
      channel_id: null,
    });
    expect(datasets[1]).toMatchObject({ title: 'Revenue', description: 'Money in #finance', query: 'SELECT 1 AS total', channel_id: channelId });

    // `triggered_by: [deploy]`: the pipeline is queued by the deployment's end.
    const deployJob = await bench.db.selectFrom('jobs').select('id').where('workspace_id', '=', workspaceId).where('type', '=', 'WORKSPACE_DEPLOY').orderBy('created', 'desc').executeTakeFirstOrThrow();
    const triggered = await waitFor(
      () => bench.db.selectFrom('jobs').selectAll().where('pipeline_id', '=', daily!.id).where('triggered_by_job_id', '=', deployJob.id).executeTakeFirst(),
      'the run triggered by the deployment',
    );
    expect(triggered.triggered_by).toBe(`deployment of commit ${first.commit!.slice(0, 7)}`);
    await waitForStatus(bench.db, triggered.id, ['COMPLETE', 'ERROR', 'STOPPED', 'SKIPPED'], 60_000);

    write('pipelines/daily.yml', DAILY.replace('schedule: 0 0 6 * * *', 'schedule: 0 30 7 * * *'));
    write('datasets/revenue.yml', ['source: Sales', 'title: Revenue by month', 'query: SELECT 2 AS total', ''].join('\n'));
    commit('later');
    const second = await deploy(workspaceId);
    expect(second.status, second.log).toBe('COMPLETE');
    expect(second.log).toContain('Updated pipeline daily from pipelines/daily.yml.');
    expect(second.log).toContain('Updated dataset revenue from datasets/revenue.yml.');
    expect(second.log).toContain('Deployed 1 pipeline (1 updated) and 2 datasets (2 updated).');
    const pipelines = await pipelinesOf(workspaceId);
    expect(pipelines.map((p) => [p.id, p.schedule])).toEqual([[daily!.id, '0 30 7 * * *']]);
    const again = await datasetsOf(workspaceId);
    expect(again.map((d) => d.id)).toEqual(datasets.map((d) => d.id));
    // publishing replaces: what the file no longer says is cleared
    expect(again[1]).toMatchObject({ title: 'Revenue by month', query: 'SELECT 2 AS total', description: null });
  });

  it("applies nothing for a job whose lease this runner no longer holds", async () => {
    const { pipelines } = parseDefinitions([{ kind: 'pipelines', file: 'pipelines/leased.yml', document: { timeout: 5 } }]);
    expect(pipelines).toHaveLength(1);
    // a job id no runner holds: as good as one another runner recovered
    await expect(applyDefinitions(bench.db, { workspaceId, profileId: owner, pipelines, datasets: [], lease: { jobId: newId(), owner: 'another runner' } })).rejects.toThrow(/no longer holds the job's lease/);
    expect((await pipelinesOf(workspaceId)).map((p) => p.name)).not.toContain('leased');
  });

  it('applies nothing when any definition is invalid, naming every file and field', async () => {
    const before = { pipelines: await pipelinesOf(workspaceId), datasets: await datasetsOf(workspaceId) };
    expect(before.pipelines).toHaveLength(1);
    const refused = await checkQuery('DELETE FROM x').then(
      () => undefined,
      (error: unknown) => (error instanceof QueryRefused ? error.message : undefined),
    );
    expect(refused).toBeDefined();
    const badSchedule = checkSchedule('every day');
    expect(badSchedule.ok).toBe(false);

    write('pipelines/daily.yml', DAILY.replace('schedule: 0 0 6 * * *', 'schedule: every day'));
    write('pipelines/hourly.yml', 'data_components: [tap-demo, target-store]\ntimeout: soon\n');
    write('pipelines/weekly.yml', 'data_components: [tap-demo, target-store]\nschedule: 0 0 6 * * 1\n');
    write('datasets/writes.yml', 'title: Writes\nquery: DELETE FROM x\n');
    write('datasets/orphan.yml', 'title: Orphan\nsource: No such channel\n');
    write('datasets/revenue.yml', 'source: Sales\ntitle: Never applied\nquery: SELECT 3\n');
    commit('broken');
    const result = await deploy(workspaceId);
    expect(result.status, result.log).toBe('ERROR');
    expect(result.log).toContain(`pipelines/daily.yml: schedule: ${badSchedule.ok ? '' : badSchedule.message}`);
    expect(result.log).toContain('pipelines/hourly.yml: timeout: must be a whole number of seconds');
    expect(result.log).toContain(`datasets/writes.yml: query: ${refused}`);
    expect(result.log).toMatch(/datasets\/orphan\.yml: source: names no channel of this workspace/);
    // a second pipeline of the same extractor, unprefixed like the first: it would overwrite its tables
    expect(result.log).toContain("pipelines/weekly.yml: properties.target-store.table_prefix: Pipeline 'daily' already loads the same data into unprefixed tables");
    expect(result.log).toMatch(/Nothing deployed: 5 problems in the definitions/);
    expect(result.log).not.toMatch(/^(Created |Updated |Deployed \d)/m);

    // Nothing of this deployment reached the workspace: no new pipeline or dataset, no change.
    expect(await pipelinesOf(workspaceId)).toEqual(before.pipelines);
    expect(await datasetsOf(workspaceId)).toEqual(before.datasets);
    expect(await bench.db.selectFrom('jobs').select('id').where('workspace_id', '=', workspaceId).where('triggered_by', 'like', `deployment of commit ${result.commit!.slice(0, 7)}`).execute()).toEqual([]);
  });
});

// A repository laid out exactly as Matatika's example workspaces are (our own fixture files):
// workspace.yml and its dev overlay, meltano.yml's plugins, analyze/channels, analyze/datasets in
// nested folders, pipelines with `script:` (older files) and `inline_script:`.
describe('WORKSPACE_DEPLOY of a Matatika workspace repository', () => {
  let matatika: string;
  let workspaceId: string;

  const write = (file: string, lines: readonly string[]) => {
    fs.mkdirSync(path.dirname(path.join(matatika, file)), { recursive: true });
    fs.writeFileSync(path.join(matatika, file), `${lines.join('\n')}\n`);
  };
  const commit = (message: string) => {
    git(matatika, 'add', '-A');
    git(matatika, 'commit', '--quiet', '-m', message);
  };

  beforeAll(async () => {
    matatika = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-matatika-'));
    fs.chmodSync(matatika, 0o755);
    git(matatika, 'init', '--quiet', '--initial-branch=main');
    write('workspace.yml', [
      'version: workspaces/v0.2',
      'name: GitHub analytics',
      'domains:',
      '  - example.com',
      'default_data_store: Warehouse',
      'state_data_store: Warehouse',
      'dataset_paths:',
      '  - analyze/datasets',
      '  - .meltano/analyze/datasets',
      'channel_paths:',
      '  - analyze/channels',
      'pipeline_paths:',
      '  - pipelines',
      'plugin_paths:',
      '  - plugins',
      'data_store_paths:',
      '  - datastores',
      'app_properties:',
      '  WELCOME_MESSAGE: Welcome to the GitHub workspace',
      '  MEMBER_COMMENTS_READ_ONLY: true',
    ]);
    write('workspace-dev.yml', ['version: workspaces/v0.2', 'name: GitHub analytics (dev)']);
    write('meltano.yml', [
      'version: 1',
      'default_environment: dev',
      'project_id: 1234-abcd',
      'plugins:',
      '  extractors:',
      '  - name: tap-github',
      '    variant: meltanolabs',
      '    pip_url: git+https://github.com/MeltanoLabs/tap-github.git',
      '    config:',
      '      repositories: [example/repo]',
      '      start_date: "2024-01-01"',
      '  - name: tap-demo',
      // a Python plugin named like one of ours: never run as ours
      '  - name: tap-postgres',
      '    pip_url: pipelinewise-tap-postgres',
      '  loaders:',
      '  - name: target-postgres',
      '    variant: transferwise',
      '    pip_url: pipelinewise-target-postgres',
      '  transformers:',
      '  - name: dbt',
      '    pip_url: dbt-core~=1.7 dbt-postgres~=1.7',
      '  transforms:',
      '  - name: dbt-github',
      '    namespace: tap_github',
      'environments:',
      '- name: dev',
    ]);
    write('analyze/channels/tap-github.yml', ['version: channels/v0.1', 'description: GitHub issues and pull requests', 'picture: https://example.com/github.svg']);
    write('analyze/channels/demo.yml', ['version: channels/v0.1', 'name: Demo data', 'description: Generated sample data']);
    write('analyze/datasets/tap-github/github-export-all-issues.yml', [
      'version: datasets/v0.2',
      'source: tap-github',
      'title: All issues',
      'questions: Which issues are open?',
      'rawData: |-',
      '  [{"issues.state": "open", "issues.count": 3}]',
    ]);
    write('analyze/datasets/tap-github/issues/open-issues-by-week.yml', ['version: datasets/v0.2', 'source: tap-github', 'title: Open issues by week', 'rawData: "[]"']);
    write('analyze/datasets/demo/customers.yml', ['version: datasets/v0.2', 'source: Demo data', 'alias: demo-customers', 'title: Customers', 'rawData: "[]"']);
    write('pipelines/github.yml', [
      'version: pipelines/v0.1',
      'data_components:',
      '- tap-github',
      '- target-postgres',
      '- dbt',
      'script: meltano run tap-github target-postgres dbt:run',
      'timeout: 3600',
    ]);
    write('pipelines/demo.yml', ['version: pipelines/v0.1', 'data_components: [tap-demo, Warehouse]', 'inline_script: meltano run tap-demo target-store', 'schedule: 0 0 5 * * *']);
    commit('Matatika workspace');

    workspaceId = await newWorkspace('Matatika layout');
    await bench.db.updateTable('workspaces').set({ repository_url: matatika }).where('id', '=', workspaceId).execute();
  });
  afterAll(() => {
    fs.rmSync(matatika, { recursive: true, force: true });
  });

  it('deploys it unchanged: settings, components from meltano.yml, channels, datasets by path alias, both kinds of pipeline', async () => {
    const result = await deploy(workspaceId);
    expect(result.status, result.log).toBe('COMPLETE');
    expect(result.log).toContain('Read workspace.yml and workspace-dev.yml (environment dev).');
    expect(result.log).toContain('workspace.yml: state_data_store is ignored');
    expect(result.log).toContain('meltano.yml: plugins.transforms is ignored');
    expect(result.log).toContain("Created data component tap-github (extractors/tap-github--meltanolabs, a Python plugin: Meltano installs it in the job's sandbox and runs it) from meltano.yml.");
    expect(result.log).toContain('Created data component tap-demo (extractors/tap-demo--builtin, runs here) from meltano.yml.');
    expect(result.log).toContain("Created data component tap-postgres (extractors/tap-postgres--custom, a Python plugin: Meltano installs it in the job's sandbox and runs it) from meltano.yml.");
    expect(result.log).toContain('Created channel tap-github from analyze/channels/tap-github.yml.');
    expect(result.log).toContain('Created dataset tap-github/issues/open-issues-by-week from analyze/datasets/tap-github/issues/open-issues-by-week.yml.');
    expect(result.log).toContain('Deployed 2 pipelines (2 new) and 3 datasets (3 new).');

    const workspace = await findWorkspace(bench.db, workspaceId);
    expect(workspace).toMatchObject({ name: 'GitHub analytics (dev)', domains: ['example.com'] });
    expect(workspace!.app_properties).toMatchObject({ WELCOME_MESSAGE: 'Welcome to the GitHub workspace', MEMBER_COMMENTS_READ_ONLY: 'true' });

    const components = await bench.db.selectFrom('data_components').select(['name', 'plugin_type', 'plugin_name', 'variant', 'properties']).where('workspace_id', '=', workspaceId).orderBy('name').execute();
    expect(components.map((c) => [c.name, c.plugin_type, c.plugin_name, c.variant])).toEqual([
      ['dbt', 'TRANSFORMER', 'dbt', null],
      ['tap-demo', 'EXTRACTOR', 'tap-demo', 'builtin'],
      ['tap-github', 'EXTRACTOR', 'tap-github', 'meltanolabs'],
      ['tap-postgres', 'EXTRACTOR', 'tap-postgres', 'custom'],
      ['target-postgres', 'LOADER', 'target-postgres', 'transferwise'],
      ['target-store', 'LOADER', 'target-store', 'builtin'],
    ]);
    expect(components.find((c) => c.name === 'tap-github')!.properties).toEqual({ repositories: ['example/repo'], start_date: '2024-01-01' });

    const channels = await bench.db.selectFrom('channels').select(['name', 'type', 'description', 'picture']).where('workspace_id', '=', workspaceId).orderBy('name').execute();
    expect(channels).toEqual([
      { name: 'Demo data', type: 'SOURCE', description: 'Generated sample data', picture: null },
      { name: 'tap-github', type: 'SOURCE', description: 'GitHub issues and pull requests', picture: 'https://example.com/github.svg' },
    ]);

    const datasets = await bench.db
      .selectFrom('datasets')
      .innerJoin('channels', 'channels.id', 'datasets.channel_id')
      .select(['datasets.alias', 'datasets.title', 'channels.name as channel'])
      .where('datasets.workspace_id', '=', workspaceId)
      .orderBy('datasets.alias')
      .execute();
    expect(datasets).toEqual([
      { alias: 'demo-customers', title: 'Customers', channel: 'Demo data' },
      { alias: 'tap-github/github-export-all-issues', title: 'All issues', channel: 'tap-github' },
      { alias: 'tap-github/issues/open-issues-by-week', title: 'Open issues by week', channel: 'tap-github' },
    ]);

    const pipelines = await bench.db.selectFrom('pipelines').select(['name', 'data_components', 'script', 'schedule']).where('workspace_id', '=', workspaceId).orderBy('name').execute();
    expect(pipelines).toEqual([
      // Matatika's Warehouse is the workspace's default store: its loader is target-store
      { name: 'demo', data_components: ['tap-demo', 'target-store'], script: 'meltano run tap-demo target-store', schedule: '0 0 5 * * *' },
      { name: 'github', data_components: ['tap-github', 'target-postgres', 'dbt'], script: 'meltano run tap-github target-postgres dbt:run', schedule: null },
    ]);
  });

  it('keeps what a later commit no longer defines, and says so; a second deployment of the same files changes nothing else', async () => {
    fs.rmSync(path.join(matatika, 'pipelines', 'github.yml'));
    fs.rmSync(path.join(matatika, 'analyze', 'datasets', 'tap-github', 'issues'), { recursive: true });
    commit('remove the GitHub pipeline and a dataset');
    const result = await deploy(workspaceId);
    expect(result.status, result.log).toBe('COMPLETE');
    expect(result.log).toContain('Kept 1 pipeline the repository does not define (a deployment never deletes; delete it in the app if it should go): github.');
    expect(result.log).toContain('Kept 1 dataset the repository does not define (a deployment never deletes; delete it in the app if it should go): tap-github/issues/open-issues-by-week.');
    expect(result.log).toContain('Deployed 1 pipeline (1 updated) and 2 datasets (2 updated).');
    // unchanged components and channels are not written again
    expect(result.log).not.toMatch(/^(Created|Updated) (data component|channel) /m);
    const names = await bench.db.selectFrom('pipelines').select('name').where('workspace_id', '=', workspaceId).orderBy('name').execute();
    expect(names.map((p) => p.name)).toEqual(['demo', 'github']);
    const aliases = await bench.db.selectFrom('datasets').select('alias').where('workspace_id', '=', workspaceId).orderBy('alias').execute();
    expect(aliases.map((d) => d.alias)).toEqual(['demo-customers', 'tap-github/github-export-all-issues', 'tap-github/issues/open-issues-by-week']);
  });

  it('refuses, applying nothing, a data store it cannot use and data_components naming a store that is not the default', async () => {
    write('datastores/Snowflake.yml', ['version: datastores/v0.1', 'data_plugin: loaders/target-snowflake--matatika', 'properties:', '  max-threads: -1']);
    write('datastores/Analytics.yml', ['version: datastores/v0.1', 'data_plugin: loaders/target-postgres', 'properties:', '  host: db.example.com', '  user: analyst', '  dbname: analytics']);
    write('pipelines/analytics.yml', ['version: pipelines/v0.1', 'data_components: [tap-github, Analytics]', 'inline_script: meltano run tap-github target-store']);
    commit('stores');
    const result = await deploy(workspaceId);
    expect(result.status, result.log).toBe('ERROR');
    expect(result.log).toContain("datastores/Snowflake.yml: data_plugin: 'loaders/target-snowflake--matatika' is not a data store this server can use: only PostgreSQL stores (loaders/target-postgres)");
    expect(result.log).toContain("pipelines/analytics.yml: data_components.1: names the data store Analytics, which is not the workspace's default store");
    const stores = await bench.db.selectFrom('data_stores').select('name').where('workspace_id', '=', workspaceId).execute();
    expect(stores.map((s) => s.name)).toEqual(['Default store']);
    const names = await bench.db.selectFrom('pipelines').select('name').where('workspace_id', '=', workspaceId).orderBy('name').execute();
    expect(names.map((p) => p.name)).toEqual(['demo', 'github']);
  });

  it("creates a PostgreSQL store, checks it, and makes it the default when the environment's overlay names it; data_components naming it load through target-store", async () => {
    fs.rmSync(path.join(matatika, 'datastores', 'Snowflake.yml'));
    write('workspace-dev.yml', ['version: workspaces/v0.2', 'name: GitHub analytics (dev)', 'default_data_store: Analytics']);
    commit('a PostgreSQL store as the dev default');
    const refused = await deploy(workspaceId);
    // Warehouse is no longer the default: the pipeline naming it would load somewhere else
    expect(refused.log).toContain("pipelines/demo.yml: data_components.1: names the data store Warehouse, which is not the workspace's default store");
    expect(refused.log).toContain('Nothing deployed: 1 problem in the definitions');
    write('pipelines/demo.yml', ['version: pipelines/v0.1', 'data_components: [tap-demo, Analytics]', 'inline_script: meltano run tap-demo target-store', 'schedule: 0 0 5 * * *']);
    commit('the demo pipeline loads into the new default');
    const result = await deploy(workspaceId);
    expect(result.status, result.log).toBe('COMPLETE');
    expect(result.log).toContain('Created data store Analytics from datastores/Analytics.yml; its connection is checked next.');
    expect(result.log).toContain('The default data store is now Analytics (default_data_store)');
    const stores = await bench.db.selectFrom('data_stores').select(['id', 'name', 'data_plugin', 'properties', 'is_default']).where('workspace_id', '=', workspaceId).orderBy('name').execute();
    expect(stores.map((s) => [s.name, s.data_plugin, s.is_default])).toEqual([
      ['Analytics', 'loaders/target-postgres--builtin', true],
      ['Default store', 'loaders/target-store--builtin', false],
    ]);
    expect(stores[0]!.properties).toEqual({ host: 'db.example.com', user: 'analyst', database: 'analytics' });
    const check = await bench.db.selectFrom('jobs').select('type').where('datastore_id', '=', stores[0]!.id).execute();
    expect(check.map((j) => j.type)).toEqual(['DATASTORE_VERIFY']);
    const analytics = await bench.db.selectFrom('pipelines').select('data_components').where('workspace_id', '=', workspaceId).where('name', '=', 'analytics').executeTakeFirstOrThrow();
    expect(analytics.data_components).toEqual(['tap-github', 'target-store']);
  });
});

describe('WORKSPACE_DEPLOY of a repository that tries to read outside itself', () => {
  let hostile: string;
  afterAll(() => {
    fs.rmSync(hostile, { recursive: true, force: true });
  });

  it('refuses dataset paths of ../.. or absolute, and links out, applying nothing', async () => {
    hostile = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-hostile-'));
    fs.chmodSync(hostile, 0o755);
    git(hostile, 'init', '--quiet', '--initial-branch=main');
    fs.writeFileSync(path.join(hostile, 'workspace.yml'), ['version: workspaces/v0.2', 'dataset_paths:', '  - ../..', '  - /etc', '  - analyze/datasets', 'channel_paths: [linked]', ''].join('\n'));
    fs.mkdirSync(path.join(hostile, 'analyze', 'datasets'), { recursive: true });
    fs.writeFileSync(path.join(hostile, 'analyze', 'datasets', 'fine.yml'), 'title: Fine\nrawData: "[]"\n');
    // committed links: a dataset file to /etc/passwd, a channel path to /etc, meltano.yml to the data directory's neighbour
    fs.symlinkSync('/etc/passwd', path.join(hostile, 'analyze', 'datasets', 'passwd.yml'));
    fs.symlinkSync('/etc', path.join(hostile, 'linked'));
    fs.symlinkSync('../../../../../../etc/hostname', path.join(hostile, 'meltano.yml'));
    git(hostile, 'add', '-A');
    git(hostile, 'commit', '--quiet', '-m', 'hostile');
    const workspaceId = await newWorkspace('Hostile');
    await bench.db.updateTable('workspaces').set({ repository_url: hostile }).where('id', '=', workspaceId).execute();
    const result = await deploy(workspaceId);
    expect(result.status, result.log).toBe('ERROR');
    expect(result.log).toContain('workspace.yml: dataset_paths.0: leads outside the repository');
    expect(result.log).toContain('workspace.yml: dataset_paths.1: must be relative to the repository, not absolute');
    expect(result.log).toContain('linked/: (file): leads outside the project directory: not deployed');
    expect(result.log).toContain('analyze/datasets/passwd.yml: (file): could not be read: is a symbolic link; only regular files are read');
    expect(result.log).toContain('meltano.yml: (file): could not be read: is a symbolic link; only regular files are read');
    expect(result.log).not.toContain('root:');
    const datasets = await bench.db.selectFrom('datasets').select('alias').where('workspace_id', '=', workspaceId).execute();
    expect(datasets).toEqual([]);
  });
});
