import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents one embedded PGlite instance as the pool Kysely's PostgresDialect expects.
 * PGlite has a single session, so a connection is held exclusively until released:
 * that keeps one caller's transaction from interleaving with another's statements.
 */
export function pglitePool(pg: PGlite): PostgresPool {
  let tail: Promise<void> = Promise.resolve();

  const acquire = async (): Promise<() => void> => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const previous = tail;
    tail = previous.then(() => held);
    await previous;
    return release;
  };

  return {
    options: {},
    async connect(): Promise<PostgresPoolClient> {
      const release = await acquire();
      let released = false;
      const client = {
        async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
          // Migrations send several statements at once; only the simple protocol (exec) allows that.
          const result = parameters.length === 0 ? lastResult(await pg.exec(sql)) : await pg.query<R>(sql, parameters as unknown[]);
          const command = (sql.trimStart().split(/\s+/, 1)[0] ?? 'SELECT').toUpperCase() as PostgresQueryResult<R>['command'];
          return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows as R[] };
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
      await tail;
    },
  };
}

function lastResult(results: Array<{ rows: unknown[]; affectedRows?: number }>): { rows: unknown[]; affectedRows?: number } {
  return results[results.length - 1] ?? { rows: [] };
}
