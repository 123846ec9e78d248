import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import type { Db } from './database';
import { installedVersion, isOwnTemplate } from './memoryTemplate';
import type { Database } from './schema';
import { storeWorkerPool, type StoreWorkerPool } from './storeWorkerPool';

// Where the workspaces' default stores live. On PostgreSQL: schemas of the app's own database, as
// ever (statement_timeout and pg_cancel_backend end a tenant's statement there). On the embedded
// PGlite: schemas of a database of their own, under DATA_DIR/stores, held by a worker thread
// (storeWorkerPool.ts) that is ended when a tenant's statement passes its deadline — PGlite cannot
// interrupt a statement, and in the server's thread one statement held every request
// (docs/decisions.md, "The embedded database never stalls the server").
//
// Every reader and writer of a store asks `storeDbOf(db)` for it with the app's handle (or one of
// its transactions) in hand, so no caller has to carry a second handle.

/** The stores' database, typed as the app's so the stores' raw-SQL helpers serve both; it holds none of the app's tables. */
export type StoreDb = Db;

interface EmbeddedStores {
  db: StoreDb;
  pool: StoreWorkerPool;
}

/**
 * Stores apart from the app's database, by the app handle's adapter: a Kysely instance and every
 * transaction it opens share their adapter object, so `storeDbOf(trx)` finds them too.
 */
const apart = new WeakMap<object, EmbeddedStores>();

const keyOf = (db: Db): object => db.getExecutor().adapter;

/** The database holding the workspaces' stores: `db` itself on PostgreSQL, the worker's on PGlite. */
export function storeDbOf(db: Db): StoreDb {
  return apart.get(keyOf(db))?.db ?? db;
}

/** Whether the stores live in a database of their own (the embedded PGlite). */
export function storesApart(db: Db): boolean {
  return apart.has(keyOf(db));
}

/**
 * Ends the statement the stores' thread is running now, if any (embedded only; false on
 * PostgreSQL, where the caller cancels by pg_cancel_backend). Only the caller holding the store's
 * session may call it: the statement in flight is then its own.
 */
export function interruptStoreStatement(db: Db, reason?: Error): boolean {
  return apart.get(keyOf(db))?.pool.interrupt(reason) ?? false;
}

/** How many statements `interruptStoreStatement` has ended (embedded only; 0 on PostgreSQL). */
export function storeInterruptions(db: Db): number {
  return apart.get(keyOf(db))?.pool.interruptions ?? 0;
}

/**
 * Waits until the stores' thread has opened its directory (embedded only): after a tenant's
 * statement was ended, a new thread takes from under a second to several on a loaded host, and
 * that wait is not the next tenant's statement time.
 */
export async function storeThreadReady(db: Db): Promise<void> {
  await apart.get(keyOf(db))?.pool.ready();
}

/** PGlite's shared buffers in the stores' thread: the app's own setting (database.ts). */
const SHARED_BUFFERS = '16MB';
/** The stores' thread ends after this long without a statement (its WebAssembly heap goes with it). */
const IDLE_MS = 120_000;

interface OpenedStores {
  db: StoreDb;
  pool: StoreWorkerPool;
  close(): Promise<void>;
}

/**
 * Opens the embedded stores' database beside the app's: `<dataDir>/stores`, created on first
 * start; for a throw-away app database ('memory://', the tests) a fresh copy of an empty cluster
 * in a temporary directory, removed on close (an in-memory database would not outlive the thread
 * that an overrun ends).
 */
export async function openEmbeddedStores(appDb: Db, dataDir: string): Promise<OpenedStores> {
  const temporary = dataDir.startsWith('memory://');
  const dir = temporary ? await freshCopy() : path.join(dataDir, 'stores');
  if (!temporary) {
    // 0700, as the app's database (fileModes.ts)
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await initialiseCluster(dir);
  }
  const pool = storeWorkerPool({ dir, sharedBuffers: SHARED_BUFFERS, idleMs: IDLE_MS });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  apart.set(keyOf(appDb), { db, pool });
  return {
    db,
    pool,
    close: async () => {
      apart.delete(keyOf(appDb));
      await db.destroy();
      if (temporary) await fs.promises.rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Creates a new PGlite cluster (initdb) in a child process. Done in this process, initdb's own
 * WebAssembly instance and the memory it filled (several hundred MB) stayed behind as garbage the
 * idle server never collected, so a first start sat at twice the memory of every later one; in a
 * child they end with it. The child loads the very package this process resolves.
 */
export async function initialiseCluster(dir: string): Promise<void> {
  const script = 'const { PGlite } = await import(process.argv[1]); const db = await PGlite.create(process.argv[2]); await db.close();';
  const child = spawn(process.execPath, ['--input-type=module', '--eval', script, import.meta.resolve('@electric-sql/pglite'), dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`Could not create the embedded database in ${dir} (exit ${code}): ${stderr.trim()}`);
}

/**
 * An empty cluster copied from a template made once per machine and PGlite version (initdb takes
 * 3-6 s, a copy of its 40 MB well under one): each test server gets its own stores' database.
 */
async function freshCopy(): Promise<string> {
  const version = installedVersion('@electric-sql/pglite');
  const template = path.join(os.tmpdir(), `workspace-stores-template-${version}-${process.getuid?.() ?? 0}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-stores-'));
  if (fs.existsSync(template) && !isOwnTemplate(template)) {
    // planted by another user: never copied, and never replaced (it is theirs)
    await initialiseCluster(dir);
    return dir;
  }
  if (!fs.existsSync(path.join(template, 'PG_VERSION'))) {
    // made aside and renamed into place: two processes making it at once both end with a whole one
    const making = fs.mkdtempSync(`${template}.making-`);
    try {
      await initialiseCluster(making);
      fs.renameSync(making, template);
    } catch (error) {
      fs.rmSync(making, { recursive: true, force: true });
      if (!fs.existsSync(path.join(template, 'PG_VERSION'))) throw error;
    }
  }
  await fs.promises.cp(template, dir, { recursive: true });
  return dir;
}
