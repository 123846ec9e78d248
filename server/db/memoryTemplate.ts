import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Migration } from 'kysely';

// A throw-away database ('memory://': the test servers and the benchmarks) starts from a dump of
// one made once per machine: initdb in WebAssembly and every migration take 10 to 15 s, loading the
// dump under one. The dump is named by what decides its contents, so a changed migration or another
// PGlite makes a new one rather than reusing a stale one. Migrations import nothing but kysely
// (migrations/index.ts), so their own text, with the two packages' versions, says what they do.

/** The version of an installed package, from the package.json above its resolved entry. */
export function installedVersion(name: string): string {
  let dir = path.dirname(new URL(import.meta.resolve(name)).pathname);
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (json.name === name && json.version) return json.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json of ${name} above its entry`);
    dir = parent;
  }
}

/** A digest of everything a migrated database's contents follow from. */
export function templateKey(versions: { pglite: string; kysely: string }, migrations: Record<string, Migration>): string {
  const parts = Object.entries(migrations).map(([name, m]) => [name, m.up.toString(), m.down?.toString() ?? '']);
  return createHash('sha256').update(JSON.stringify([versions.pglite, versions.kysely, parts])).digest('hex').slice(0, 16);
}

export function templateFile(key: string): string {
  return path.join(os.tmpdir(), `workspace-app-template-${process.getuid?.() ?? 0}-${key}.tar`);
}

/**
 * Whether a template in the temporary directory is this user's own and nobody else may write it:
 * the directory is anyone's to write in, so another user could plant one under the expected name.
 */
export function isOwnTemplate(file: string): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && stat.uid === (process.getuid?.() ?? stat.uid) && (stat.mode & 0o022) === 0;
}

/** The dump named `key`, if this user made one. */
export async function readTemplate(key: string): Promise<Blob | undefined> {
  const file = templateFile(key);
  return isOwnTemplate(file) ? fs.openAsBlob(file) : undefined;
}

/** Keeps a dump as `key`'s template: written aside and renamed, so a reader never sees half of one. */
export async function saveTemplate(key: string, dump: Blob): Promise<void> {
  const file = templateFile(key);
  const making = `${file}.${process.pid}.making`;
  try {
    await fs.promises.writeFile(making, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    await fs.promises.rename(making, file);
  } finally {
    await fs.promises.rm(making, { force: true });
  }
}
