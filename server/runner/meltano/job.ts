import fs from 'node:fs';
import path from 'node:path';
import type { DiscoveredPlugin } from '../../../src/domain/discovery';
import { shellQuote } from '../../../src/domain/pipelineScript';
import type { Db } from '../../db/database';
import type { DataComponentRow } from '../../repositories/dataComponents';
import type { JobEgress } from '../executor';
import { gitHostsOf, isPythonComponent, pythonDefinitions } from './definitions';
import { INSTALL_CHANGED_COMMAND } from './installChanged';
import { SYSTEM_CA_BUNDLE, SYSTEM_PYTHON, ensureMeltano, type ProvisionedMeltano } from './provision';
import { pipTrustedHostEnv, type MeltanoSettings } from './settings';
import { harvestStates, seedScript, jobStateDir } from './state';
import { REPOSITORY_DIR } from '../workspaceJobs';

// What a pipeline with a Python plugin needs around its script (issue 37): Meltano provisioned and
// mounted, the project's meltano.yml with the plugins' definitions, an install step that may reach
// the package index and nothing else, the pipeline's state seeded from the database before the run
// and read back after it. Pipelines of built-in plugins only never come here.

interface MeltanoJobInput {
  db: Db;
  settings: MeltanoSettings;
  jobId: string;
  workspaceId: string;
  pipelineId: string;
  /** the project directory on the host, and where the job sees it */
  projectDir: string;
  projectPath: string;
  /** every component of the workspace (meltano.yml lists them all), and the pipeline's */
  workspaceComponents: readonly DataComponentRow[];
  pipelineComponents: readonly DataComponentRow[];
  write: (line: string) => void;
}

export interface MeltanoJob {
  meltano: ProvisionedMeltano;
  /** definitions of the workspace's Python components, for meltano.yml */
  definitions: Map<string, DiscoveredPlugin>;
  /** Meltano's environment, mounted read-only where it is */
  readOnlyPaths: string[];
  /** variables for both steps, PATH with Meltano first included (given the job's own PATH) */
  env(jobEnv: Readonly<Record<string, string>>): Record<string, string>;
  /** the install step: the pipeline's Python plugins whose requirements changed, reaching only the index */
  installScript: string;
  installEgress: JobEgress;
  /** the run step: put before the pipeline's script (its state, from the database) */
  seed: string;
  /** the run step may install too (a script's own `meltano install`, Meltano's auto-install) */
  runEgress: JobEgress;
  /** once the job ended, whatever its status: the state back into the database; lines for the log */
  harvest(): Promise<string[]>;
}

/**
 * Where Meltano's project is. A deployed repository with a meltano.yml of its own is used as
 * written: the clone (`repository/`, which the runner never writes into) is the project, as on
 * Matatika, with its relative pip_urls and its plugins' `.meltano/`. Otherwise the project
 * directory with the meltano.yml the runner writes from the workspace's components.
 */
function meltanoProjectPath(projectDir: string, projectPath: string): { path: string; repository: boolean } {
  try {
    if (fs.lstatSync(path.join(projectDir, REPOSITORY_DIR, 'meltano.yml')).isFile()) return { path: path.posix.join(projectPath, REPOSITORY_DIR), repository: true };
  } catch {
    // no deployed repository, or none with a meltano.yml
  }
  return { path: projectPath, repository: false };
}

/**
 * The install step's network: the package index and nothing else, unless a plugin installs from a
 * git repository (a pip_url `git+https://…`): then the public internet as the run step has it,
 * never a private address the policy refuses. The repository's host is not added to the hosts
 * routed past that refusal, since a stranger's pip_url names it.
 */
export function installEgressOf(indexHosts: readonly string[], label: string, gitHosts: readonly string[]): JobEgress {
  const hosts = [...new Set(gitHosts)];
  if (hosts.length === 0) return { allowHosts: indexHosts, exclusive: true, label: `${label}, and nothing else` };
  return { allowHosts: indexHosts, exclusive: false, label: `${label}, and the public internet for the git repositories its plugins install from (${hosts.join(', ')})` };
}

export const needsMeltano = (components: readonly DataComponentRow[]): boolean => components.some(isPythonComponent);

/** Everything the two steps need; undefined when the job cannot run, after a line saying why. */
export async function prepareMeltanoJob(input: MeltanoJobInput): Promise<MeltanoJob | undefined> {
  const { settings, write } = input;
  const python = input.pipelineComponents.filter(isPythonComponent);
  const { definitions, unknown } = await pythonDefinitions(input.db, input.workspaceId, input.workspaceComponents);
  const undefinedHere = python.filter((c) => unknown.includes(c.name)).map((c) => c.name);
  if (undefinedHere.length > 0) {
    write(`No plugin definition for ${undefinedHere.join(', ')}: install the plugin from the catalogue, or publish a discovery.yml that defines it, so that Meltano knows how to install it.`);
    return undefined;
  }
  const provision = await ensureMeltano(settings, write);
  if (!provision.ok) {
    write(provision.line);
    return undefined;
  }
  const project = meltanoProjectPath(input.projectDir, input.projectPath);
  if (project.repository) write(`Meltano's project is the deployed repository, its meltano.yml as written (${REPOSITORY_DIR}/meltano.yml).`);
  // a repository's scripts and relative paths expect its root as the working directory, as on Matatika
  const cd = project.repository ? `cd -- ${shellQuote(project.path)} || exit 1\n` : '';
  const { script: seed, seeded } = await seedScript(input.db, input.pipelineId, input.projectPath, input.jobId);
  const label = `the package index ${new URL(settings.indexUrl).hostname}`;
  const caBundle = fs.existsSync(SYSTEM_CA_BUNDLE) ? SYSTEM_CA_BUNDLE : undefined;
  const meltano = provision.meltano;
  const cache = path.posix.join(input.projectPath, '.meltano', 'cache');
  return {
    meltano,
    definitions,
    readOnlyPaths: [meltano.root],
    env: (jobEnv) => ({
      ...jobEnv,
      PATH: `${meltano.binDir}:${jobEnv.PATH ?? '/usr/bin:/bin'}`,
      MELTANO_PROJECT_ROOT: project.path,
      MELTANO_STATE_BACKEND_URI: `file://${path.posix.join(input.projectPath, jobStateDir(input.jobId))}`,
      MELTANO_SEND_ANONYMOUS_USAGE_STATS: 'false',
      // Meltano otherwise writes a generated project_id into meltano.yml, a repository's included
      MELTANO_PROJECT_ID: input.workspaceId,
      // plugins' environments are made from the system's Python, never from Meltano's own
      // environment, so a new Meltano version leaves the installed plugins working
      MELTANO_PYTHON: SYSTEM_PYTHON,
      // pip and uv (Meltano's installer) read the runner's index only; settings cannot set these
      // (isSystemVariable), and nothing in the sandbox reads a pip.conf of the host
      PIP_INDEX_URL: settings.indexUrl,
      ...pipTrustedHostEnv(settings.indexUrl),
      UV_INDEX_URL: settings.indexUrl,
      PIP_CONFIG_FILE: '/dev/null',
      PIP_DISABLE_PIP_VERSION_CHECK: '1',
      PIP_NO_INPUT: '1',
      // the download caches are the workspace's own (docs/decisions.md: no cache shared between tenants)
      PIP_CACHE_DIR: path.posix.join(cache, 'pip'),
      UV_CACHE_DIR: path.posix.join(cache, 'uv'),
      // the host's trust store (mounted at /etc/ssl) rather than the packages' bundled ones
      ...(caBundle ? { PIP_CERT: caBundle, SSL_CERT_FILE: caBundle } : {}),
    }),
    installScript: `${cd}${INSTALL_CHANGED_COMMAND} ${python.map((c) => shellQuote(c.name)).join(' ')}`,
    installEgress: installEgressOf(settings.indexHosts, label, python.flatMap((c) => gitHostsOf(definitions.get(c.name)?.pipUrl))),
    seed: `${seed}${cd}`,
    runEgress: { allowHosts: settings.indexHosts, exclusive: false, label },
    harvest: () => harvestStates(input.db, input.pipelineId, input.projectDir, input.jobId, seeded),
  };
}
