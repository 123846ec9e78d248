import type * as PgliteModule from '@electric-sql/pglite';
import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pgUtils from 'pg/lib/utils.js';

/**
 * PGlite's wire-protocol helpers, handed in by whoever loaded the package: it is imported only when
 * the embedded database is opened (database.ts), so this module holds no value import of it.
 */
type PgliteWire = Pick<typeof PgliteModule, 'parse' | 'protocol'>;

/**
 * Presents one embedded PGlite instance as the pool Kysely's PostgresDialect expects.
 * PGlite has a single session, so a connection is held exclusively until released:
 * that keeps one caller's transaction from interleaving with another's statements.
 */
export function pglitePool(pg: PGlite, wire: PgliteWire): PostgresPool {
  const acquire = exclusiveSessions();
  const statements = preparedStatements(pg, wire);

  return {
    async connect(): Promise<PostgresPoolClient> {
      const release = await acquire();
      let released = false;
      const client = {
        async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
          // Migrations send several statements at once; only the simple protocol (exec) allows that.
          const result = parameters.length === 0 ? await statements.exec(sql) : await statements.query(sql, parameters);
          return { command: commandOf(sql) as PostgresQueryResult<R>['command'], rowCount: result.affectedRows ?? result.rows.length, rows: result.rows as R[] };
        },
        release() {
          if (!released) {
            released = true;
            release();
          }
        },
      };
      return client as PostgresPoolClient;
    },
    async end() {
      await acquire.idle();
    },
  };
}

/** The command tag Kysely reads from a result: the statement's first word. */
export function commandOf(sql: string): string {
  return (sql.trimStart().split(/\s+/, 1)[0] ?? 'SELECT').toUpperCase();
}

/**
 * A single session handed to one caller at a time, first come first served: `acquire()` resolves
 * to the release of the session once every earlier holder has released it; `idle()` once the
 * queue is empty.
 */
export function exclusiveSessions(): { (): Promise<() => void>; idle(): Promise<void> } {
  let tail: Promise<void> = Promise.resolve();
  const acquire = async (): Promise<() => void> => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const previous = tail;
    tail = previous.then(() => held);
    await previous;
    // The session is handed on through promise callbacks, which run before any I/O: without a turn
    // of the event loop here, a queue of fifty requests would be worked off in one stretch while
    // new requests and finished answers wait behind it (a feed's p99 was 9× its mean at 50
    // connections). One turn per session keeps the queue first-come, first-served.
    await new Promise<void>((resolve) => setImmediate(resolve));
    return release;
  };
  return Object.assign(acquire, { idle: () => tail });
}

type QueryResult = { rows: unknown[]; affectedRows?: number };

/** Statements kept prepared in the embedded session at most; the least recently used is closed first. */
const MAX_PREPARED = 200;

/** Statements that cannot change what a prepared statement returns: they leave the cache alone. */
const KEEPS_PREPARED = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE|VALUES|BEGIN|START|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SHOW|SET)\b/i;

/**
 * Parameterised statements are prepared once per text and then only bound and executed: on the
 * small reads that make up most requests, planning costs several times the execution, and PGlite
 * runs it on the one thread the server has. The session is ours alone (one process, one
 * connection), so the cache cannot be stale in another process; a statement that may change the
 * schema (DDL arrives without parameters, e.g. migrations) deallocates everything, because a
 * prepared `SELECT *` would fail once its table gained a column.
 *
 * Each statement is one exchange with the backend (Parse when new, Bind, Describe, Execute, Sync
 * in one message); PGlite's own query() makes six, asking for the parameter types first.
 * Parameters are sent as text and typed by the server, exactly as node-postgres sends them on
 * the PostgreSQL path (same `prepareValue`), so both databases see the same values.
 */
export function preparedStatements(pg: PGlite, { parse, protocol }: PgliteWire) {
  const { serialize } = protocol;
  const names = new Map<string, string>();
  let next = 0;

  return {
    async exec(sql: string): Promise<QueryResult> {
      const result = lastResult(await pg.exec(sql));
      if (names.size > 0 && !KEEPS_PREPARED.test(sql)) {
        names.clear();
        await pg.exec('DEALLOCATE ALL');
      }
      return result;
    },

    async query(sql: string, parameters: ReadonlyArray<unknown>): Promise<QueryResult> {
      const parts: Uint8Array[] = [];
      let name = names.get(sql);
      const isNew = name === undefined;
      if (name === undefined) {
        name = `s${next++}`;
        if (names.size >= MAX_PREPARED) {
          const [oldestSql, oldestName] = names.entries().next().value!;
          names.delete(oldestSql);
          parts.push(serialize.close({ type: 'S', name: oldestName }));
        }
        parts.push(serialize.parse({ name, text: sql }));
      }
      // Re-inserted on every use: the map's first entry is the least recently used.
      names.delete(sql);
      names.set(sql, name);
      parts.push(
        serialize.bind({ statement: name, values: parameters.map((value) => pgUtils.prepareValue(value)) }),
        serialize.describe({ type: 'P' }),
        serialize.execute(),
        serialize.sync(),
      );
      try {
        const { messages } = await pg.execProtocol(concat(parts));
        return parse.parseResults(messages, pg.parsers)[0] ?? { rows: [] };
      } catch (error) {
        if (isNew) {
          // Parse may have succeeded before Bind failed: close it (closing a missing name is no error).
          names.delete(sql);
          await pg.execProtocol(concat([serialize.close({ type: 'S', name }), serialize.sync()])).catch(() => undefined);
        }
        throw error;
      }
    },
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

function lastResult(results: Array<{ rows: unknown[]; affectedRows?: number }>): QueryResult {
  return results[results.length - 1] ?? { rows: [] };
}
