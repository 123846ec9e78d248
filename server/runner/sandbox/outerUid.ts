import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// A server running as root does not lend its uid to a sandbox: each workspace's jobs run under an
// outer uid of their own (derived from the workspace id), which owns the workspace's project
// directory and nothing else. Outside the namespaces such a process is a stranger with no rights;
// the kernel counts its processes apart from the server's. A server that is not root has one uid
// to give; the user namespace maps it to 65534 inside (docs/decisions.md, "Job sandbox").

export const OUTER_UID_BASE = 200_000;
export const OUTER_UID_RANGE = 1_000_000;

export function outerUidOf(workspaceId: string): number {
  return OUTER_UID_BASE + (createHash('sha256').update(workspaceId).digest().readUInt32BE(0) % OUTER_UID_RANGE);
}

/** Root of the host, not of a container's user namespace (where other uids are not mapped to switch to). */
function hostRoot(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    return /^\s*0\s+0\s+4294967295\s*$/.test(fs.readFileSync('/proc/self/uid_map', 'utf8'));
  } catch {
    return false;
  }
}

export function outerIds(workspaceId: string, root: boolean = hostRoot()): { uid?: number; gid?: number } {
  if (!root) return {};
  const uid = outerUidOf(workspaceId);
  return { uid, gid: uid };
}

/**
 * Gives the project directory (and everything in it, never following a symlink) to the
 * workspace's uid, mode 0700. bwrap binds it by path as that uid, so the directories above it
 * inside the data directory get o+x: passable, not listable; other workspaces' directories are
 * 0700 to their own uids, and the database keeps its files' modes.
 */
export function ownProjectDir(dir: string, uid: number, roots: readonly string[]): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const root of roots.map((r) => path.resolve(r))) {
    const relative = path.relative(root, path.dirname(path.resolve(dir)));
    if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
    let at = root;
    for (const part of ['', ...relative.split(path.sep).filter(Boolean)]) {
      at = path.join(at, part);
      const mode = fs.statSync(at).mode & 0o7777;
      if ((mode & 0o001) === 0) fs.chmodSync(at, mode | 0o001);
    }
  }
  fs.chmodSync(dir, 0o700);
  if (fs.lstatSync(dir).uid === uid) return;
  const walk = (p: string) => {
    fs.lchownSync(p, uid, uid);
    const stat = fs.lstatSync(p);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
}
