import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { copyInOf, copyResult, postgresCopyIn } from './copyIn';
import { queryPrepared } from './prepared-query';

/** Statements with more parameters (long IN lists) vary in shape too much to be worth keeping prepared. */
const MAX_PREPARED_PARAMETERS = 16;

/** "cached plan must not change result type" (feature_not_supported, 0A000). */
const isStalePlan = (error: unknown): boolean =>
  (error as { code?: unknown }).code === '0A000' && String((error as { message?: unknown }).message).includes('cached plan');

/**
 * node-postgres's pool with every parameterised statement prepared once per connection (a named
 * statement; the name is a digest of its text) and then only bound and executed, its columns
 * described once per connection too (db/prepared-query.ts). On the small
 * reads most requests make, planning costs several times the execution (EXPLAIN ANALYZE: 0.2 ms
 * planning vs 0.04 ms execution for the workspace list), and the database shares the machine.
 *
 * Safe with several server processes: a prepared statement lives in one connection and PostgreSQL
 * replans it itself when a table changes. The one thing it cannot survive is another process's
 * migration changing the columns a prepared `SELECT *` returns: that fails once per connection
 * with 0A000; the statement is then run unprepared and the connection is discarded on release,
 * taking its stale statements with it. Connections are also recycled after `maxUses`, which bounds
 * how many statements one connection accumulates.
 */
export function preparedStatementPool(pool: pg.Pool, held?: HeldClients): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const pid = (client as { processID?: number }).processID;
      if (held && pid !== undefined) held.set(pid, client);
      let stale = false;
      const query = async (sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<unknown>> => {
        const values = parameters as unknown[];
        const copy = copyInOf(values);
        if (copy) return copyResult(await postgresCopyIn(client, sql, copy.bytes));
        if (values.length === 0 || values.length > MAX_PREPARED_PARAMETERS) return asResult(await client.query(sql, values));
        const name = statementName(sql);
        try {
          return await queryPrepared(client, name, sql, values);
        } catch (error) {
          if (!isStalePlan(error)) throw error;
          stale = true;
          return asResult(await client.query(sql, values));
        }
      };
      return {
        query: ((sqlOrCursor: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>) =>
          typeof sqlOrCursor === 'string' ? query(sqlOrCursor, parameters ?? []) : client.query(sqlOrCursor as never)) as PostgresPoolClient['query'],
        release: (destroy?: boolean) => {
          if (held && pid !== undefined && held.get(pid) === client) held.delete(pid);
          client.release(destroy === true || stale);
        },
      };
    },
    end: () => pool.end(),
  };
}

/**
 * The clients a caller holds now, by backend process id (pg_backend_pid()): how a store session
 * finds the node-postgres client under its Kysely transaction to stream a COPY through it
 * (server/stores/csvCopy.ts). A client is listed from connect to release only.
 */
export type HeldClients = Map<number, pg.PoolClient>;

// node-postgres types the command as any string; Kysely names the ones it reads.
const asResult = (result: pg.QueryResult): PostgresQueryResult<unknown> => result as PostgresQueryResult<unknown>;

const names = new Map<string, string>();
const MAX_NAMES = 1_000;

/** A digest of the text, remembered for up to 1000 texts (starting over when full): a lookup costs less than hashing each request's SQL again. */
function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(sql).digest('base64url')}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(sql, name);
  }
  return name;
}
