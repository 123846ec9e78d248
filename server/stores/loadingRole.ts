import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { storesApart } from '../db/storeDatabase';
import { scramVerifier } from '../runner/warehouse/scram';
import { DATABASE_TAG, ensureStoreRole, storeSchemaName } from './storeRole';

// The role a workspace's Meltano loaders (target-postgres, dbt) log in as (issue 37), beside the
// NOLOGIN query role of storeRole.ts: LOGIN, no superuser and no inherited rights, USAGE and
// CREATE on its own store schema and nothing else (PUBLIC has nothing in `public`, migration 019).
// Tables it creates stay readable by the workspace's query role through default privileges of this
// role, so datasets read what it loaded. Only on PostgreSQL: PGlite has no wire server to log in to.
//
// Its password is random, made once with the role and kept in `store_loading_roles` (migration
// 029) for every server process: no job ever changes it, so jobs of one workspace at once and
// servers sharing one PostgreSQL never race on ALTER ROLE. It never leaves the server: the store
// proxy logs in with it on a job's behalf (runner/warehouse/storeProxy.ts). PostgreSQL gets only
// its SCRAM verifier, so no statement log holds the password either.

interface LoadingRole {
  role: string;
  password: string;
  /** the database and schema it loads into */
  database: string;
  schema: string;
}

/** `ws_<workspace hex>_load_<8 hex of md5(current_database())>`: per database, as the query role's name is */
function loadingRoleName(workspaceId: string, databaseTag: string): string {
  if (!/^[0-9a-f]{8}$/.test(databaseTag)) throw new Error('A database tag is 8 hex digits');
  return `${storeSchemaName(workspaceId)}_load_${databaseTag}`;
}

/** At most this many sessions at once per workspace: a job's loader and its dbt, a few jobs side by side. */
const CONNECTION_LIMIT = 16;

/** The workspace's loading role with its password, created (with the store's schema and query role) when missing. */
export async function ensureLoadingRole(db: Db, workspaceId: string): Promise<LoadingRole> {
  if (storesApart(db)) throw new Error('The embedded database has no login roles to load through');
  const schema = storeSchemaName(workspaceId);
  const queryRole = await ensureStoreRole(db, workspaceId);
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ tag: string; database: string }>`SELECT ${DATABASE_TAG} AS tag, current_database() AS database`.execute(trx);
    const { tag, database } = rows[0]!;
    const role = loadingRoleName(workspaceId, tag);
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`store-loader:${role}`}))`.execute(trx);
    const kept = await sql<{ password: string }>`SELECT password FROM store_loading_roles WHERE workspace_id = ${workspaceId} AND role_name = ${role}`.execute(trx);
    const exists = (await sql`SELECT 1 FROM pg_roles WHERE rolname = ${role}`.execute(trx)).rows.length > 0;
    if (kept.rows[0] && exists) return { role, password: kept.rows[0].password, database, schema };
    const password = randomBytes(32).toString('hex');
    // a verifier (base64 and digits, no quote) is a literal PostgreSQL stores as it is
    const verifier = sql.lit(scramVerifier(password));
    if (exists) await sql`ALTER ROLE ${sql.id(role)} PASSWORD ${verifier}`.execute(trx);
    else await sql`CREATE ROLE ${sql.id(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ${sql.raw(String(CONNECTION_LIMIT))} PASSWORD ${verifier}`.execute(trx);
    // the server may then set default privileges for it even when it is not a superuser (PostgreSQL 16)
    await sql`GRANT ${sql.id(role)} TO CURRENT_USER`.execute(trx);
    await sql`GRANT USAGE, CREATE ON SCHEMA ${sql.id(schema)} TO ${sql.id(role)}`.execute(trx);
    // what it creates, the workspace's datasets read
    await sql`ALTER DEFAULT PRIVILEGES FOR ROLE ${sql.id(role)} IN SCHEMA ${sql.id(schema)} GRANT SELECT ON TABLES TO ${sql.id(queryRole)}`.execute(trx);
    await sql`
      INSERT INTO store_loading_roles (workspace_id, role_name, password) VALUES (${workspaceId}, ${role}, ${password})
      ON CONFLICT (workspace_id) DO UPDATE SET role_name = EXCLUDED.role_name, password = EXCLUDED.password`.execute(trx);
    return { role, password, database, schema };
  });
}

/**
 * Drops the workspace's loading role once its schema is gone (workspace deletion): what it still
 * owns or was granted in this database first, then the role. A role left behind would be a login
 * nobody can use (its password row went with the workspace), but a login all the same.
 */
export async function dropLoadingRole(db: Db, workspaceId: string): Promise<void> {
  if (storesApart(db)) return;
  const { rows } = await sql<{ tag: string }>`SELECT ${DATABASE_TAG} AS tag`.execute(db);
  const role = loadingRoleName(workspaceId, rows[0]!.tag);
  if ((await sql`SELECT 1 FROM pg_roles WHERE rolname = ${role}`.execute(db)).rows.length === 0) return;
  await sql`DROP OWNED BY ${sql.id(role)}`.execute(db);
  await sql`DROP ROLE IF EXISTS ${sql.id(role)}`.execute(db);
}
