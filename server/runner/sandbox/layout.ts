import fs from 'node:fs';
import path from 'node:path';
import { PLUGINS_DIR } from '../../plugins/catalogue';
import { SLIRP_DNS } from './slirp';

// What a sandbox is made of, as a list both launchers (bwrap.ts, unshare.ts) turn into mounts:
// one place decides what a job can see. Everything is read-only but the project directory,
// mounted at /project, and a private /tmp; the host's /proc, the data directory, other projects
// and the server's files (but the code the built-in plugins run) are simply not there.

export const SANDBOX_PROJECT = '/project';
export const SANDBOX_BRIDGE = '/run/runner/bridge.sock';
export const SANDBOX_TMP = '/tmp';
/** the uid and gid a job has inside (nobody) */
export const SANDBOX_UID = 65534;

export type MountOp =
  /** bind a host path read-only at target (the launcher gets it as an open descriptor) */
  | { op: 'ro'; source: string; target: string }
  /** bind a host directory writable at target */
  | { op: 'rw'; source: string; target: string }
  /** bind a Unix socket (which cannot be opened as a file) by its path */
  | { op: 'socket'; source: string; target: string }
  | { op: 'tmpfs'; target: string }
  | { op: 'symlink'; link: string; target: string };

interface LayoutInput {
  projectDir: string;
  /** host path of the runner's bridge socket, when the job talks to the server */
  bridgeSocket?: string | undefined;
  /** further Unix sockets, bound at their target (a job's store proxy) */
  sockets?: ReadonlyArray<{ source: string; target: string }> | undefined;
  /** the directory of generated /etc files (passwd, group, hosts, resolv.conf) */
  etcDir: string;
  /** host system paths: a top-level symlink (/bin -> usr/bin) is recreated, a directory bound */
  system: ReadonlyArray<{ path: string; symlink?: string }>;
  /** read-only host paths at the same place: the plugins' code, node, a local repository */
  readOnly: readonly string[];
  /** host paths that must stay invisible even under a read-only path (the data directory) */
  hidden: readonly string[];
}

const GENERATED_ETC = ['passwd', 'group', 'hosts', 'resolv.conf'];

export function sandboxLayout(input: LayoutInput): MountOp[] {
  const ops: MountOp[] = [];
  for (const entry of input.system) {
    ops.push(entry.symlink !== undefined ? { op: 'symlink', link: entry.symlink, target: entry.path } : { op: 'ro', source: entry.path, target: entry.path });
  }
  for (const name of GENERATED_ETC) ops.push({ op: 'ro', source: path.join(input.etcDir, name), target: `/etc/${name}` });
  // shortest first, so a path inside another is mounted over it, never under it
  const readOnly = [...new Set(input.readOnly.map((p) => path.resolve(p)))].sort((a, b) => a.length - b.length);
  for (const p of readOnly) {
    if (!input.system.some((s) => s.symlink === undefined && isInside(p, s.path))) ops.push({ op: 'ro', source: p, target: p });
  }
  for (const h of input.hidden.map((p) => path.resolve(p))) {
    if (ops.some((o) => o.op === 'ro' && isInside(h, o.target))) ops.push({ op: 'tmpfs', target: h });
  }
  ops.push({ op: 'rw', source: input.projectDir, target: SANDBOX_PROJECT });
  if (input.bridgeSocket) ops.push({ op: 'socket', source: input.bridgeSocket, target: SANDBOX_BRIDGE });
  for (const socket of input.sockets ?? []) ops.push({ op: 'socket', source: socket.source, target: socket.target });
  return ops;
}

export function isInside(candidate: string, dir: string): boolean {
  const relative = path.relative(dir, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The repository's pieces the built-in plugins load at run time (server/plugins/bin/_launch runs
 * them with tsx, or compiled in dist-server/plugins): node_modules, and every folder of the repository their relative imports reach
 * from server/plugins, followed at start — so a new import cannot break the plugins in the sandbox,
 * and nothing else of the server is there.
 */
export function pluginCodePaths(): string[] {
  const root = path.resolve(PLUGINS_DIR, '../..');
  const node = path.resolve(process.execPath, '../..');
  return [
    ...['node_modules', 'package.json', 'tsconfig.json', 'dist-server/plugins'].map((p) => path.join(root, p)),
    ...importedFolders(PLUGINS_DIR, root),
    // node itself when it is not part of /usr (nvm, a tarball in /opt)
    ...(isInside(process.execPath, '/usr') ? [] : [node]),
  ].filter((p) => fs.existsSync(p));
}

/** The folders (inside `root`) of every module reachable by relative imports from the modules in `start`. */
function importedFolders(start: string, root: string): string[] {
  const folders = new Set<string>([start]);
  const seen = new Set<string>();
  const queue = fs.readdirSync(start, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => path.join(start, f));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    // type-only imports are erased by tsx: they need nothing at run time
    for (const match of text.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gm)) {
      const target = path.resolve(path.dirname(file), match[1]!);
      const resolved = [target, `${target}.ts`, path.join(target, 'index.ts')].find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
      if (!resolved || !isInside(resolved, root)) continue;
      folders.add(path.dirname(resolved));
      queue.push(resolved);
    }
  }
  // a folder inside another is mounted with it
  return [...folders].filter((f) => ![...folders].some((o) => o !== f && isInside(f, o)));
}

const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
const SYSTEM_ETC = ['/etc/ssl', '/etc/ca-certificates', '/etc/alternatives', '/etc/ld.so.cache', '/etc/nsswitch.conf', '/etc/ssh/ssh_config'];

/** The host's read-only system as it is here: merged-/usr symlinks kept as symlinks. */
export function hostSystem(): Array<{ path: string; symlink?: string }> {
  const entries: Array<{ path: string; symlink?: string }> = [];
  for (const p of [...SYSTEM_DIRS, ...SYSTEM_ETC]) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(p);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) {
      if (SYSTEM_DIRS.includes(p)) entries.push({ path: p, symlink: fs.readlinkSync(p) });
    } else entries.push({ path: p });
  }
  return entries;
}

/** Writes the generated /etc files once per runner: a minimal passwd and group, and the resolver the network mode gives. */
export function writeEtc(dir: string, network: 'public' | 'none'): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const files: Record<string, string> = {
    passwd: `root:x:0:0:root:/root:/usr/sbin/nologin\njob:x:${SANDBOX_UID}:${SANDBOX_UID}:job:${SANDBOX_PROJECT}:/bin/bash\n`,
    group: `root:x:0:\njob:x:${SANDBOX_UID}:\n`,
    hosts: '127.0.0.1 localhost sandbox\n::1 localhost\n',
    // slirp4netns answers DNS at its fixed address and forwards it to the host's resolver
    'resolv.conf': network === 'public' ? `nameserver ${SLIRP_DNS}\n` : '',
  };
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), body, { mode: 0o644 });
}
