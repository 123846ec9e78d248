import fs from 'node:fs';
import path from 'node:path';
import { checkResourcePath } from '../../src/domain/workspaceResources';
import type { Db } from '../db/database';
import { resourceChunks, ResourceChanged } from '../repositories/workspaceResources';
import { ProjectPathRefused, isInside, replaceFileInsideFrom } from '../security/projectFiles';
import { REPOSITORY_DIR } from './gitFetch';

// A workspace's files (its resources: uploads and the demo's seeded files) live in the database
// (workspace_resources), so every worker sees the same ones (issue 42). Before a pipeline job runs,
// they are written into its project on this worker at their paths, each with its recorded
// modification time: tap-files compares that time with its bookmark, so a second run on another
// worker is as incremental as on the first. A file this disk already holds with the same size and
// time is kept as it is (the disk is a cache of the database, keyed by those two).

/** A file the project holds as the database does, or the line saying why it was not placed. */
interface PlacedFiles {
  written: number;
  kept: number;
  refused: string[];
}

/** Paths the runner keeps for itself in a project: generated configuration and Meltano's own. */
const RUNNER_OWNED = new Set(['meltano.yml']);

/** Why a stored path may not be placed in a project (hidden folders are Meltano's and git's), or undefined. */
function refusal(stored: string): string | undefined {
  const checked = checkResourcePath(stored);
  if (!checked.ok || checked.path !== stored) return checked.ok ? 'is not in its normal form' : checked.message;
  if (RUNNER_OWNED.has(stored)) return 'is written by the runner for each job';
  if (stored.split('/').some((segment) => segment.startsWith('.'))) return 'is in a hidden folder or is a hidden file, which the runner keeps for itself';
  // the deployed commit is placed there as it is (deployedRepository.ts): a file must not change it
  if (stored.split('/')[0] === REPOSITORY_DIR) return 'is inside the folder of the deployed repository';
  return undefined;
}

/**
 * The directory `relative` inside `root`, made as needed, one real directory at a time: a link or
 * a file on the way (the workspace's own jobs write this project) is refused, never followed.
 */
function directoryInside(root: string, relative: string, made: (dir: string) => void): string {
  let at = root;
  for (const segment of relative.split('/').filter(Boolean)) {
    at = path.join(at, segment);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (!stat) {
      fs.mkdirSync(at, { mode: 0o755 });
      made(at);
    }
    else if (!stat.isDirectory()) throw new ProjectPathRefused(`${path.relative(root, at)} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}`);
  }
  // a directory swapped for a link after the walk would show here
  if (!isInside(fs.realpathSync(root), fs.realpathSync(at))) throw new ProjectPathRefused('leads outside the project directory');
  return at;
}

/** True when the project holds a regular file at `file` of this size and modification time. */
function holds(file: string, size: number, modified: Date): boolean {
  try {
    const stat = fs.lstatSync(file);
    // mtime, as tap-files reads it: mtimeMs is a float that can fall short of the millisecond written
    return stat.isFile() && stat.size === size && stat.mtime.getTime() === modified.getTime();
  } catch {
    return false;
  }
}

/**
 * Writes the workspace's files into `project` (the job's project directory on this worker).
 * The owner of the project directory (the workspace's uid when the server runs as root) owns
 * what is written, so the job can read and replace it as its own.
 */
export async function placeWorkspaceFiles(db: Db, workspaceId: string, project: string): Promise<PlacedFiles> {
  const files = await db.selectFrom('workspace_resources').select(['workspace_id', 'path', 'size', 'digest', 'last_modified']).where('workspace_id', '=', workspaceId).orderBy('path').execute();
  const placed: PlacedFiles = { written: 0, kept: 0, refused: [] };
  if (files.length === 0) return placed;
  fs.mkdirSync(project, { recursive: true });
  const owner = fs.lstatSync(project);
  const chown = (p: string) => {
    if (process.getuid?.() === 0) fs.lchownSync(p, owner.uid, owner.gid);
  };
  for (const file of files) {
    const why = refusal(file.path);
    if (why) {
      placed.refused.push(`${file.path.slice(0, 255)} ${why}`);
      continue;
    }
    // tap-files reads times to the millisecond; the database keeps microseconds
    const modified = new Date(Math.trunc(new Date(file.last_modified).getTime()));
    const folder = path.posix.dirname(file.path);
    const name = path.posix.basename(file.path);
    try {
      const dir = directoryInside(project, folder === '.' ? '' : folder, chown);
      const target = path.join(dir, name);
      if (holds(target, file.size, modified)) {
        placed.kept += 1;
        continue;
      }
      try {
        // a chunk at a time: a file of any size in constant memory
        await replaceFileInsideFrom(dir, name, resourceChunks(db, file));
      } catch (error) {
        if (!(error instanceof ResourceChanged)) throw error;
        placed.refused.push(`${file.path} was replaced or deleted while it was copied: this job runs without its newest version`);
        continue;
      }
      // never through a link the job may have put there meanwhile
      fs.lutimesSync(target, modified, modified);
      chown(target);
      placed.written += 1;
    } catch (error) {
      if (!(error instanceof ProjectPathRefused)) throw error;
      placed.refused.push(`${file.path} ${error.message}`);
    }
  }
  return placed;
}
