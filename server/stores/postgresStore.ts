import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { PostgresConnection } from '../../src/domain/dataStores';
import type { Db } from '../db/database';

// An external PostgreSQL data store: its connection (used by target-postgres in a job) and its
// connection check (run by the runner as a DATASTORE_VERIFY job). Every connection has a connect
// timeout and a statement timeout, so an unreachable or stalled server ends the job, never hangs it.

export const CONNECT_TIMEOUT_MS = 10_000;
export const STATEMENT_TIMEOUT_MS = 60_000;

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
  return new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...clientConfig(c), max: 1 }) }) });
}

/**
 * Connects, reads the server's version, and makes sure the store's schema exists and can take
 * new tables — what a loader will need. Each step reports a line; a failure throws with the
 * server's own reason.
 */
export async function checkPostgresStore(c: PostgresConnection, report: (line: string) => void): Promise<void> {
  report(`Connecting to ${c.host}:${c.port}, database ${c.database}, as ${c.user}${c.password ? ' (with a password)' : ''}.`);
  const client = new pg.Client(clientConfig(c));
  // A connection dropped by the server after connecting surfaces as an 'error' event; without a listener it would crash the process.
  client.on('error', (error) => report(`Connection error: ${error.message}`));
  try {
    await client.connect();
    const version = await client.query<{ version: string; user: string }>('SELECT version() AS version, current_user AS user');
    report(`Connected: ${version.rows[0]?.version ?? 'PostgreSQL'}, as ${version.rows[0]?.user ?? c.user}.`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${client.escapeIdentifier(c.schema)}`);
    const privilege = await client.query<{ ok: boolean }>('SELECT has_schema_privilege($1, \'CREATE\') AS ok', [c.schema]);
    if (!privilege.rows[0]?.ok) throw new Error(`user ${c.user} may not create tables in schema ${c.schema}`);
    report(`Schema ${c.schema} is ready for tables.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

