import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/repositories/ids';
import { createWorkspace, deleteWorkspace, findWorkspace, insertWorkspaceJob } from '../../server/repositories/workspaces';
import { projectDir } from '../../server/runner/project';
import { queueSignals } from '../../server/runner/signals';
import { defaultStoreOf, storeSchemaName } from '../../server/stores/defaultStore';
import { logOf, startBench, waitForStatus, type Bench } from './helpers';

// The workspace's own jobs on the real runner: WORKSPACE_INIT takes a new workspace from
// PROVISIONING to READY (project directory, default store); WORKSPACE_DEPLOY clones a local git
// repository with git and reads its pipeline and dataset definitions.

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
  git(repo, 'init', '--quiet', '--initial-branch=main');
  fs.mkdirSync(path.join(repo, 'pipelines'));
  fs.mkdirSync(path.join(repo, 'datasets'));
  fs.writeFileSync(path.join(repo, 'pipelines', 'sales.yml'), 'name: Sales import\ndata_components:\n  - tap-demo\n');
  fs.writeFileSync(path.join(repo, 'datasets', 'revenue.yaml'), 'title: Revenue\nquery: SELECT 1\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'definitions');
  await bench.startRunner();
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

  it('clones a local git repository and reads its pipeline and dataset definitions, recording the commit', async () => {
    const id = await newWorkspace('Local repository');
    await bench.db.updateTable('workspaces').set({ repository_url: repo }).where('id', '=', id).execute();
    const result = await deploy(id);
    expect(result.status, result.log).toBe('COMPLETE');
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    expect(result.commit).toBe(head);
    expect(result.log).toContain('Pipeline definition pipelines/sales.yml: Sales import.');
    expect(result.log).toContain('Dataset definition datasets/revenue.yaml: revenue.');
    expect(result.log).toContain('Read 1 pipeline and 1 dataset definition.');
    expect(fs.existsSync(path.join(projectDir(bench.dataDir, id), 'repository', 'pipelines', 'sales.yml'))).toBe(true);

    // A deleted workspace takes its default store's schema with it.
    expect(await deleteWorkspace(bench.db, id)).toBe(true);
    const schemas = await bench.db.selectFrom('information_schema.schemata' as never).select('schema_name' as never).where('schema_name' as never, '=', storeSchemaName(id) as never).execute();
    expect(schemas).toEqual([]);
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
});
