import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertWorkspaceJob } from '../../server/repositories/workspaces';
import { enqueueJob } from '../../server/runner';
import { projectDir } from '../../server/runner/project';
import { queueSignals } from '../../server/runner/signals';
import { logOf, startBench, waitForStatus, type Bench } from './helpers';

// The deployed commit is a row (issue 42); a worker's clone is a cache of it: reused while it
// holds the commit, fetched again when it is gone, and never replaced in the record by a
// deployment whose definitions did not apply.

let bench: Bench;
let repo: string;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } }).trim();
}

beforeAll(async () => {
  bench = await startBench();
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'deployed-repo-'));
  fs.chmodSync(repo, 0o755);
  git(repo, 'init', '--quiet', '--initial-branch=main');
  fs.mkdirSync(path.join(repo, 'pipelines'));
  fs.writeFileSync(path.join(repo, 'pipelines', 'show.yml'), 'version: pipelines/v0.1\ninline_script: cat repository/hello.txt\ntimeout: 60\n');
  fs.writeFileSync(path.join(repo, 'hello.txt'), 'first\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'first');
  await bench.db.updateTable('workspaces').set({ repository_url: repo }).where('id', '=', bench.workspaceId).execute();
  await bench.startRunner({ repositoryLocalRoots: [os.tmpdir()] });
});
afterAll(async () => {
  await bench?.close();
  fs.rmSync(repo, { recursive: true, force: true });
});

async function deploy(): Promise<{ status: string; log: string }> {
  const job = await insertWorkspaceJob(bench.db, bench.workspaceId, 'WORKSPACE_DEPLOY', null, 'test');
  queueSignals.emit('queued', job!.id);
  const ended = await waitForStatus(bench.db, job!.id, ['COMPLETE', 'ERROR'], 30_000);
  return { status: ended.status, log: (await logOf(bench.db, ended.id)).join('\n') };
}

async function runShow(): Promise<{ status: string; log: string }> {
  const pipeline = await bench.db.selectFrom('pipelines').select('id').where('workspace_id', '=', bench.workspaceId).where('name', '=', 'show').executeTakeFirstOrThrow();
  const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
  if (queued.status !== 'QUEUED') throw new Error(queued.status);
  const ended = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR'], 30_000);
  return { status: ended.status, log: (await logOf(bench.db, ended.id)).join('\n') };
}

const recorded = () => bench.db.selectFrom('workspace_deployments').selectAll().where('workspace_id', '=', bench.workspaceId).executeTakeFirst();

describe('the deployed commit', () => {
  it('is recorded; the clone is reused while it holds it, fetched again when gone, and a failed deployment changes neither', async () => {
    const first = git(repo, 'rev-parse', 'HEAD');
    expect((await deploy()).status).toBe('COMPLETE');
    expect(await recorded()).toMatchObject({ repository_url: repo, branch: '', commit_id: first });

    const reused = await runShow();
    expect(reused.status, reused.log).toBe('COMPLETE');
    expect(reused.log).not.toContain('fetching it');
    expect(reused.log).toContain('first');

    // the disk loses its clone (a wiped cache, the disk quota): the next job fetches the commit
    fs.rmSync(path.join(projectDir(bench.dataDir, bench.workspaceId), 'repository'), { recursive: true, force: true });
    const fetched = await runShow();
    expect(fetched.status, fetched.log).toBe('COMPLETE');
    expect(fetched.log).toContain(`does not hold the deployed commit ${first.slice(0, 7)}; fetching it.`);
    expect(fetched.log).toContain('first');

    // a commit whose definitions are invalid is cloned here but not deployed: jobs keep the first
    fs.writeFileSync(path.join(repo, 'hello.txt'), 'second\n');
    fs.writeFileSync(path.join(repo, 'pipelines', 'broken.yml'), 'version: pipelines/v0.1\ntimeout: not a number\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'broken');
    const refused = await deploy();
    expect(refused.status, refused.log).toBe('ERROR');
    expect((await recorded())?.commit_id).toBe(first);
    const after = await runShow();
    expect(after.status, after.log).toBe('COMPLETE');
    expect(after.log).toContain(`does not hold the deployed commit ${first.slice(0, 7)}; fetching it.`);
    expect(after.log).toContain('first');
    expect(after.log).not.toContain('second');
  });
});
