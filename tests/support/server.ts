import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildServer, type AppServer } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Db } from '../../server/db/database';

/**
 * A real server on a real database for API tests: PGlite by default, or a fresh database created on
 * the PostgreSQL server named by TEST_DATABASE_URL (dropped again afterwards).
 */
export interface TestDatabase {
  /** PostgreSQL connection string, or undefined for PGlite */
  url: string | undefined;
  /** PGlite directory ('memory://' unless persistent) */
  dataDir: string;
  dispose(): Promise<void>;
}

interface TestDatabaseOptions {
  /** keep the data on disk (PGlite) so that a second server can open it after a restart */
  persistent?: boolean;
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      dataDir: 'memory://',
      dispose: () => withAdmin(adminUrl, dropDatabase(name)),
    };
  }
  if (options.persistent) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-test-'));
    return { url: undefined, dataDir, dispose: () => fs.promises.rm(dataDir, { recursive: true, force: true }) };
  }
  return { url: undefined, dataDir: 'memory://', dispose: () => Promise.resolve() };
}

/**
 * Drops a scratch database and then the workspace roles made for it: roles are cluster-wide, and
 * their names end with a digest of their database's name (server/stores/storeRole.ts).
 */
export function dropDatabase(name: string): (client: pg.Client) => Promise<void> {
  return async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const { rows } = await client.query<{ rolname: string }>(`SELECT rolname FROM pg_roles WHERE rolname ~ '^ws_[0-9a-f]{32}_' AND right(rolname, 8) = left(md5($1), 8)`, [name]);
    for (const { rolname } of rows) await client.query(`DROP ROLE IF EXISTS "${rolname}"`);
  };
}

/** One short-lived connection to a PostgreSQL server (creating and dropping scratch databases). */
export async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface TestServer {
  baseUrl: string;
  port: number;
  config: Config;
  db: Db;
  server: AppServer;
  /** closes the server and the database connection; disposes the database unless it was passed in */
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** an existing test database (then it is not disposed on close: the caller owns it) */
  database?: TestDatabase;
  /** listen on this port (e.g. the port of a server that was just closed, to keep its issuer) */
  port?: number;
  /** extra environment for loadConfig */
  env?: Record<string, string>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase());
  const ownsDatabase = options.database === undefined;
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: database.dataDir === 'memory://' ? os.tmpdir() : database.dataDir,
    STATIC_DIR: path.join(os.tmpdir(), 'no-spa-in-api-tests'),
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    // an answer written as JSON text must pass its response schema, as the serialiser's answers do
    CHECK_TEXT_ANSWERS: 'true',
    ...options.env,
  });
  const handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
  let server: AppServer | undefined;
  try {
    server = await buildServer({ config, db: handle.db, logger: false });
    await server.app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    await server?.close();
    await handle.close();
    if (ownsDatabase) await database.dispose();
    throw error;
  }
  const running = server;
  return {
    baseUrl,
    port,
    config,
    db: handle.db,
    server: running,
    async close() {
      await running.close();
      await handle.close();
      if (ownsDatabase) await database.dispose();
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
