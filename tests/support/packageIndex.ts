import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A Python package index of the machine's own, for tests (test code only): a folder of wheels kept
// in a machine-level cache and served as a PEP 503 "simple" index, the way an operator points
// RUNNER_PACKAGE_INDEX_URL at a mirror inside their network. The e2e server's jobs then install
// Meltano and a plugin from this machine instead of downloading them on every run, and a warm run
// needs no package index on the internet at all.
//
// The folder is filled once per set of requirements with `pip download` (wheels only, for this
// machine's Python), each group resolved on its own as the job resolves each plugin's venv on its
// own, into a temporary folder renamed into place once complete: two runs at once fill it twice at
// worst, and never serve half of it.

/** This machine's first non-loopback IPv4 address: a job's sandbox reaches the host there, never on its loopback. */
export function machineAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;
}

/** The addresses of this machine: only its own processes (a job's slirp4netns among them) may use what the tests serve. */
function isLocalPeer(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^::ffff:/, '');
  if (plain === '::1' || plain.startsWith('127.')) return true;
  return Object.values(os.networkInterfaces()).some((list) => (list ?? []).some((i) => i.address === plain));
}

/** Refuses every connection that does not come from this machine (before a request is read). */
function localPeersOnly(server: net.Server): void {
  server.on('connection', (socket: net.Socket) => {
    if (!isLocalPeer(socket.remoteAddress)) socket.destroy();
  });
}

export interface Wheelhouse {
  /** the folder the index serves (complete once it exists) */
  dir: string;
  /** requirement groups, each resolved on its own (one per venv a job makes) */
  groups: string[][];
}

/** The folder of `groups` under `cacheDir`: named by the requirements and the interpreter, so a changed pin gets a folder of its own. */
export function wheelhouseFor(cacheDir: string, groups: string[][], python = '/usr/bin/python3'): Wheelhouse {
  const key = createHash('sha256').update(JSON.stringify({ groups, python, platform: `${os.platform()}-${os.arch()}` })).digest('hex').slice(0, 16);
  return { dir: path.join(cacheDir, 'wheels', key), groups };
}

/**
 * Downloads the wheels of every group into `wheelhouse.dir` unless it is there already. Returns
 * whether it downloaded. pip reads no configuration of this machine (its own find-links or extra
 * indexes would decide what the folder holds), only `upstream`, proxies and the trust store.
 */
export async function fillWheelhouse(wheelhouse: Wheelhouse, upstream = process.env.E2E_UPSTREAM_INDEX_URL ?? 'https://pypi.org/simple', python = '/usr/bin/python3'): Promise<boolean> {
  if (fs.existsSync(wheelhouse.dir)) return false;
  const parent = path.dirname(wheelhouse.dir);
  fs.mkdirSync(parent, { recursive: true, mode: 0o755 });
  const temporary = fs.mkdtempSync(path.join(parent, `.${path.basename(wheelhouse.dir)}-`));
  try {
    const env: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: os.homedir(), LANG: 'C.UTF-8', PIP_CONFIG_FILE: os.devNull, PIP_INDEX_URL: upstream, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1' };
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'PIP_CERT', 'XDG_CACHE_HOME', 'PIP_CACHE_DIR']) {
      const value = process.env[name];
      if (value) env[name] = value;
    }
    for (const group of wheelhouse.groups) await run(python, ['-m', 'pip', 'download', '--quiet', '--only-binary=:all:', '--dest', temporary, ...group], env);
    fs.chmodSync(temporary, 0o755);
    try {
      fs.renameSync(temporary, wheelhouse.dir);
    } catch (error) {
      // another run filled it first
      if (!fs.existsSync(wheelhouse.dir)) throw error;
    }
    return true;
  } finally {
    fs.rmSync(temporary, { recursive: true, force: true });
  }
}

function run(file: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${file} ${args.join(' ')} failed (${String(code)}): ${output.trim().slice(-2000)}`))));
  });
}

/** PEP 503's name of a distribution: lower case, runs of `-`, `_` and `.` as one `-`. */
const normalizedName = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');

/** The project a wheel file belongs to (`{distribution}-{version}-…whl`). */
const projectOf = (file: string): string | undefined => (file.endsWith('.whl') ? normalizedName(file.split('-')[0] ?? '') : undefined);

interface PackageIndex {
  /** the index's simple URL, e.g. http://192.0.2.2:40123/simple */
  url: string;
  close(): Promise<void>;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Serves `dir` as a simple index at http://{host}:{port}/simple/ (the folder may be filled later:
 * it is read at each request), to this machine's processes only.
 */
export async function startPackageIndex(options: { host: string; dir: string }): Promise<PackageIndex> {
  const hashes = new Map<string, string>();
  const files = (): string[] => {
    try {
      return fs.readdirSync(options.dir).filter((f) => projectOf(f) !== undefined);
    } catch {
      return [];
    }
  };
  const sha256 = (file: string): string => {
    let hash = hashes.get(file);
    if (!hash) {
      hash = createHash('sha256').update(fs.readFileSync(path.join(options.dir, file))).digest('hex');
      hashes.set(file, hash);
    }
    return hash;
  };
  const page = (title: string, links: string[]) => `<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.0"><title>${escape(title)}</title></head><body>\n${links.join('<br>\n')}\n</body></html>\n`;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://index');
    const parts = url.pathname.split('/').filter((p) => p !== '');
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, 'text/plain', 'GET only\n');
    if (parts[0] === 'simple' && parts.length === 1) {
      const projects = [...new Set(files().map((f) => projectOf(f)!))].sort();
      return send(200, 'text/html', page('Simple index', projects.map((p) => `<a href="${escape(p)}/">${escape(p)}</a>`)));
    }
    if (parts[0] === 'simple' && parts.length === 2) {
      const project = normalizedName(decodeURIComponent(parts[1]!));
      const own = files().filter((f) => projectOf(f) === project).sort();
      if (own.length === 0) return send(404, 'text/plain', 'no such project\n');
      return send(200, 'text/html', page(`Links for ${project}`, own.map((f) => `<a href="../../files/${encodeURIComponent(f)}#sha256=${sha256(f)}">${escape(f)}</a>`)));
    }
    if (parts[0] === 'files' && parts.length === 2) {
      const file = decodeURIComponent(parts[1]!);
      if (!files().includes(file)) return send(404, 'text/plain', 'no such file\n');
      const full = path.join(options.dir, file);
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(fs.statSync(full).size) });
      if (request.method === 'HEAD') return response.end();
      fs.createReadStream(full).pipe(response);
      return;
    }
    send(404, 'text/plain', 'not found\n');
  });
  localPeersOnly(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host, resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${options.host}:${String(port)}/simple`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface TcpForward {
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Forwards connections to `host`:{a free port} to `target` (test code only): a database that listens
 * on this machine's loopback, which no job reaches, stands in for one on another host of the
 * operator's network. This machine's processes only.
 */
export async function startTcpForward(options: { host: string; target: { host: string; port: number } }): Promise<TcpForward> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!isLocalPeer(client.remoteAddress)) return void client.destroy();
    const upstream = net.connect(options.target.port, options.target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host, resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    host: options.host,
    port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
