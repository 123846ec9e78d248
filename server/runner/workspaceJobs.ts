import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_BRANCH, isRemoteGitUrl } from '../../src/domain/workspaceRepository';
import type { Db } from '../db/database';
import { listDataComponents } from '../repositories/dataComponents';
import { findWorkspace } from '../repositories/workspaces';
import { ensureDefaultStore } from '../stores/defaultStore';
import { applyDefinitions } from './deploy/apply';
import { parseDefinitions, problemLine, readDefinitionFiles, type FieldProblem } from './deployDefinitions';
import { parseMeltanoPlugins } from './meltanoPlugins';
import { DEFAULT_ENVIRONMENT, WORKSPACE_FILE } from './workspaceConfig';
import type { Executor, JobProcess, JobProcessResult } from './executor';
import { projectDir, writeProjectFile } from './project';
import { CLONE_SCRIPT, REPOSITORY_DIR, gitSource } from './gitFetch';
import { forgetCachedCommit, recordDeployment } from './deployedRepository';
import type { JobRow } from './jobRow';

// A workspace's own jobs (issue 10). WORKSPACE_INIT makes the project directory and the default
// data store, and its end moves the workspace from PROVISIONING to READY or FAILED.
// WORKSPACE_DEPLOY clones the workspace's repository with git into the project directory and
// applies the workspace it describes as Matatika lays one out (workspaceConfig.ts reads
// workspace.yml, meltanoPlugins.ts meltano.yml, deployDefinitions.ts the definitions; deploy/apply.ts
// writes them all in one transaction, or nothing).

export const WORKSPACE_INIT = 'WORKSPACE_INIT';
export const WORKSPACE_DEPLOY = 'WORKSPACE_DEPLOY';

const EXITED_OK: JobProcessResult = { reason: 'EXITED', exitCode: 0, signal: null };
const EXITED_FAILED: JobProcessResult = { reason: 'EXITED', exitCode: 1, signal: null };
export { REPOSITORY_DIR } from './gitFetch';

/** In-process: the project directory with its meltano.yml, and the default store. */
export async function runWorkspaceInit(db: Db, dataDir: string, job: JobRow, write: (line: string) => void): Promise<JobProcessResult> {
  const workspace = await findWorkspace(db, job.workspace_id);
  if (!workspace) throw new Error('The workspace of this job no longer exists.');
  try {
    const dir = projectDir(dataDir, workspace.id);
    writeProjectFile(dir, await listDataComponents(db, workspace.id));
    write(`Project directory ready: ${path.relative(dataDir, dir)}.`);
    const store = await ensureDefaultStore(db, workspace.id);
    write(`Default data store ready: ${store.name}.`);
    write('The workspace is READY.');
    return EXITED_OK;
  } catch (error) {
    write(`Workspace set-up failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXITED_FAILED;
  }
}

/** Inside the transaction that ends a WORKSPACE_INIT job: the workspace's status follows it. */
export async function settleWorkspaceJob(db: Db, job: JobRow, status: string): Promise<void> {
  if (job.type !== WORKSPACE_INIT || job.pipeline_id !== null) return;
  await db
    .updateTable('workspaces')
    .set({ status: status === 'COMPLETE' ? 'READY' : 'FAILED', updated_at: new Date() })
    .where('id', '=', job.workspace_id)
    .where('status', '=', 'PROVISIONING')
    .execute();
}

interface DeploymentStart {
  /** nothing to run: the job ends with these lines and this result */
  done?: JobProcessResult;
  process?: JobProcess;
  /** what to do once the process ended (read definitions, remove the key file) */
  after?: (result: JobProcessResult) => Promise<JobProcessResult>;
}

/**
 * Starts a deployment: with no repository set it ends at once with a log line saying so;
 * otherwise git clones the repository (a remote URL, or a local repository path) with the
 * workspace's SSH key for git@ URLs.
 */
export async function startDeployment(
  db: Db,
  dataDir: string,
  job: JobRow,
  write: (line: string) => void,
  options: { killGraceMs: number; repositoryLocalRoots: readonly string[]; executor: Executor },
): Promise<DeploymentStart> {
  const workspace = await findWorkspace(db, job.workspace_id);
  if (!workspace) throw new Error('The workspace of this job no longer exists.');
  const url = workspace.repository_url?.trim();
  if (!url) {
    write('Nothing to deploy: this workspace has no repository URL. Set one in the workspace settings, then deploy again.');
    return { done: EXITED_OK };
  }
  const dir = projectDir(dataDir, workspace.id);
  fs.mkdirSync(dir, { recursive: true });
  const branch = workspace.repository_branch?.trim() || (isRemoteGitUrl(url) ? DEFAULT_BRANCH : '');
  const { executor } = options;
  const source = gitSource({ url, branch, sshPrivateKey: workspace.ssh_private_key }, { dataDir, projectDir: dir, repositoryLocalRoots: options.repositoryLocalRoots, executor, jobId: job.id, workspaceId: workspace.id });
  if (!source.ok) {
    write(`Nothing deployed: ${source.line}`);
    return { done: EXITED_FAILED };
  }
  // the clone on this disk is about to change: until this deployment is recorded, no job takes it for the deployed commit
  forgetCachedCommit(dataDir, workspace.id);
  write(`Deploying ${describeUrl(url)}${branch ? ` (branch ${branch})` : ''}.`);
  write(executor.describe());
  let commit: string | undefined;
  const started = executor.start({
    workspaceId: workspace.id,
    script: CLONE_SCRIPT,
    projectDir: dir,
    env: source.env,
    // a local repository is visible to the clone, read-only, where it is
    ...(source.readOnlyPaths.length > 0 ? { readOnlyPaths: source.readOnlyPaths } : {}),
    timeoutMs: job.timeout_seconds * 1000,
    killGraceMs: options.killGraceMs,
    onLine: (line) => {
      commit = /^Deployed commit ([0-9a-f]{40}) /.exec(line)?.[1] ?? commit;
      write(line);
    },
  });
  const after = async (result: JobProcessResult): Promise<JobProcessResult> => {
    if (result.reason !== 'EXITED' || result.exitCode !== 0) {
      write('The repository could not be fetched; the previous deployment, if any, is kept.');
      return result;
    }
    if (commit) await db.updateTable('jobs').set({ commit_id: commit }).where('id', '=', job.id).execute();
    const applied = await deployDefinitions(db, job, path.join(dir, REPOSITORY_DIR), write);
    // what applied is what every later job finds, on any worker (deployedRepository.ts)
    if (commit && applied.reason === 'EXITED' && applied.exitCode === 0) await recordDeployment(db, dataDir, { workspaceId: workspace.id, url, branch, commit, jobId: job.id });
    return applied;
  };
  return { process: started, after };
}

/** A URL as a log shows it: any password in it hidden. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * Reads and checks every definition of the fetched repository (workspace.yml and the overlay of
 * the workspace's default environment, meltano.yml's plugins, data stores, channels, pipelines and
 * datasets), then applies them all in one transaction, or — when any is invalid — nothing,
 * logging every problem by file and field.
 */
async function deployDefinitions(db: Db, job: JobRow, repository: string, write: (line: string) => void): Promise<JobProcessResult> {
  const workspace = await findWorkspace(db, job.workspace_id);
  const environment = workspace?.default_environment?.trim() || DEFAULT_ENVIRONMENT;
  const read = readDefinitionFiles(repository, { environment });
  const parsed = parseDefinitions(read.files);
  const meltano = parseMeltanoPlugins(read.meltano);
  if (read.workspace.declared) write(`Read ${WORKSPACE_FILE}${read.workspace.overlay ? ` and ${read.workspace.overlay} (environment ${environment})` : ` (no workspace-${environment}.yml for environment ${environment})`}.`);
  for (const note of [...read.notes, ...meltano.notes, ...parsed.notes]) write(note);
  const invalid = [...read.problems, ...meltano.problems, ...parsed.problems];
  const settings = read.workspace.name !== undefined || read.workspace.domains !== undefined || read.workspace.appProperties !== undefined || read.workspace.defaultDataStore !== undefined;
  if (read.files.length === 0 && meltano.plugins.length === 0 && !settings && invalid.length === 0) {
    write('Nothing to deploy: the repository holds no workspace.yml settings, meltano.yml plugins or definitions (pipelines/*.yml, analyze/datasets/**/*.yml, datasets/*.yml, analyze/channels/*.yml, datastores/*.yml, or the paths workspace.yml names).');
    return EXITED_OK;
  }
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  write(
    `Read ${count(read.files.length, 'definition')} (${count(parsed.pipelines.length, 'pipeline')}, ${count(parsed.datasets.length, 'dataset')}, ${count(parsed.channels.length, 'channel')} and ${count(parsed.dataStores.length, 'data store')} valid) and ${count(meltano.plugins.length, 'plugin')} of meltano.yml.`,
  );
  const refuse = (problems: readonly FieldProblem[]): JobProcessResult => {
    for (const problem of problems) write(problemLine(problem));
    write(`Nothing deployed: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the definitions; the workspace keeps what the previous deployment applied.`);
    return EXITED_FAILED;
  };
  // With invalid files, the valid ones are still checked against the database (and rolled back),
  // so one deployment reports every problem.
  const deployed = await applyDefinitions(db, {
    workspaceId: job.workspace_id,
    profileId: job.profile_id,
    workspace: read.workspace,
    dataStores: parsed.dataStores,
    plugins: meltano.plugins,
    channels: parsed.channels,
    pipelines: parsed.pipelines,
    datasets: parsed.datasets,
    dryRun: invalid.length > 0,
    lease: { jobId: job.id, owner: job.lease_owner },
  });
  if (invalid.length > 0 || deployed.problems.length > 0) return refuse([...invalid, ...deployed.problems]);
  for (const line of deployed.lines) write(line);
  return EXITED_OK;
}
