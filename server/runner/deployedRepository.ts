import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database';
import { findWorkspace } from '../repositories/workspaces';
import type { Executor, JobProcess, JobProcessResult } from './executor';
import { FETCH_COMMIT_SCRIPT, REPOSITORY_DIR, gitSource } from './gitFetch';
import type { JobRow } from './jobRow';
import { projectDir } from './project';

// A deployment lives in the database (workspace_deployments: repository, branch, commit), never on
// the disk of the worker that ran it (issue 42). A worker's clone is a cache keyed by that commit:
// a mark outside the project (`{dataDir}/deployed/{workspace}`, where no job can write) says which
// commit this disk's clone holds. A job whose workspace has a deployment finds the mark matching
// and reuses the clone, or fetches the recorded commit into its project first. Deleting the clone
// or the mark loses nothing: the next job fetches again.

interface Deployment {
  workspaceId: string;
  url: string;
  branch: string;
  commit: string;
  jobId: string;
}

const COMMIT = /^[0-9a-f]{40}$/;

function markFile(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, 'deployed', workspaceId);
}

/** The commit this disk's clone of the workspace's repository holds, when it is known to be whole. */
function cachedCommit(dataDir: string, workspaceId: string): string | undefined {
  try {
    const commit = fs.readFileSync(markFile(dataDir, workspaceId), 'utf8').trim();
    // the disk quota or a job may have removed the clone since; a link in its place is not a clone
    const git = fs.lstatSync(path.join(projectDir(dataDir, workspaceId), REPOSITORY_DIR, '.git'));
    return COMMIT.test(commit) && git.isDirectory() ? commit : undefined;
  } catch {
    return undefined;
  }
}

function markCached(dataDir: string, workspaceId: string, commit: string): void {
  const file = markFile(dataDir, workspaceId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${commit}\n`);
  fs.renameSync(temporary, file);
}

/** Before a deployment replaces the clone: this disk no longer knows which commit it holds. */
export function forgetCachedCommit(dataDir: string, workspaceId: string): void {
  fs.rmSync(markFile(dataDir, workspaceId), { force: true });
}

/** A deployment that applied: recorded for every worker, and this disk's clone marked as holding it. */
export async function recordDeployment(db: Db, dataDir: string, d: Deployment): Promise<void> {
  const row = { repository_url: d.url, branch: d.branch, commit_id: d.commit, job_id: d.jobId, deployed: new Date() };
  await db
    .insertInto('workspace_deployments')
    .values({ workspace_id: d.workspaceId, ...row })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(row))
    .execute();
  markCached(dataDir, d.workspaceId, d.commit);
}

interface FetchOptions {
  dataDir: string;
  executor: Executor;
  repositoryLocalRoots: readonly string[];
  killGraceMs: number;
  write: (line: string) => void;
  /** runs the fetch's process as the runner runs any job's: recorded (stop, recovery) and under the workspace's disk quota */
  run: (start: () => JobProcess) => Promise<JobProcessResult>;
}

// One fetch per workspace and data directory at a time in this process; another job of the
// workspace waits for it and then finds the mark. Processes sharing a data directory each fetch
// into a directory of their own (FETCH_COMMIT_SCRIPT).
const inFlight = new Map<string, Promise<JobProcessResult | undefined>>();

/**
 * Puts the workspace's deployed commit in its project's `repository/` on this disk. Undefined when
 * there is nothing to do (no deployment, or the clone holds the commit); otherwise the fetch's
 * result, which ends the job when it is not a clean exit.
 */
export async function ensureDeployedCommit(db: Db, job: JobRow, options: FetchOptions): Promise<JobProcessResult | undefined> {
  const key = `${options.dataDir}\u0000${job.workspace_id}`;
  for (let waiting = inFlight.get(key); waiting; waiting = inFlight.get(key)) await waiting.catch(() => undefined);
  const fetching = fetchIfMissing(db, job, options);
  inFlight.set(key, fetching);
  try {
    return await fetching;
  } finally {
    if (inFlight.get(key) === fetching) inFlight.delete(key);
  }
}

async function fetchIfMissing(db: Db, job: JobRow, options: FetchOptions): Promise<JobProcessResult | undefined> {
  const { dataDir, write } = options;
  const deployed = await db.selectFrom('workspace_deployments').selectAll().where('workspace_id', '=', job.workspace_id).executeTakeFirst();
  if (!deployed || !COMMIT.test(deployed.commit_id)) return undefined;
  if (cachedCommit(dataDir, job.workspace_id) === deployed.commit_id) return undefined;
  const workspace = await findWorkspace(db, job.workspace_id);
  const dir = projectDir(dataDir, job.workspace_id);
  fs.mkdirSync(dir, { recursive: true });
  const source = gitSource(
    { url: deployed.repository_url, branch: deployed.branch, sshPrivateKey: workspace?.ssh_private_key ?? null },
    { dataDir, projectDir: dir, repositoryLocalRoots: options.repositoryLocalRoots, executor: options.executor, jobId: job.id, workspaceId: job.workspace_id },
  );
  if (!source.ok) {
    write(`The deployed repository could not be fetched on this worker: ${source.line}`);
    return { reason: 'EXITED', exitCode: 1, signal: null };
  }
  write(`This worker does not hold the deployed commit ${deployed.commit_id.slice(0, 7)}; fetching it.`);
  forgetCachedCommit(dataDir, job.workspace_id);
  const result = await options.run(() =>
    options.executor.start({
      workspaceId: job.workspace_id,
      script: FETCH_COMMIT_SCRIPT,
      projectDir: dir,
      env: { ...source.env, DEPLOY_COMMIT: deployed.commit_id },
      ...(source.readOnlyPaths.length > 0 ? { readOnlyPaths: source.readOnlyPaths } : {}),
      timeoutMs: job.timeout_seconds * 1000,
      killGraceMs: options.killGraceMs,
      onLine: write,
    }),
  );
  if (result.reason === 'EXITED' && result.exitCode === 0) {
    markCached(dataDir, job.workspace_id, deployed.commit_id);
    return undefined;
  }
  write('The deployed commit could not be fetched; the pipeline did not run.');
  return result;
}
