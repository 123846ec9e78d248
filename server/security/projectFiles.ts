import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// Files of a workspace's project as the server reads and writes them. A project is written by the
// workspace's own code (a clone, a pipeline script), so any path in it may be a symbolic link
// planted to lead out — to /etc/passwd, the data directory or another workspace's project. The
// server only ever reads a regular file whose real path is inside the project, and writes by
// replacing a directory entry, never through one.

/** A path of the project the server will not use, with why (said in a job log or a problem line). */
export class ProjectPathRefused extends Error {}

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG']);

/** True when `target` is `root` or below it (both absolute and already real). */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

/**
 * The real path of `entry` (relative to `root`, or absolute) when it exists and stays inside the
 * real `root` after every symbolic link is followed; ProjectPathRefused otherwise.
 */
export function realPathInside(root: string, entry: string): string {
  const realRoot = fs.realpathSync(root);
  const candidate = path.resolve(realRoot, entry);
  // Outside by its very spelling: refused before the file system is asked, so the answer never
  // says whether something exists out there.
  if (!isInside(realRoot, candidate)) throw new ProjectPathRefused('leads outside the project directory');
  let real: string;
  try {
    real = fs.realpathSync(candidate);
  } catch (error) {
    if (MISSING.has((error as NodeJS.ErrnoException).code ?? '')) throw new ProjectPathRefused('does not exist');
    throw error;
  }
  if (!isInside(realRoot, real)) throw new ProjectPathRefused('leads outside the project directory');
  return real;
}

/**
 * Reads a regular file of the project. The last component is opened without following a link
 * (O_NOFOLLOW), and the file actually opened is checked to be inside the project through
 * /proc/self/fd, so a directory swapped for a link between the check and the open is caught too.
 */
export function readFileInside(root: string, relative: string, maxBytes: number): Buffer {
  const realRoot = fs.realpathSync(root);
  const file = path.resolve(realRoot, relative);
  if (!isInside(realRoot, file)) throw new ProjectPathRefused('leads outside the project directory');
  // Where /proc cannot tell what was opened, the directories on the way are checked before.
  if (!isInside(realRoot, fs.realpathSync(path.dirname(file)))) throw new ProjectPathRefused('leads outside the project directory');
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ProjectPathRefused('is a symbolic link; only regular files are read');
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new ProjectPathRefused('is not a regular file');
    const opened = openedPath(fd);
    if (opened !== undefined && !isInside(realRoot, opened)) throw new ProjectPathRefused('leads outside the project directory');
    if (stat.size > maxBytes) throw new Error(`is larger than ${maxBytes} bytes`);
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = fs.readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/** Where an open file really is (Linux); undefined where /proc is not there to say. */
function openedPath(fd: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Replaces `name` in `dir` with `body` atomically: a fresh temporary file created exclusively (so
 * a link planted in its place fails the create instead of being written through), then renamed
 * over the entry — which replaces a link planted as `name` rather than following it.
 */
export function replaceFileInside(dir: string, name: string, body: string | Buffer): void {
  const { fd, commit, abandon } = temporaryFileInside(dir, name);
  try {
    fs.writeFileSync(fd, body);
  } catch (error) {
    abandon();
    throw error;
  }
  commit();
}

/** As replaceFileInside, with the bytes written as they come: a file of any size in constant memory. */
export async function replaceFileInsideFrom(dir: string, name: string, chunks: AsyncIterable<Buffer>): Promise<void> {
  const { fd, commit, abandon } = temporaryFileInside(dir, name);
  try {
    for await (const chunk of chunks) {
      for (let at = 0; at < chunk.length; ) at += fs.writeSync(fd, chunk, at);
    }
  } catch (error) {
    abandon();
    throw error;
  }
  commit();
}

/** A temporary file beside `name` in `dir`, open for writing: renamed over `name` or removed. */
function temporaryFileInside(dir: string, name: string): { fd: number; commit: () => void; abandon: () => void } {
  if (name !== path.basename(name) || name === '.' || name === '..') throw new ProjectPathRefused(`${name} is not a file name`);
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) throw new ProjectPathRefused(`${dir} is not a directory`);
  const temporary = path.join(dir, `.${name}.${randomBytes(8).toString('hex')}.tmp`);
  const fd = fs.openSync(temporary, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o644);
  return {
    fd,
    abandon: () => {
      fs.closeSync(fd);
      fs.rmSync(temporary, { force: true });
    },
    commit: () => {
      fs.closeSync(fd);
      try {
        fs.renameSync(temporary, path.join(dir, name));
      } catch (error) {
        fs.rmSync(temporary, { force: true });
        throw error;
      }
    },
  };
}
