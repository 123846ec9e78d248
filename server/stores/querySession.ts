import { sql, type Transaction } from 'kysely';
import type pg from 'pg';
import { heldPostgresClient, type Db } from '../db/database';
import { interruptStoreStatement, storeDbOf, storesApart, storeThreadReady } from '../db/storeDatabase';
import type { Database } from '../db/schema';
import { DATABASE_TAG, ensureStoreRole, storeSchemaName } from './storeRole';

// The transaction a workspace's SQL runs in, with the database's own fences on top of the guard's:
// READ ONLY; the store schema first on the search_path; the workspace's role (SET LOCAL ROLE, so
// even SQL that got past the guard reads only its own store); work_mem, temp_file_limit and a
// statement_timeout set before the switch (the role cannot raise temp_file_limit; statement_timeout
// and work_mem it could, but only through SET or set_config, which the guard refuses and the role
// may not execute); and one deadline for the whole session, however many statements it runs.
//
// At the deadline, or when the caller's signal aborts (the HTTP client went away), a statement in
// flight is cancelled with pg_cancel_backend on PostgreSQL. PGlite cannot interrupt a statement:
// there the stores live in a database held by a worker thread, which is ended under the statement
// (server/db/storeWorkerPool.ts), so the server's own thread never waits on a tenant's statement;
// the deadline and the signal are also checked between statements (between a cursor's batches).
//
// On PostgreSQL, where the server's user is a superuser, SET LOCAL SESSION AUTHORIZATION makes the
// workspace's role the session's user too, so not even session_user names the server's own account.

export interface QueryLimits {
  /** the whole session's time, every statement and every wait for the client included */
  timeoutMs: number;
  /** work_mem of each sort or hash, in kB */
  workMemKb?: number | undefined;
  /** temp_file_limit of the session, in kB (applied when the server's user may set it) */
  tempFileLimitKb?: number | undefined;
  /** the largest single value a row may hold, in bytes (text as UTF-8) */
  valueMaxBytes?: number | undefined;
  /** the largest JSON answer, in bytes */
  jsonMaxBytes?: number | undefined;
}

/** Defaults of the limits a caller leaves out; README "Configuration" names the same values. */
export const QUERY_LIMIT_DEFAULTS = { workMemKb: 16_384, tempFileLimitKb: 262_144, valueMaxBytes: 1_048_576, jsonMaxBytes: 16_777_216 } as const;

/** The limits of a workspace's dataset SQL as the server is configured (README "Configuration"). */
export function datasetQueryLimits(env: {
  DATASET_QUERY_TIMEOUT_MS: number;
  DATASET_WORK_MEM_KB: number;
  DATASET_TEMP_FILE_LIMIT_KB: number;
  DATASET_VALUE_MAX_BYTES: number;
  DATASET_JSON_MAX_BYTES: number;
}): QueryLimits {
  return { timeoutMs: env.DATASET_QUERY_TIMEOUT_MS, workMemKb: env.DATASET_WORK_MEM_KB, tempFileLimitKb: env.DATASET_TEMP_FILE_LIMIT_KB, valueMaxBytes: env.DATASET_VALUE_MAX_BYTES, jsonMaxBytes: env.DATASET_JSON_MAX_BYTES };
}

/** The database refused or failed the query (a missing column, the time limit, a write). */
export class QueryFailed extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'QueryFailed';
  }
}

const TIME_LIMIT_MESSAGE = 'The query ran longer than its time limit';
export const CLIENT_GONE_MESSAGE = 'The query was cancelled: the client went away';

/** A value over DATASET_VALUE_MAX_BYTES refuses the query: a cut value would be silently wrong data. */
export function valueTooLarge(column: string, maxBytes: number): QueryFailed {
  return new QueryFailed(`A value in column ${column} is larger than ${formatBytes(maxBytes)}, the most a dataset value may hold: shorten it in the query (for example with left())`, false);
}

function formatBytes(bytes: number): string {
  return bytes >= 1_048_576 ? `${Math.round(bytes / 1_048_576)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

export interface StoreSession {
  trx: Transaction<Database>;
  /** throws QueryFailed once the deadline has passed or the caller has gone */
  check(): void;
  /** aborted at the deadline or when the caller goes */
  signal: AbortSignal;
  /** ends the session with `reason`: a statement in flight is cancelled (PostgreSQL), the next check throws it */
  abort(reason: QueryFailed): void;
  /**
   * The node-postgres client under `trx` (PostgreSQL only), for a COPY inside this very
   * transaction: every fence above is already set on it. Nothing else may be sent through it.
   */
  client?: pg.PoolClient | undefined;
}

interface Capabilities {
  embedded: boolean;
  /** may become another user (SET SESSION AUTHORIZATION): the server's user is a superuser */
  superuser: boolean;
  canSetTempFileLimit: boolean;
}
const capabilities = new WeakMap<Db, Promise<Capabilities>>();

/** What this database lets the server do, read once per handle. */
function capabilitiesOf(db: Db): Promise<Capabilities> {
  let known = capabilities.get(db);
  if (!known) {
    known = (async () => {
      const { rows } = await sql<{ embedded: boolean; superuser: boolean; version: number }>`
        SELECT version() LIKE '%PGlite%' AS embedded, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
          current_setting('server_version_num')::int AS version`.execute(db);
      const row = rows[0]!;
      let canSetTempFileLimit = row.superuser;
      // PostgreSQL 15 can grant SET on one parameter to a plain role
      if (!canSetTempFileLimit && row.version >= 150_000) {
        const granted = await sql<{ ok: boolean }>`SELECT has_parameter_privilege('temp_file_limit', 'SET') AS ok`.execute(db);
        canSetTempFileLimit = granted.rows[0]?.ok === true;
      }
      return { embedded: row.embedded, superuser: row.superuser, canSetTempFileLimit };
    })();
    capabilities.set(db, known);
    known.catch(() => capabilities.delete(db));
  }
  return known;
}

/** Runs `work` in the fenced transaction; every failure comes out as QueryFailed in plain words. */
export async function inStore<T>(appDb: Db, workspaceId: string, limits: QueryLimits, callerSignal: AbortSignal | undefined, work: (session: StoreSession) => Promise<T>): Promise<T> {
  if (callerSignal?.aborted) throw new QueryFailed(CLIENT_GONE_MESSAGE, false);
  const db = storeDbOf(appDb);
  const interruptible = storesApart(appDb);
  const [can, role] = await Promise.all([capabilitiesOf(db), ensureStoreRole(appDb, workspaceId), storeThreadReady(appDb)]);
  const controller = new AbortController();
  // the time limit is the tenant's statements' and the client's, not a new stores' thread's start
  const deadline = Date.now() + limits.timeoutMs;
  const timeUp = () => controller.abort(new QueryFailed(TIME_LIMIT_MESSAGE, true));
  const timer = setTimeout(timeUp, limits.timeoutMs);
  const onCallerAbort = () => controller.abort(new QueryFailed(CLIENT_GONE_MESSAGE, false));
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  let cancelling: Promise<unknown> | undefined;
  const check = () => {
    // the clock too, not only the timer: a session that never yields to the event loop would starve it
    if (Date.now() >= deadline) timeUp();
    if (controller.signal.aborted) throw controller.signal.reason as QueryFailed;
  };
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`SET TRANSACTION READ ONLY`.execute(trx);
      const { rows } = await sql<{ pid: number }>`
        SELECT pg_backend_pid() AS pid,
          set_config('search_path', ${`"${storeSchemaName(workspaceId)}", pg_catalog`}, true),
          set_config('statement_timeout', ${String(limits.timeoutMs)}, true),
          set_config('work_mem', ${`${limits.workMemKb ?? QUERY_LIMIT_DEFAULTS.workMemKb}kB`}, true)`.execute(trx);
      if (can.canSetTempFileLimit) {
        await sql`SELECT set_config('temp_file_limit', ${`${limits.tempFileLimitKb ?? QUERY_LIMIT_DEFAULTS.tempFileLimitKb}kB`}, true)`.execute(trx);
      }
      // The fences above are set; from here the transaction is the workspace role's, session_user
      // included where possible. Not on PGlite: there SET LOCAL SESSION AUTHORIZATION outlives the
      // transaction (measured on 0.5.16), and the next session would start as the workspace's role.
      // (SESSION AUTHORIZATION also makes the role the current user; the role itself may not run set_config)
      if (can.superuser && !can.embedded) await sql`SET LOCAL SESSION AUTHORIZATION ${sql.id(role)}`.execute(trx);
      else await sql`SELECT set_config('role', ${sql.lit(storeSchemaName(workspaceId))} || '_' || ${DATABASE_TAG}, true)`.execute(trx);
      const pid = rows[0]?.pid;
      const cancel = () => {
        // the embedded stores' thread is ended under the statement; PostgreSQL cancels it from another connection
        if (interruptible) interruptStoreStatement(appDb, controller.signal.reason as QueryFailed);
        else if (!can.embedded && pid !== undefined) cancelling = sql`SELECT pg_cancel_backend(${pid})`.execute(db).catch(() => undefined);
      };
      controller.signal.addEventListener('abort', cancel, { once: true });
      try {
        check();
        const client = can.embedded || pid === undefined ? undefined : heldPostgresClient(db, pid);
        const abort = (reason: QueryFailed) => controller.abort(reason);
        return await work({ trx, check, signal: controller.signal, abort, client });
      } catch (error) {
        throw controller.signal.aborted ? (controller.signal.reason as QueryFailed) : error;
      } finally {
        controller.signal.removeEventListener('abort', cancel);
        // a cancel is delivered while this transaction still holds the connection, never to the next user's statement
        await cancelling;
      }
    });
  } catch (error) {
    throw asQueryFailed(error);
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

function asQueryFailed(error: unknown): QueryFailed {
  if (error instanceof QueryFailed) return error;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  // 57014: cancelled by statement_timeout
  if (code === '57014' || /statement timeout/i.test(message)) return new QueryFailed(TIME_LIMIT_MESSAGE, true);
  // 53400: temp_file_limit exceeded
  if (code === '53400' || /temp_file_limit/i.test(message)) return new QueryFailed('The query needed more temporary disk space than a dataset query may use', false);
  return new QueryFailed(`The query failed: ${message}`, false);
}
