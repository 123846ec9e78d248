import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { PostgresConnection } from '../../src/domain/dataStores';
import { copyInPool } from '../db/copyIn';
import type { Db } from '../db/database';
import { decideHost, type AllowList, type Lookup } from '../security/netPolicy';

// An external PostgreSQL data store: its connection (used by target-postgres in a job) and its
// connection check (run by the runner as a DATASTORE_VERIFY job). Every connection has a connect
// timeout and a statement timeout, so an unreachable or stalled server ends the job, never hangs it.
// The server's own connections obey the network policy (server/security/netPolicy.ts) and say
// one thing of every failure to connect (STORE_UNREACHABLE).

const CONNECT_TIMEOUT_MS = 10_000;
const STATEMENT_TIMEOUT_MS = 60_000;

function clientConfig(c: PostgresConnection): pg.ClientConfig {
  return {
    host: c.host,
    port: c.port,
    database: c.database,
    user: c.user,
    password: c.password,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: 'workspace-data-store',
  };
}

/** A query builder over the store (one connection: a loader writes in order). Destroy it when done. */
export function openPostgresStore(c: PostgresConnection): Db {
  return new Kysely({ dialect: new PostgresDialect({ pool: copyInPool(new pg.Pool({ ...clientConfig(c), max: 1 })) }) });
}

/** What a user is told of any failure to connect, whatever it was: a check is no port scanner. */
export const STORE_UNREACHABLE = 'Could not connect to the data store.';

/**
 * A failure to reach the store: its message is always STORE_UNREACHABLE; `detail` (refused by the
 * network policy, ECONNREFUSED, a timeout, an authentication failure) goes to the server log only.
 */
export class StoreUnreachable extends Error {
  constructor(readonly detail: string) {
    super(STORE_UNREACHABLE);
  }
}

export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The connection with its host replaced by the address the network policy checked, so the
 * connection goes where the check looked (no second DNS answer); StoreUnreachable when refused.
 */
export async function pinnedConnection(c: PostgresConnection, allowed: AllowList, lookup?: Lookup): Promise<PostgresConnection> {
  const decision = await withTimeout(decideHost(c.host, allowed, lookup), CONNECT_TIMEOUT_MS, `${c.host} was not resolved in time`).catch((error: unknown) => {
    throw new StoreUnreachable(error instanceof Error ? error.message : String(error));
  });
  if (!decision.allowed) throw new StoreUnreachable(`refused by the network policy: ${decision.reason}`);
  return { ...c, host: decision.address };
}

interface StoreCheckOptions {
  /** private hosts the server may connect to for a workspace (STORE_ALLOWED_HOSTS) */
  allowedHosts: AllowList;
  /** a line of the check's job log */
  report: (line: string) => void;
  lookup?: Lookup;
}

/**
 * Connects (to the address the network policy allowed), reads the server's version, and makes
 * sure the store's schema exists and can take new tables — what a loader will need. Any failure
 * before the server accepted the login throws StoreUnreachable; after it, the server's own reason
 * (it comes from a server the user can log in to, so it tells them nothing they could not ask it).
 */
export async function checkPostgresStore(c: PostgresConnection, options: StoreCheckOptions): Promise<void> {
  const { report } = options;
  report(`Connecting to ${c.host}:${c.port}, database ${c.database}, as ${c.user}${c.password ? ' (with a password)' : ''}.`);
  const pinned = await pinnedConnection(c, options.allowedHosts, options.lookup);
  const client = new pg.Client(clientConfig(pinned));
  let lost: Error | undefined;
  // A connection dropped by the server surfaces as an 'error' event; without a listener it would crash the process.
  client.on('error', (error) => (lost = error));
  try {
    try {
      await client.connect();
    } catch (error) {
      throw new StoreUnreachable(error instanceof Error ? error.message || error.name : String(error));
    }
    const version = await client.query<{ version: string; user: string }>('SELECT version() AS version, current_user AS user');
    report(`Connected: ${version.rows[0]?.version ?? 'PostgreSQL'}, as ${version.rows[0]?.user ?? c.user}.`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${client.escapeIdentifier(c.schema)}`);
    const privilege = await client.query<{ ok: boolean }>('SELECT has_schema_privilege($1, \'CREATE\') AS ok', [c.schema]);
    if (!privilege.rows[0]?.ok) throw new Error(`user ${c.user} may not create tables in schema ${c.schema}`);
    report(`Schema ${c.schema} is ready for tables.`);
  } catch (error) {
    throw lost && !(error instanceof StoreUnreachable) ? new Error(`the connection was lost: ${lost.message}`) : error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
