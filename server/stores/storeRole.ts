import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database';
import { up as revokePublicRights } from '../db/migrations/019_query_roles';
import { storeDbOf, storesApart } from '../db/storeDatabase';
import { isUuid } from '../repositories/ids';

// The database role a workspace's SQL runs as (dataset queries, previews, exports, alert rules):
// NOLOGIN, no superuser, no inherited rights, USAGE on its own store schema and SELECT on that
// schema's tables, including tables created later (default privileges of the role that creates
// them, the server's own). The runner switches to it with SET LOCAL ROLE inside the READ ONLY
// transaction, so even SQL that got past the guard reads nothing else (docs/decisions.md).
//
// Roles are cluster-wide on PostgreSQL while schemas belong to one database: the name carries a
// digest of the database's name, so two databases on one cluster (two installs, or the tests'
// many databases) never share a role, and dropping a database leaves its roles free to drop.

/**
 * The default store is a schema, one per workspace: of the application's own database on
 * PostgreSQL, of the stores' own database on PGlite (server/db/storeDatabase.ts). Only the server
 * process opens it; loaders reach it through the runner's bridge (decisions.md).
 */
export function storeSchemaName(workspaceId: string): string {
  if (!isUuid(workspaceId)) throw new Error('A workspace id is a UUID');
  return `ws_${workspaceId.toLowerCase().replace(/-/g, '')}`;
}

/** Roles known to exist by workspace id, per database handle: the common path costs no query. */
const known = new WeakMap<Db, Map<string, string>>();

/**
 * The stores' own database (PGlite) gets what migration 019 does to the app's: no set_config,
 * advisory locks or NOTIFY for PUBLIC, nothing in the public schema. Once per handle, before its
 * first role is made (idempotent: REVOKE and GRANT of what is already so change nothing).
 */
const hardening = new WeakMap<Db, Promise<void>>();
function hardened(stores: Db): Promise<void> {
  let done = hardening.get(stores);
  if (!done) {
    done = revokePublicRights(stores as unknown as Kysely<unknown>);
    hardening.set(stores, done);
    done.catch(() => hardening.delete(stores));
  }
  return done;
}

/** `ws_<workspace hex>_<8 hex of md5(current_database())>`: 44 characters, under PostgreSQL's 63. */
export function storeRoleName(workspaceId: string, databaseTag: string): string {
  if (!/^[0-9a-f]{8}$/.test(databaseTag)) throw new Error('A database tag is 8 hex digits');
  return `${storeSchemaName(workspaceId)}_${databaseTag}`;
}

/** The SQL expression of this database's tag, for statements that name the role themselves. */
export const DATABASE_TAG = sql<string>`left(md5(current_database()), 8)`;

async function databaseTag(db: Db): Promise<string> {
  const { rows } = await sql<{ tag: string }>`SELECT ${DATABASE_TAG} AS tag`.execute(db);
  return rows[0]!.tag;
}

/**
 * The workspace's store schema and its role, created when missing, with the role's grants. Safe
 * to call on every query (a cached check), idempotent, and safe when two processes call it at
 * once: creation runs under a transaction-scoped advisory lock of this database, and the role's
 * name is this database's alone.
 */
export async function ensureStoreRole(appDb: Db, workspaceId: string): Promise<string> {
  // On PGlite the stores are a database of their own (storeDatabase.ts): the schema and its role
  // are made there, outside any transaction of the app's.
  const db = storeDbOf(appDb);
  const seen = known.get(db) ?? new Map<string, string>();
  known.set(db, seen);
  const cached = seen.get(workspaceId);
  if (cached !== undefined) return cached;
  if (storesApart(appDb)) await hardened(db);
  const schema = storeSchemaName(workspaceId);
  const role = storeRoleName(workspaceId, await databaseTag(db));
  const create = async (trx: Db) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`store-role:${role}`}))`.execute(trx);
    const exists = await sql`SELECT 1 FROM pg_roles WHERE rolname = ${role}`.execute(trx);
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(trx);
    if (exists.rows.length > 0) return;
    await sql`CREATE ROLE ${sql.id(role)} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS`.execute(trx);
    // the server may then SET ROLE to it even when it is not a superuser (PostgreSQL 16 no longer
    // gives a CREATEROLE creator that right by itself)
    await sql`GRANT ${sql.id(role)} TO CURRENT_USER`.execute(trx);
    await sql`GRANT USAGE ON SCHEMA ${sql.id(schema)} TO ${sql.id(role)}`.execute(trx);
    await sql`GRANT SELECT ON ALL TABLES IN SCHEMA ${sql.id(schema)} TO ${sql.id(role)}`.execute(trx);
    await sql`ALTER DEFAULT PRIVILEGES IN SCHEMA ${sql.id(schema)} GRANT SELECT ON TABLES TO ${sql.id(role)}`.execute(trx);
  };
  // Inside a caller's transaction (the seed, a workspace's creation) the role commits or rolls
  // back with it, so it is not remembered as existing.
  if (db.isTransaction) return create(db).then(() => role);
  await db.transaction().execute(create);
  seen.set(workspaceId, role);
  return role;
}
