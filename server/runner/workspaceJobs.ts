import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_BRANCH, isRemoteGitUrl, parseRepositoryUrl } from '../../src/domain/workspaceRepository';
import type { Db } from '../db/database';
import { listDataComponents } from '../repositories/dataComponents';
import { findWorkspace } from '../repositories/workspaces';
import { ensureDefaultStore } from '../stores/defaultStore';
import { startJobProcess, type JobProcess, type JobProcessResult } from './jobProcess';
import { projectDir, writeProjectFile } from './project';
import type { JobRow } from './queue';

// A workspace's own jobs (issue 10). WORKSPACE_INIT makes the project directory and the default
// data store, and its end moves the workspace from PROVISIONING to READY or FAILED.
// WORKSPACE_DEPLOY clones the workspace's repository with git into the project directory and
// reads the pipeline and dataset definitions it holds.

export const WORKSPACE_INIT = 'WORKSPACE_INIT';
export const WORKSPACE_DEPLOY = 'WORKSPACE_DEPLOY';
export const WORKSPACE_JOB_TYPES = [WORKSPACE_INIT, WORKSPACE_DEPLOY] as const;

const EXITED_OK: JobProcessResult = { reason: 'EXITED', exitCode: 0, signal: null };
const EXITED_FAILED: JobProcessResult = { reason: 'EXITED', exitCode: 1, signal: null };
/** where a deployment keeps the clone, inside the project directory */
export const REPOSITORY_DIR = 'repository';

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

export interface DeploymentStart {
  /** nothing to run: the job ends with these lines and this result */
  done?: JobProcessResult;
  process?: JobProcess;
  /** what to do once the process ended (read definitions, remove the key file) */
  after?: (result: JobProcessResult) => Promise<JobProcessResult>;
}

// The clone goes to a fresh directory and replaces the previous one only when it succeeded, so a
// failed deployment leaves the last good one. Variables are quoted: the URL is never shell text.
const CLONE_SCRIPT = `set -eu
rm -rf "$DEPLOY_DIR.new"
if [ -n "$DEPLOY_BRANCH" ]; then
  git clone --quiet --depth 1 --branch "$DEPLOY_BRANCH" -- "$DEPLOY_URL" "$DEPLOY_DIR.new"
else
  git clone --quiet --depth 1 -- "$DEPLOY_URL" "$DEPLOY_DIR.new"
fi
rm -rf "$DEPLOY_DIR"
mv "$DEPLOY_DIR.new" "$DEPLOY_DIR"
echo "Deployed commit $(git -C "$DEPLOY_DIR" rev-parse HEAD) of branch $(git -C "$DEPLOY_DIR" rev-parse --abbrev-ref HEAD)."
`;

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
  options: { killGraceMs: number },
): Promise<DeploymentStart> {
  const workspace = await findWorkspace(db, job.workspace_id);
  if (!workspace) throw new Error('The workspace of this job no longer exists.');
  const url = workspace.repository_url?.trim();
  if (!url) {
    write('Nothing to deploy: this workspace has no repository URL. Set one in the workspace settings, then deploy again.');
    return { done: EXITED_OK };
  }
  const parsed = parseRepositoryUrl(url);
  if (!parsed) {
    write(`Nothing deployed: '${url.slice(0, 200)}' is not a repository URL git can fetch.`);
    return { done: EXITED_FAILED };
  }
  const dataRoot = path.resolve(dataDir);
  if (parsed.kind === 'local' && (path.resolve(url) === dataRoot || path.resolve(url).startsWith(`${dataRoot}${path.sep}`))) {
    write("Nothing deployed: a repository inside the server's data directory cannot be deployed.");
    return { done: EXITED_FAILED };
  }
  const dir = projectDir(dataDir, workspace.id);
  fs.mkdirSync(dir, { recursive: true });
  const branch = workspace.repository_branch?.trim() || (isRemoteGitUrl(url) ? DEFAULT_BRANCH : '');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: scratch,
    DEPLOY_URL: url,
    DEPLOY_BRANCH: branch,
    DEPLOY_DIR: path.join(dir, REPOSITORY_DIR),
    JOB_ID: job.id,
    // No prompt can be answered; only these transports (never ext::, which runs commands).
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: 'https:ssh:file',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  if (parsed.kind === 'ssh') {
    const keyFile = path.join(scratch, 'id_deploy');
    if (workspace.ssh_private_key) fs.writeFileSync(keyFile, `${workspace.ssh_private_key.trim()}\n`, { mode: 0o600 });
    const identity = workspace.ssh_private_key ? `-i "${keyFile}" -o IdentitiesOnly=yes ` : '';
    env.GIT_SSH_COMMAND = `ssh ${identity}-o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile="${path.join(scratch, 'known_hosts')}"`;
  }
  write(`Deploying ${describeUrl(url)}${branch ? ` (branch ${branch})` : ''}.`);
  let commit: string | undefined;
  const started = startJobProcess({
    script: CLONE_SCRIPT,
    cwd: dir,
    env,
    timeoutMs: job.timeout_seconds * 1000,
    killGraceMs: options.killGraceMs,
    onLine: (line) => {
      commit = /^Deployed commit ([0-9a-f]{40}) /.exec(line)?.[1] ?? commit;
      write(line);
    },
  });
  const after = async (result: JobProcessResult): Promise<JobProcessResult> => {
    fs.rmSync(scratch, { recursive: true, force: true });
    if (result.reason !== 'EXITED' || result.exitCode !== 0) {
      write('The repository could not be fetched; the previous deployment, if any, is kept.');
      return result;
    }
    if (commit) await db.updateTable('jobs').set({ commit_id: commit }).where('id', '=', job.id).execute();
    const found = readDefinitions(path.join(dir, REPOSITORY_DIR));
    for (const line of found.lines) write(line);
    if (found.pipelines.length === 0 && found.datasets.length === 0) {
      write('Nothing to deploy: the repository holds no pipeline or dataset definitions (pipelines/*.yml, datasets/*.yml).');
    } else {
      write(`Read ${found.pipelines.length} pipeline and ${found.datasets.length} dataset definition${found.datasets.length === 1 ? '' : 's'}.`);
    }
    return found.errors > 0 ? EXITED_FAILED : result;
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

export interface Definition {
  file: string;
  name: string;
}

export interface Definitions {
  pipelines: Definition[];
  datasets: Definition[];
  lines: string[];
  errors: number;
}

const DEFINITION_FOLDERS = { pipelines: 'pipelines', datasets: 'datasets' } as const;
const MAX_DEFINITION_BYTES = 1_000_000;

/** The pipeline and dataset definitions of a deployed repository: YAML files named by their folder. */
export function readDefinitions(repository: string): Definitions {
  const result: Definitions = { pipelines: [], datasets: [], lines: [], errors: 0 };
  for (const kind of ['pipelines', 'datasets'] as const) {
    const folder = path.join(repository, DEFINITION_FOLDERS[kind]);
    let files: string[];
    try {
      files = fs.readdirSync(folder).filter((f) => /\.ya?ml$/i.test(f)).sort();
    } catch {
      continue;
    }
    for (const file of files) {
      const full = path.join(folder, file);
      const relative = `${DEFINITION_FOLDERS[kind]}/${file}`;
      try {
        // A symbolic link could point out of the clone: only regular files are read.
        const stat = fs.lstatSync(full);
        if (!stat.isFile()) throw new Error('not a regular file');
        if (stat.size > MAX_DEFINITION_BYTES) throw new Error('larger than 1 MB');
        const parsed: unknown = parseYaml(fs.readFileSync(full, 'utf8'), { maxAliasCount: 100 });
        const name = typeof parsed === 'object' && parsed !== null && 'name' in parsed && typeof parsed.name === 'string' ? parsed.name : file.replace(/\.ya?ml$/i, '');
        result[kind].push({ file: relative, name });
        result.lines.push(`${kind === 'pipelines' ? 'Pipeline' : 'Dataset'} definition ${relative}: ${name}.`);
      } catch (error) {
        result.errors += 1;
        result.lines.push(`Definition ${relative} could not be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}.`);
      }
    }
  }
  return result;
}
