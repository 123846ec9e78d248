// Whether a build output is current: a build records a fingerprint (a hash of the contents of the
// files it was made from) and a later start compares it with the files as they are now. Contents,
// not modification times: a checkout or a copy touches every file without changing one.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where the fingerprints of the last builds are kept (ignored by git). */
const STAMP_DIR = '.build-stamps';

/** What a build was made from: one hash over the files, and the files themselves so the next check hashes the same set. */
interface Stamp {
  fingerprint: string;
  files: string[];
}

/** Every file under the given files and folders (relative to `root`), sorted, leaving out what `skip` names. */
export function listInputs(root: string, entries: readonly string[], skip: (file: string) => boolean = () => false): string[] {
  const files: string[] = [];
  for (const entry of entries) {
    const absolute = path.join(root, entry);
    if (!fs.existsSync(absolute)) continue;
    if (fs.statSync(absolute).isDirectory()) {
      for (const name of fs.readdirSync(absolute, { recursive: true, encoding: 'utf8' })) {
        const file = path.join(entry, name);
        if (!skip(file) && fs.statSync(path.join(root, file)).isFile()) files.push(file);
      }
    } else if (!skip(entry)) files.push(entry);
  }
  return [...new Set(files)].sort();
}

/** One hash over the names and contents of `files` (relative to `root`) and `extra` (the build's own settings); a missing file counts as a change. */
export function fingerprint(root: string, files: readonly string[], extra: string): string {
  const hash = createHash('sha256').update(extra).update('\0');
  for (const file of files) {
    hash.update(file).update('\0');
    try {
      hash.update(fs.readFileSync(path.join(root, file)));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp(root: string, name: string): Stamp | undefined {
  try {
    const stamp = JSON.parse(fs.readFileSync(path.join(root, STAMP_DIR, `${name}.json`), 'utf8')) as Partial<Stamp>;
    return typeof stamp.fingerprint === 'string' && Array.isArray(stamp.files) ? { fingerprint: stamp.fingerprint, files: stamp.files.map(String) } : undefined;
  } catch {
    return undefined; // never built here, or a stamp from an older format: build again
  }
}

export function writeStamp(root: string, name: string, stamp: Stamp): void {
  const dir = path.join(root, STAMP_DIR);
  fs.mkdirSync(dir, { recursive: true });
  // written aside and renamed, so a concurrent reader sees the old stamp or the new one, never half
  const temporary = path.join(dir, `.${name}.${process.pid}.json`);
  fs.writeFileSync(temporary, `${JSON.stringify(stamp)}\n`);
  fs.renameSync(temporary, path.join(dir, `${name}.json`));
}

/**
 * True when the outputs exist and the inputs hash to what they did at the last build: `files` when
 * the inputs are a set of folders listed again now (a new file is a change), else the stamp's own
 * list (the exact modules a bundle was made of, from its metafile).
 */
export function isCurrent(root: string, name: string, extra: string, outputs: readonly string[], files?: readonly string[]): boolean {
  if (!outputs.every((output) => fs.existsSync(path.join(root, output)))) return false;
  const stamp = readStamp(root, name);
  return stamp !== undefined && fingerprint(root, files ?? stamp.files, extra) === stamp.fingerprint;
}
