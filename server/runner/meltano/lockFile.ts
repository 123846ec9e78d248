import fs from 'node:fs';
import os from 'node:os';

// A lock between processes of one machine, for work on a shared directory (the runner's cache): a
// file created with O_EXCL that names its holder. A holder that died (its pid gone on this host)
// or that has held it past `staleMs` no longer counts, so a crash never wedges the cache.

const POLL_MS = 500;

interface Holder {
  host: string;
  pid: number;
  since: number;
}

function readHolder(file: string): Holder | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

function alive(holder: Holder | undefined, staleMs: number): boolean {
  if (!holder || typeof holder.pid !== 'number') return false;
  if (Date.now() - holder.since > staleMs) return false;
  if (holder.host !== os.hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

/** Runs `work` holding the lock `file`; `onWait` is called once if another holder makes it wait. */
export async function withLockFile<T>(file: string, onWait: () => void, work: () => Promise<T>, staleMs = 30 * 60_000): Promise<T> {
  let waited = false;
  for (;;) {
    try {
      const fd = fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o644);
      fs.writeSync(fd, JSON.stringify({ host: os.hostname(), pid: process.pid, since: Date.now() } satisfies Holder));
      fs.closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // a dead holder's lock goes; a file just created (its holder still writing it) is given time
    if (!alive(readHolder(file), staleMs) && ageMs(file) > POLL_MS) {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (!waited) onWait();
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return await work();
  } finally {
    fs.rmSync(file, { force: true });
  }
}
