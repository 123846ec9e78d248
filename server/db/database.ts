import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely';
import pg from 'pg';
import { protectDataFiles } from './fileModes';
import { pglitePool } from './pglite-pool';
import { preparedStatementPool, type HeldClients } from './prepared-pool';
import { installedVersion, readTemplate, saveTemplate, templateKey } from './memoryTemplate';
import { migrations } from './migrations';
import { moveStoresApart } from './moveStores';
import type { Database } from './schema';
import { initialiseCluster, openEmbeddedStores, storeDbOf } from './storeDatabase';
import { parseTimestamptz } from './timestamps';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

interface DatabaseOptions {
  /** PostgreSQL connection string; without it the embedded PGlite is used */
  url?: string | undefined;
  /** where PGlite keeps its files; 'memory://' for a throw-away database */
  dataDir: string;
  /** told when an idle PostgreSQL connection fails (server restart, admin kill) */
  onConnectionError?: (error: Error) => void;
}

// node-postgres returns bigint (count(*)) as text; our counts fit in a JS number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

/** One data layer over either database; migrations are applied before it is handed out. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.url ? openPostgres(options.url, options.onConnectionError) : await openPglite(options.dataDir);
  try {
    await migrate(handle.db);
    // on PGlite the workspaces' stores live in a database of their own (storeDatabase.ts)
    if (handle.kind === 'pglite') await moveStoresApart(handle.db, storeDbOf(handle.db));
    // the files the start itself wrote (a new cluster, migrations' relations, WAL) lose their
    // group and other bits too; later ones sit in directories only the server's user enters
    if (handle.kind === 'pglite') protectDataFiles(options.dataDir);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

function openPostgres(url: string, onConnectionError: (error: Error) => void = () => undefined): DatabaseHandle {
  // maxUses recycles a connection now and then, so the statements it keeps prepared stay few.
  // jit off: the app's statements are short, and a misestimated join (search's word sets) can
  // cost the planner's JIT more than a second of compiling for a query that runs in milliseconds.
  const pool = new pg.Pool({ connectionString: url, max: 10, maxUses: 10_000, options: '-c jit=off' });
  // An idle connection that dies must not crash the process: the pool drops it and the next
  // query opens a new one (a query in flight fails on its own and is answered with a 500).
  pool.on('error', onConnectionError);
  const held: HeldClients = new Map();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparedStatementPool(pool, held) }) });
  heldClients.set(db, held);
  postgresUrls.set(db, url);
  return { db, kind: 'postgres', close: () => db.destroy() };
}

const heldClients = new WeakMap<Db, HeldClients>();
const postgresUrls = new WeakMap<Db, string>();

/**
 * Where the app's PostgreSQL listens (its URL, password included: for the server's own use only),
 * for the runner's store proxy, which opens sessions there as a workspace's loading role
 * (server/runner/warehouse/storeProxy.ts); undefined on PGlite.
 */
export function postgresUrlOf(db: Db): string | undefined {
  return postgresUrls.get(db);
}

/**
 * The node-postgres client of the connection whose backend is `pid`, while a caller of `db` holds
 * it (PostgreSQL only; undefined on PGlite). For the one reader Kysely cannot serve: a CSV export
 * streamed by COPY inside the store session's own transaction (server/stores/csvCopy.ts). The
 * caller must hold that connection itself (the pid comes from its own transaction).
 */
export function heldPostgresClient(db: Db, pid: number): pg.PoolClient | undefined {
  const client = heldClients.get(db)?.get(pid);
  return client && (client as { processID?: number }).processID === pid ? client : undefined;
}

/**
 * PGlite's shared buffers. PostgreSQL's default (128 MB) sits inside the WebAssembly memory, which
 * never shrinks, so the embedded server's memory grew to it and stayed; its files are read through
 * Node's file system, which the operating system caches anyway. Set on the command line of the
 * embedded backend, so the data directory's postgresql.conf stays as it is.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith('memory://');
  const dir = inMemory ? dataDir : path.join(dataDir, 'pglite');
  if (!inMemory) {
    // the server user's alone, before PGlite opens anything (fileModes.ts)
    protectDataFiles(dataDir);
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await initialiseCluster(dir);
  }
  // Imported here, not at the top: on PostgreSQL the embedded database is never loaded (about 20 MB).
  const [pglite, { pg_trgm }, { fuzzystrmatch }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/fuzzystrmatch'),
  ]);
  const startParams = [...pglite.PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  // A throw-away database (tests, Stryker) starts from a dump of a migrated one, made once per
  // machine and set of migrations: initdb and 34 migrations in WebAssembly took 11.5 s an open.
  const key = inMemory ? templateKey({ pglite: installedVersion('@electric-sql/pglite'), kysely: installedVersion('kysely') }, migrations) : '';
  const template = inMemory ? await readTemplate(key) : undefined;
  const pgl = await pglite.PGlite.create(dir, { extensions: { pg_trgm, fuzzystrmatch }, startParams, ...(template && { loadDataDir: template }) });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pglitePool(pgl, pglite) }) });
  if (inMemory && !template) {
    // the first throw-away database on this machine for these migrations: kept for the next ones
    await migrate(db);
    // only a speed-up: a dump that cannot be kept (a full disk, a name another user holds) is skipped
    await saveTemplate(key, await pgl.dumpDataDir('none')).catch(() => undefined);
  }
  const stores = await openEmbeddedStores(db, dataDir).catch(async (error: unknown) => {
    await pgl.close();
    throw error;
  });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await stores.close();
      await db.destroy();
      await pgl.close();
    },
  };
}

async function migrate(db: Db): Promise<void> {
  // Two processes starting together on a fresh database would both create the extensions (and
  // one fail on the catalogue's unique index): one at a time, under a transaction-scoped lock.
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('workspace-extensions'))`.execute(trx);
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(trx);
    await sql`CREATE EXTENSION IF NOT EXISTS fuzzystrmatch`.execute(trx);
  });
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}
