import type { Duplex } from 'node:stream';
import type pg from 'pg';

// A `COPY (…) TO STDOUT (FORMAT binary)` of one non-NULL text column, read straight off
// node-postgres's connection: each row's bytes are handed on as they arrive, never turned into a
// JavaScript string or row object (node-postgres builds both for every row of a FETCH, which grew
// the server's RSS by ~145 MB over a million rows before V8 collected them). Binary, not text or
// csv: binary sends a text value's bytes unescaped, so the CSV line the database built
// (csvSql.ts) arrives exactly as built.
//
// Back-pressure: `pause()` stops reading the socket, so the backend blocks on its send and reads
// no further; `resume()` reads on. PostgreSQL does not act on a cancel (pg_cancel_backend,
// statement_timeout) while blocked sending, so a run that is to end must be resumed: `discard()`
// resumes for good and drops every row still on its way until the cancel's error arrives.

/** The wire format's 11-byte signature, then a 32-bit flags field and the header extension's length. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER = SIGNATURE.length + 8;

interface CopyRun {
  /** settles when the backend has answered the whole COPY (ReadyForQuery), or with its error */
  done: Promise<void>;
  /** stops reading rows (the socket), until resume() */
  pause(): void;
  resume(): void;
  /** reads on to the end without handing rows on: for a run being cancelled */
  discard(): void;
}

/**
 * Sends `text` (one COPY … TO STDOUT (FORMAT binary) statement of one column) through `client`
 * and calls `onRow(chunk, start, end)` with each row's bytes, which stay valid only during the call.
 * An exception of `onRow` stops handing rows on (the rest is discarded) and is given to `onFailure`,
 * which must make the backend stop (cancel); `done` then rejects with the backend's error.
 */
export function copyRows(client: pg.PoolClient, text: string, onRow: (chunk: Buffer, start: number, end: number) => void, onFailure: (error: unknown) => void): CopyRun {
  let socket: Duplex | undefined;
  let paused = false;
  let discarding = false;
  let headerRead = false;
  let settle!: (error?: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    settle = (error?: unknown) => {
      discarding = true;
      socket?.resume();
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error('COPY failed'));
    };
  });
  const fail = (error: unknown) => {
    if (discarding) return;
    discarding = true;
    socket?.resume();
    onFailure(error);
  };

  const rows = (chunk: Buffer) => {
    let at = 0;
    if (!headerRead) {
      // the header comes glued to the first row (or to the trailer when there is none)
      if (chunk.length < HEADER || !chunk.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('COPY: not the binary format');
      at = HEADER + chunk.readUInt32BE(SIGNATURE.length + 4);
      headerRead = true;
    }
    // PostgreSQL sends each row in a CopyData message of its own: a row never spans two
    while (at < chunk.length) {
      const fields = chunk.readInt16BE(at);
      if (fields === -1) return; // the trailer
      if (fields !== 1) throw new Error(`COPY: ${fields} columns, not one`);
      const length = chunk.readInt32BE(at + 2);
      at += 6;
      if (length < 0 || at + length > chunk.length) throw new Error('COPY: a row that is NULL or cut');
      onRow(chunk, at, at + length);
      at += length;
    }
  };

  // node-postgres's "submittable" interface (the one pg-cursor and pg-copy-streams implement): the
  // client hands this object every message of the backend's answer until ReadyForQuery.
  const submittable = {
    submit(connection: { stream: Duplex; query(text: string): void }) {
      socket = connection.stream;
      if (paused && !discarding) socket.pause();
      connection.query(text);
    },
    handleCopyData(message: { chunk: Buffer }) {
      if (discarding) return;
      try {
        rows(message.chunk);
      } catch (error) {
        fail(error);
      }
    },
    handleCopyInResponse(connection: { sendCopyFail(message: string): void }) {
      connection.sendCopyFail('not a COPY FROM');
    },
    handleRowDescription() {
      fail(new Error('COPY: answered with rows'));
    },
    handleDataRow() {},
    handlePortalSuspended() {},
    handleEmptyQuery() {},
    handleCommandComplete() {},
    handleReadyForQuery() {
      settle();
    },
    // after an ErrorResponse node-postgres calls this and no longer hands the query ReadyForQuery
    handleError(error: unknown) {
      settle(error ?? new Error('COPY failed'));
    },
  };
  client.query(submittable as unknown as pg.Submittable);

  return {
    done,
    pause() {
      if (discarding || paused) return;
      paused = true;
      socket?.pause();
    },
    resume() {
      if (!paused) return;
      paused = false;
      socket?.resume();
    },
    discard() {
      discarding = true;
      paused = false;
      socket?.resume();
    },
  };
}
