import { CompiledQuery, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult, type RawBuilder } from 'kysely';
import type pg from 'pg';
import type { Db } from './database';

// `COPY … FROM STDIN` through Kysely, on both databases. Kysely has no COPY: a statement's data
// travels as its one parameter, a CopyInData, which each of our pools recognises and sends the
// way its database takes COPY data — node-postgres's CopyData messages on PostgreSQL
// (prepared-pool.ts; copyInPool for an external store), PGlite's '/dev/blob' in the embedded
// stores' thread (storeWorkerPool.ts, storeWorker.ts), where the stores always live on PGlite.
// So a COPY runs inside the caller's Kysely transaction, on its session, like any statement.

/** The data of one COPY FROM STDIN: the statement's only parameter. */
class CopyInData {
  constructor(readonly bytes: Uint8Array) {}
}

/**
 * What a pool answers for a COPY: Kysely counts affected rows of INSERT, UPDATE, DELETE and MERGE
 * only, so the rows copied come back as the result's one row.
 */
export function copyResult<R>(copied: number): PostgresQueryResult<R> {
  // Kysely reads a command only for those counts and COMMIT/ROLLBACK: a COPY answers as a SELECT of its count
  return { command: 'SELECT', rowCount: copied, rows: [{ copied }] as R[] };
}

/** The data as the Blob PGlite reads '/dev/blob' from. */
export function blobOf(bytes: Uint8Array): Blob {
  return new Blob([bytes as Uint8Array<ArrayBuffer>]);
}

/** The COPY statement a pool received with its data, or undefined for any other statement. */
export function copyInOf(parameters: ReadonlyArray<unknown>): CopyInData | undefined {
  return parameters.length === 1 && parameters[0] instanceof CopyInData ? parameters[0] : undefined;
}

/**
 * Runs `statement` (a `COPY … FROM STDIN` built with Kysely's sql tag, holding no parameter of its
 * own) with `bytes` as its data; returns the rows the database copied.
 */
export async function copyIn(db: Db, statement: RawBuilder<unknown>, bytes: Uint8Array): Promise<number> {
  const compiled = statement.compile(db);
  if (compiled.parameters.length > 0 || !/\bFROM\s+STDIN\b/i.test(compiled.sql)) throw new Error('copyIn takes a COPY … FROM STDIN statement without parameters');
  const result = await db.executeQuery<{ copied: number }>(CompiledQuery.raw(compiled.sql, [new CopyInData(bytes)]));
  return result.rows[0]?.copied ?? 0;
}

/** PGlite reads COPY data from the blob it is given, named '/dev/blob' in the statement. */
export function pgliteCopyText(sql: string): string {
  return sql.replace(/\bFROM\s+STDIN\b/i, "FROM '/dev/blob'");
}

/** The CopyData messages a COPY FROM STDIN sends at most at once (node-postgres copies each into its buffer). */
const CHUNK = 256 * 1024;

/**
 * Sends a COPY FROM STDIN with its data through node-postgres's "submittable" interface (the one
 * pg-copy-streams implements); resolves with the rows copied once the backend is ready again.
 */
export function postgresCopyIn(client: pg.PoolClient, text: string, data: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    const submittable = {
      submit(connection: { query(text: string): void }) {
        connection.query(text);
      },
      handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }) {
        const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
        for (let at = 0; at < bytes.length; at += CHUNK) connection.sendCopyFromChunk(bytes.subarray(at, at + CHUNK));
        connection.endCopyFrom();
      },
      handleCommandComplete(message: { text?: string }) {
        rows = Number(/^COPY (\d+)/.exec(message.text ?? '')?.[1] ?? 0);
      },
      handleReadyForQuery() {
        resolve(rows);
      },
      // after an ErrorResponse node-postgres calls this, and the backend's ReadyForQuery goes to the next statement
      handleError(error: unknown) {
        reject(error instanceof Error ? error : new Error('COPY failed'));
      },
    };
    client.query(submittable as unknown as pg.Submittable);
  });
}

/**
 * node-postgres's pool as Kysely takes it, with COPY FROM STDIN (copyIn) on top and every other
 * statement sent as it is: for an external store, which may sit behind a pooler that keeps no
 * prepared statement (the app's own pool prepares them: prepared-pool.ts).
 */
export function copyInPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      return {
        query: (async (sqlOrCursor: unknown, parameters?: ReadonlyArray<unknown>) => {
          const copy = typeof sqlOrCursor === 'string' ? copyInOf(parameters ?? []) : undefined;
          if (copy) return copyResult(await postgresCopyIn(client, sqlOrCursor as string, copy.bytes));
          return client.query(sqlOrCursor as never, parameters as unknown[]);
        }) as unknown as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy),
      };
    },
    end: () => pool.end(),
  };
}
