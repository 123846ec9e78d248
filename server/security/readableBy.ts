import fs from 'node:fs';
import path from 'node:path';

// Whether a job can read a host path it is given read-only (a local repository to clone): its
// sandbox runs as the workspace's own uid, a stranger to every file, so what it may read is what
// "other users" may — every directory above the path passable (o+x), and the path itself, with
// everything a reader needs inside it, readable (o+r, directories o+rx). Asked before the job starts,
// so the answer names the place and the fix rather than the launcher's "Can't find source path".
// A server that is not host root has no uid to lend: the job reads as the server, whose own access
// is asked instead.

/** Who reads: another uid with only the rights every user has, or the server's own user. */
export type Reader = { uid: number } | 'server';

interface ReadProblem {
  /** the first place that cannot be read or passed, from the root down */
  path: string;
  kind: 'directory' | 'file';
  /** 'pass': a directory above cannot be passed through; 'read': the path or something inside cannot be read */
  need: 'pass' | 'read';
  /** its permission bits, when the server could read them */
  mode: number | undefined;
  /** every directory above the path that others cannot pass through (the fix opens each) */
  closedAbove: string[];
  /** whether the path itself, or something inside it, is closed to others (the fix opens it all) */
  closedInside: boolean;
}

/** How much of a tree the walk reads before it stops looking (a clone reads a repository's git data, which is bounded well below). */
export const READ_WALK_LIMIT = 20_000;

const OTHERS_PASS = 0o001;
const OTHERS_READ = 0o004;

function allows(stat: fs.Stats, full: string, reader: Reader, need: 'pass' | 'read'): boolean {
  if (reader === 'server') {
    try {
      fs.accessSync(full, need === 'pass' ? fs.constants.X_OK : stat.isDirectory() ? fs.constants.R_OK | fs.constants.X_OK : fs.constants.R_OK);
      return true;
    } catch {
      return false;
    }
  }
  const wanted = need === 'pass' ? OTHERS_PASS : stat.isDirectory() ? OTHERS_READ | OTHERS_PASS : OTHERS_READ;
  return (stat.mode & wanted) === wanted;
}

/** The directories from the root down to the one holding `target`. */
function directoriesAbove(target: string): string[] {
  const above: string[] = [];
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    above.unshift(dir);
    if (dir === path.dirname(dir)) return above;
  }
}

/**
 * The first thing the reader cannot pass or read on the way to `target` (an absolute real path)
 * or, with `inside`, below it (links are not followed: the sandbox binds what they are); undefined
 * when it may read all of it. The walk stops after READ_WALK_LIMIT entries.
 */
export function readProblem(target: string, reader: Reader, inside?: string): ReadProblem | undefined {
  let first: Omit<ReadProblem, 'closedAbove' | 'closedInside'> | undefined;
  const closedAbove: string[] = [];
  for (const dir of directoriesAbove(target)) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dir);
    } catch {
      // the server itself cannot look: the reader cannot either
      first ??= { path: dir, kind: 'directory', need: 'pass', mode: undefined };
      closedAbove.push(dir);
      continue;
    }
    if (allows(stat, dir, reader, 'pass')) continue;
    first ??= { path: dir, kind: 'directory', need: 'pass', mode: stat.mode & 0o7777 };
    closedAbove.push(dir);
  }
  const closed = firstClosedInside(target, reader, inside);
  if (closed) first ??= closed;
  return first ? { ...first, closedAbove, closedInside: closed !== undefined } : undefined;
}

/** The target, then (breadth first) the tree under `inside` (the target itself when it is not given). */
function firstClosedInside(target: string, reader: Reader, inside: string | undefined): Omit<ReadProblem, 'closedAbove' | 'closedInside'> | undefined {
  const closed = (full: string, stat: fs.Stats) => (allows(stat, full, reader, 'read') ? undefined : { path: full, kind: stat.isDirectory() ? ('directory' as const) : ('file' as const), need: 'read' as const, mode: stat.mode & 0o7777 });
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
  } catch {
    return undefined;
  }
  const self = closed(target, stat);
  if (self || inside === undefined) return self;
  const queue = [inside];
  let seen = 0;
  while (queue.length > 0 && seen < READ_WALK_LIMIT) {
    const dir = queue.shift() ?? '';
    let entries: fs.Dirent[];
    try {
      const own = fs.lstatSync(dir);
      if (!own.isDirectory()) return closed(dir, own);
      const problem = closed(dir, own);
      if (problem) return problem;
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      seen += 1;
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        queue.push(full);
        continue;
      }
      try {
        const problem = closed(full, fs.lstatSync(full));
        if (problem) return problem;
      } catch {
        // gone meanwhile: nothing to read
      }
    }
  }
  return undefined;
}

const modeText = (mode: number | undefined) => (mode === undefined ? '' : ` (mode ${mode.toString(8).padStart(4, '0')})`);

/**
 * How the problem reads after "… cannot be read by …: ", with the fix: one sentence each. `thing`
 * names the target in the fix ('the repository'), `then` what to do after it ('deploy again').
 */
export function describeReadProblem(problem: ReadProblem, target: string, reader: Reader, thing: string, then: string): string {
  const who = reader === 'server' ? "the server's user" : 'other users';
  const what = problem.need === 'pass' ? `a directory ${who} cannot pass through` : `a ${problem.kind} ${who} cannot read`;
  const where = `${problem.path} is ${what}${modeText(problem.mode)}.`;
  if (reader === 'server') return `${where} Give the server's user read access to ${target} and the directories above it, then ${then}.`;
  const commands = [...(problem.closedAbove.length > 0 ? [`chmod o+x ${problem.closedAbove.join(' ')}`] : []), ...(problem.closedInside ? [`chmod -R o+rX ${target}`] : [])];
  return `${where} Let other users pass through and read it (${commands.join(' && ')}), or move ${thing} to a directory they can read, then ${then}.`;
}
