import fs from 'node:fs';
import path from 'node:path';
import { parseRepositoryUrl } from '../../src/domain/workspaceRepository';
import { checkLocalRepository } from '../security/localRepositories';
import { describeReadProblem, readProblem, type Reader } from '../security/readableBy';
import type { Executor } from './executor';

// What git needs to fetch a workspace's repository in the job sandbox, shared by a deployment
// (which clones the branch's tip) and a job that materialises the deployed commit on a worker
// that lacks it (deployedRepository.ts). Variables are quoted in the scripts: the URL is never
// shell text. An SSH key arrives in the environment and lives in the job's private /tmp.

/** where a deployment keeps the clone, inside the project directory */
export const REPOSITORY_DIR = 'repository';

type GitSource =
  | { ok: true; env: Record<string, string>; readOnlyPaths: string[] }
  | { ok: false; line: string };

/** The workspace's settings a fetch reads. */
interface RepositorySettings {
  url: string;
  branch: string;
  sshPrivateKey: string | null;
}

/**
 * The environment a fetch script runs with: the URL (a local path by the real path checked
 * against REPOSITORY_LOCAL_ROOTS, mounted read-only where it is), the branch, the directory the
 * clone goes to, and git's and ssh's settings (no prompt, only https, ssh and file transports).
 */
export function gitSource(
  settings: RepositorySettings,
  options: { dataDir: string; projectDir: string; repositoryLocalRoots: readonly string[]; executor: Executor; jobId: string; workspaceId: string },
): GitSource {
  const { url } = settings;
  const parsed = parseRepositoryUrl(url);
  if (!parsed) return { ok: false, line: `'${url.slice(0, 200)}' is not a repository URL git can fetch.` };
  const local = parsed.kind === 'local' ? checkLocalRepository(url, { dataDir: options.dataDir, roots: options.repositoryLocalRoots }, true) : undefined;
  if (local && !local.ok) return { ok: false, line: `the local repository ${url.slice(0, 200)} ${local.reason}.` };
  if (local?.ok) {
    const unreadable = localReadProblem(local.path, options.executor.jobUid?.(options.workspaceId));
    if (unreadable) return { ok: false, line: `the local repository ${url.slice(0, 200)} ${unreadable}` };
  }
  // HOME is the job's private /tmp: git's and ssh's files, and the key, go when the job ends
  const paths = options.executor.paths(options.projectDir, '');
  const scratch = paths.tmp;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: scratch,
    DEPLOY_URL: local?.path ?? url,
    DEPLOY_BRANCH: settings.branch,
    DEPLOY_DIR: path.posix.join(paths.project, REPOSITORY_DIR),
    JOB_ID: options.jobId,
    // No prompt can be answered; only these transports (never ext::, which runs commands).
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: 'https:ssh:file',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  if (parsed.kind === 'ssh') {
    const keyFile = path.posix.join(scratch, 'id_deploy');
    if (settings.sshPrivateKey) env.DEPLOY_SSH_KEY = settings.sshPrivateKey.trim();
    const identity = settings.sshPrivateKey ? `-i "${keyFile}" -o IdentitiesOnly=yes ` : '';
    env.GIT_SSH_COMMAND = `ssh ${identity}-o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile="${path.posix.join(scratch, 'known_hosts')}"`;
  }
  return { ok: true, env, readOnlyPaths: local?.ok ? [local.path] : [] };
}

/**
 * Why the job cannot read the local repository (its clone reads the git data: `.git`, or the whole
 * of a bare repository), with the fix; undefined when it can. Asked before the job starts, since
 * the sandbox's launcher would only say "Can't find source path …: Permission denied".
 */
function localReadProblem(real: string, uid: number | undefined): string | undefined {
  const reader: Reader = uid === undefined ? 'server' : { uid };
  const gitDir = path.join(real, '.git');
  const problem = readProblem(real, reader, isDirectory(gitDir) ? gitDir : real);
  if (!problem) return undefined;
  const who = uid === undefined ? "the server's user, which the job runs as" : `the job's user (uid ${uid}: each workspace's jobs run as a user of their own, with only the rights every user has)`;
  return `cannot be read by ${who}: ${describeReadProblem(problem, real, reader, 'the repository', 'deploy again')}`;
}

function isDirectory(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

const KEY_PREAMBLE = `set -eu
trap 'rm -f "$HOME/id_deploy"' EXIT
mkdir -p "$HOME"
if [ -n "\${DEPLOY_SSH_KEY:-}" ]; then (umask 077; printf '%s\\n' "$DEPLOY_SSH_KEY" > "$HOME/id_deploy"); fi
unset DEPLOY_SSH_KEY
`;

// A deployment: the branch's tip, to a fresh directory that replaces the previous one only when the
// clone succeeded, so a failed deployment leaves the last good one.
export const CLONE_SCRIPT = `${KEY_PREAMBLE}rm -rf "$DEPLOY_DIR.new"
if [ -n "$DEPLOY_BRANCH" ]; then
  git clone --quiet --depth 1 --branch "$DEPLOY_BRANCH" -- "$DEPLOY_URL" "$DEPLOY_DIR.new"
else
  git clone --quiet --depth 1 -- "$DEPLOY_URL" "$DEPLOY_DIR.new"
fi
rm -rf "$DEPLOY_DIR"
mv "$DEPLOY_DIR.new" "$DEPLOY_DIR"
echo "Deployed commit $(git -C "$DEPLOY_DIR" rev-parse HEAD) of branch $(git -C "$DEPLOY_DIR" rev-parse --abbrev-ref HEAD)."
`;

// The deployed commit exactly (DEPLOY_COMMIT), not the branch's tip, which may have moved since.
// By its id first (one commit deep; hosts and git's own protocol v2 serve any reachable commit),
// else the branch's history. Into a directory of this job's own, so two workers or jobs sharing a
// data directory never write one; a job that lost the race finds the winner's commit in place.
export const FETCH_COMMIT_SCRIPT = `${KEY_PREAMBLE}new="$DEPLOY_DIR.$JOB_ID"
# a fetch that fails leaves nothing in the project (after the move there is nothing left to remove)
trap 'rm -f "$HOME/id_deploy"; rm -rf "$new"' EXIT
rm -rf "$new"
git init --quiet "$new"
if ! git -C "$new" fetch --quiet --depth 1 -- "$DEPLOY_URL" "$DEPLOY_COMMIT" 2>/dev/null; then
  if [ -n "$DEPLOY_BRANCH" ]; then git -C "$new" fetch --quiet -- "$DEPLOY_URL" "$DEPLOY_BRANCH"; else git -C "$new" fetch --quiet -- "$DEPLOY_URL"; fi
fi
git -C "$new" -c advice.detachedHead=false checkout --quiet --detach "$DEPLOY_COMMIT"
rm -rf "$DEPLOY_DIR"
if ! mv -T "$new" "$DEPLOY_DIR" 2>/dev/null; then
  rm -rf "$new"
  test "$(git -C "$DEPLOY_DIR" rev-parse HEAD)" = "$DEPLOY_COMMIT"
fi
echo "Fetched the deployed commit $DEPLOY_COMMIT."
`;
