import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runTool } from './tool';
import { pipTrustedHostEnv, type MeltanoSettings } from './settings';
import { withLockFile } from './lockFile';
import { INSTALL_CHANGED_COMMAND, INSTALL_CHANGED_PY } from './installChanged';

// The pinned Meltano (issue 37): our own package, not a tenant's, so it is installed outside the
// sandbox, into `{RUNNER_CACHE_DIR}/meltano/{version}/`, the first time a job needs it, and reused.
// It is built in a temporary directory beside it and renamed into place only once it works, so a
// failed or killed install leaves nothing a later job could take for complete; a lock file makes
// two jobs (or two server processes on this machine) build it once. The cache is content-keyed
// (the version) and may be deleted at any time: the next job that needs it builds it again.

/** Debian's interpreter: under /usr, so the sandbox (which mounts /usr read-only) sees the same one. */
export const SYSTEM_PYTHON = '/usr/bin/python3';
/** the system's trust store, which the sandbox mounts too (/etc/ssl) */
export const SYSTEM_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
/** inside the environment: a directory holding only our `meltano`, put first on a job's PATH */
const WRAPPER_DIR = 'runner-bin';
const INSTALL_TIMEOUT_MS = 15 * 60_000;

export interface ProvisionedMeltano {
  version: string;
  /** the virtual environment, mounted read-only into the sandbox at the same path */
  root: string;
  /** the directory to put first on a job's PATH: it holds `meltano` and nothing else */
  binDir: string;
}

type Provision = { ok: true; meltano: ProvisionedMeltano } | { ok: false; line: string };

export function meltanoRoot(settings: Pick<MeltanoSettings, 'cacheDir' | 'version'>): string {
  return path.join(settings.cacheDir, 'meltano', settings.version);
}

function provisioned(settings: MeltanoSettings): ProvisionedMeltano {
  const root = meltanoRoot(settings);
  return { version: settings.version, root, binDir: path.join(root, WRAPPER_DIR) };
}

/** A built environment whose interpreter still resolves (a system Python upgrade breaks a venv). */
function isComplete(root: string): boolean {
  try {
    fs.accessSync(path.join(root, WRAPPER_DIR, 'meltano'), fs.constants.X_OK);
    fs.accessSync(path.join(root, WRAPPER_DIR, INSTALL_CHANGED_COMMAND), fs.constants.X_OK);
    return fs.statSync(path.join(root, 'bin', 'python')).isFile();
  } catch {
    return false;
  }
}

/** one build per environment in this process; the lock file covers other processes */
const building = new Map<string, Promise<Provision>>();

/**
 * Meltano of the configured version, built on first need. `say` receives the lines the job's log
 * shows: what is being installed and how long it took, or the one line saying why it could not be.
 */
export async function ensureMeltano(settings: MeltanoSettings, say: (line: string) => void): Promise<Provision> {
  const root = meltanoRoot(settings);
  if (isComplete(root)) return reachable(settings);
  let pending = building.get(root);
  if (pending) say(`Waiting for Meltano ${settings.version}, which another job is installing.`);
  else {
    pending = build(settings, say).finally(() => building.delete(root));
    building.set(root, pending);
  }
  return pending;
}

async function build(settings: MeltanoSettings, say: (line: string) => void): Promise<Provision> {
  const root = meltanoRoot(settings);
  const parent = path.dirname(root);
  fs.mkdirSync(parent, { recursive: true, mode: 0o755 });
  const failed = (why: string): Provision => ({ ok: false, line: `Meltano ${settings.version} could not be installed: ${why}` });
  return withLockFile(`${root}.lock`, () => say(`Waiting for Meltano ${settings.version}, which another process is installing.`), async () => {
    if (isComplete(root)) return reachable(settings);
    // a build that was killed left its temporary directory (and perhaps a broken one in place)
    for (const name of fs.readdirSync(parent)) if (name.startsWith(`.${settings.version}-`)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
    fs.rmSync(root, { recursive: true, force: true });
    const started = Date.now();
    // a refused or unresolvable index is said at once, before a virtual environment is made for nothing
    // (behind a proxy only pip, through it, can tell)
    const proxied = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => process.env[name]);
    const unreachable = proxied ? undefined : await probeIndex(settings.indexUrl);
    if (unreachable) return failed(`the package index ${settings.indexUrl} could not be reached (${unreachable}).`);
    say(`Installing Meltano ${settings.version} from ${settings.indexUrl} into the runner's cache (once per machine and version).`);
    const temporary = fs.mkdtempSync(path.join(parent, `.${settings.version}-`));
    try {
      const env = installerEnv(settings);
      const venv = await runTool(SYSTEM_PYTHON, ['-m', 'venv', temporary], env, 120_000);
      if (venv.code !== 0) return failed(`${SYSTEM_PYTHON} cannot make a virtual environment (Debian needs the python3-venv package): ${venv.lastLine}`);
      const pip = await runTool(path.join(temporary, 'bin', 'python'), ['-m', 'pip', 'install', '--retries', '2', '--timeout', '20', `meltano==${settings.version}`], env, INSTALL_TIMEOUT_MS);
      if (pip.code !== 0) {
        const unreachable = unreachableReason(pip.output);
        return failed(unreachable ? `the package index ${settings.indexUrl} could not be reached (${unreachable}).` : `pip failed: ${pip.lastLine}`);
      }
      // pip's console scripts name the interpreter by its absolute path, which the rename below
      // changes; our own `meltano` names the final place instead, and is the only one on PATH.
      fs.mkdirSync(path.join(temporary, WRAPPER_DIR), { mode: 0o755 });
      fs.writeFileSync(
        path.join(temporary, WRAPPER_DIR, 'meltano'),
        `#!/bin/sh\n# Meltano ${settings.version}, provisioned by the runner (server/runner/meltano/provision.ts)\nexec ${path.join(root, 'bin', 'python')} -c 'import sys; from meltano.cli import main; sys.argv[0] = "meltano"; sys.exit(main())' "$@"\n`,
        { mode: 0o755 },
      );
      fs.writeFileSync(path.join(temporary, WRAPPER_DIR, 'install_changed.py'), INSTALL_CHANGED_PY, { mode: 0o644 });
      fs.writeFileSync(path.join(temporary, WRAPPER_DIR, INSTALL_CHANGED_COMMAND), `#!/bin/sh\nexec ${path.join(root, 'bin', 'python')} ${path.join(root, WRAPPER_DIR, 'install_changed.py')} "$@"\n`, { mode: 0o755 });
      const check = await runTool(path.join(temporary, 'bin', 'python'), ['-c', 'from importlib.metadata import version; print(version("meltano"))'], env, 60_000);
      if (check.code !== 0 || check.lastLine !== settings.version) return failed(`the installed package says ${check.lastLine || 'nothing'} instead of its version.`);
      // every job's uid reads it (a root server runs each workspace under a uid of its own)
      await runTool('/bin/chmod', ['-R', 'a+rX,go-w', temporary], env, 60_000);
      fs.renameSync(temporary, root);
      say(`Meltano ${settings.version} installed in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      return reachable(settings);
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    } finally {
      fs.rmSync(temporary, { recursive: true, force: true });
    }
  });
}

/**
 * A root server runs each workspace's sandbox under a uid of its own, and bubblewrap binds the
 * environment by path as that uid: every directory above it must be passable by others.
 */
function reachable(settings: MeltanoSettings): Provision {
  const meltano = provisioned(settings);
  if (process.getuid?.() !== 0) return { ok: true, meltano };
  for (let dir = path.dirname(meltano.root); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) {
      return { ok: false, line: `Meltano ${settings.version} cannot be given to the job: ${dir} is not passable by other users (chmod o+x), and the job's sandbox reads ${meltano.root} as the workspace's own uid. Set RUNNER_CACHE_DIR to a directory every user can pass.` };
    }
    if (dir === path.dirname(dir)) return { ok: true, meltano };
  }
}

/**
 * The environment pip runs in outside the sandbox: the index is the configured one only (pip's
 * configuration files are not read, so a machine's extra indexes or local wheel folders never
 * decide what Meltano is made of); proxies and the trust store are the server's. Its download
 * cache is the server user's default one.
 */
function installerEnv(settings: MeltanoSettings): Record<string, string> {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: os.homedir(),
    LANG: 'C.UTF-8',
    PIP_CONFIG_FILE: os.devNull,
    PIP_INDEX_URL: settings.indexUrl,
    ...pipTrustedHostEnv(settings.indexUrl),
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PIP_NO_INPUT: '1',
  };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'XDG_CACHE_HOME', 'PIP_CACHE_DIR']) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  const ca = process.env.PIP_CERT ?? (fs.existsSync(SYSTEM_CA_BUNDLE) ? SYSTEM_CA_BUNDLE : undefined);
  if (ca) env.PIP_CERT = ca;
  return env;
}

/**
 * Why the index cannot be reached at all (its name does not resolve, its port refuses or does not
 * answer), or undefined once a TCP connection is made: what TLS and HTTP say then is pip's to judge.
 */
function probeIndex(indexUrl: string, timeoutMs = 15_000): Promise<string | undefined> {
  const url = new URL(indexUrl);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(`no answer from ${url.hostname}:${port} within ${timeoutMs / 1000} s`);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(`${error.code ?? 'error'}: ${error.message}`));
  });
}

const UNREACHABLE = [
  /Connection refused/i,
  /Failed to establish a new connection[^'"]*/i,
  /Temporary failure in name resolution/i,
  /Name or service not known/i,
  /Network is unreachable/i,
  /No route to host/i,
  /Read timed out/i,
  /timed out/i,
  /SSLError[^'"]*/,
  /ProxyError/,
  /Max retries exceeded/,
];

/** Why pip could not reach the index, from its output; undefined when it reached it and failed otherwise. */
function unreachableReason(output: string): string | undefined {
  for (const pattern of UNREACHABLE) {
    const match = pattern.exec(output);
    if (match) return match[0].replace(/[:\s]+$/, '').slice(0, 160);
  }
  return undefined;
}
