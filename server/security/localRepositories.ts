import fs from 'node:fs';
import path from 'node:path';
import { isInside } from './projectFiles';

// Which local repository paths a workspace may deploy from (README "Configuration",
// REPOSITORY_LOCAL_ROOTS). A path is a way to read the server's disk, so none is allowed unless the
// operator names the directories they may be under; the data directory (the embedded database,
// every project) never is. Paths are compared after every symbolic link is followed, and the
// clone reads the real path that was checked, so a link swapped afterwards leads nowhere new.

export interface LocalRepositoryRules {
  dataDir: string;
  roots: readonly string[];
}

/**
 * The real path of the deepest part of `entry` that exists, with the rest appended: where the path
 * would lead once created (a link on the way is followed, not taken at its word).
 */
function realOrResolved(entry: string): string {
  const absolute = path.resolve(entry);
  const rest: string[] = [];
  for (let current = absolute; ; current = path.dirname(current)) {
    try {
      return path.join(fs.realpathSync(current), ...rest.reverse());
    } catch {
      if (current === path.dirname(current)) return absolute;
      rest.push(path.basename(current));
    }
  }
}

/** Whether nothing is at `entry`; a path the server may not look at is not said to be missing (readableBy.ts says why). */
function missing(entry: string): boolean {
  try {
    fs.statSync(entry);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EACCES';
  }
}

/**
 * The real path of a local repository when it may be deployed, else why not (a phrase that
 * follows the path: "is not under ..."). `mustExist` is for
 * the deployment itself; a settings form may name a path that is created later.
 */
export function checkLocalRepository(entry: string, rules: LocalRepositoryRules, mustExist: boolean): { ok: true; path: string } | { ok: false; reason: string } {
  if (!path.isAbsolute(entry)) return { ok: false, reason: 'must be an absolute path' };
  if (rules.roots.length === 0) return { ok: false, reason: 'is not allowed: this server takes no local repository paths (REPOSITORY_LOCAL_ROOTS is empty)' };
  if (mustExist && missing(entry)) return { ok: false, reason: 'does not exist' };
  const real = realOrResolved(entry);
  const dataDir = realOrResolved(rules.dataDir);
  if (isInside(dataDir, real)) return { ok: false, reason: "is inside the server's data directory" };
  if (!rules.roots.some((root) => isInside(realOrResolved(root), real))) return { ok: false, reason: 'is not under a directory REPOSITORY_LOCAL_ROOTS allows' };
  return { ok: true, path: real };
}
