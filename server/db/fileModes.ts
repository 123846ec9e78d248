import fs from 'node:fs';
import path from 'node:path';

// The embedded databases' files hold every account's password hash and every workspace's data:
// they are the server user's alone (issue 36). PGlite (Emscripten's NODEFS) writes its files with
// mode 0666 whatever the process umask says, so a umask cannot fix them: the directories are made
// 0700, which keeps every other user out of whatever is created in them later, and the files there
// already lose their group and other bits at each start (docs/decisions.md, "Identity and files,
// issue 36").

/** The embedded databases under the data directory: the app's and the workspaces' stores. */
export const EMBEDDED_DATABASE_DIRS = ['pglite', 'stores'] as const;

/**
 * The data directory itself: neither readable nor writable by group or others. Others keep the x
 * (passable, not listable) that the job sandbox gives it so a workspace's uid reaches its project
 * directory (server/runner/sandbox/outerUid.ts); group keeps nothing.
 */
function protectDataDir(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  const mode = fs.statSync(dataDir).mode & 0o7777;
  const wanted = (mode & 0o001) | 0o700;
  if (mode !== wanted) fs.chmodSync(dataDir, wanted);
}

/** A database directory (created 0700 if missing) and everything in it: owner only. */
function ownerOnly(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const walk = (at: string) => {
    // lstat, never following a link: a link's target is not ours to change
    const stat = fs.lstatSync(at);
    if (stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o7777;
    const wanted = stat.isDirectory() ? (mode & ~0o077) | 0o700 : mode & ~0o077;
    if (mode !== wanted) fs.chmodSync(at, wanted);
    if (stat.isDirectory()) for (const name of fs.readdirSync(at)) walk(path.join(at, name));
  };
  walk(dir);
}

/** The data directory and its embedded databases, as above; nothing for a throw-away ('memory://') one. */
export function protectDataFiles(dataDir: string): void {
  if (dataDir.startsWith('memory://')) return;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  protectDataDir(dataDir);
  for (const name of EMBEDDED_DATABASE_DIRS) ownerOnly(path.join(dataDir, name));
}
