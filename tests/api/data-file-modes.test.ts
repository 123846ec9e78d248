import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_DATABASE_DIRS } from '../../server/db/fileModes';
import { startTestServer, type TestDatabase } from '../support/server';

// Issue 36, item 5: the embedded databases' files (password hashes, every workspace's data) are
// the server user's alone. PGlite writes them 0666; after a start nothing under them is readable
// or writable by group or others, and the data directory keeps only the o+x the job sandbox needs.
// Always on PGlite, whatever TEST_DATABASE_URL says: these are PGlite's files.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-modes-'));
const database: TestDatabase = { url: undefined, dataDir, dispose: () => Promise.resolve() };
afterAll(() => fs.promises.rm(dataDir, { recursive: true, force: true }));

/** Every path under the embedded databases whose mode lets group or others in, with its mode. */
function exposed(): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    const stat = fs.lstatSync(at);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${path.relative(dataDir, at)} ${(stat.mode & 0o7777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(at)) walk(path.join(at, name));
  };
  for (const name of EMBEDDED_DATABASE_DIRS) walk(path.join(dataDir, name));
  return found;
}

function loosen(at: string): void {
  const stat = fs.lstatSync(at);
  if (stat.isSymbolicLink()) return;
  fs.chmodSync(at, stat.isDirectory() ? 0o777 : 0o666);
  if (stat.isDirectory()) for (const name of fs.readdirSync(at)) loosen(path.join(at, name));
}

async function startAndStop(): Promise<void> {
  const server = await startTestServer({ database });
  // the server writes as it serves, not only while it starts
  expect((await fetch(`${server.baseUrl}/api/openapi.json`)).status).toBe(200);
  await server.close();
}

describe('the data directory after a start', () => {
  it('holds a new database no one but the server user may read or write', async () => {
    await startAndStop();
    expect(fs.readdirSync(path.join(dataDir, 'pglite')).length).toBeGreaterThan(10);
    expect(exposed()).toEqual([]);
    expect(fs.statSync(dataDir).mode & 0o077).toBe(0);
  }, 180_000);

  it('takes group and other bits off the files of an older start (the WAL included), and leaves the sandbox its o+x', async () => {
    loosen(dataDir);
    // what ownProjectDir (server/runner/sandbox/outerUid.ts) gives the data directory for a workspace's uid
    fs.chmodSync(dataDir, 0o701);
    expect(exposed().some((entry) => entry.startsWith(path.join('pglite', 'pg_wal')))).toBe(true);
    await startAndStop();
    expect(exposed()).toEqual([]);
    expect((fs.statSync(dataDir).mode & 0o777).toString(8)).toBe('701');
  }, 180_000);
});
