import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { sql } from 'kysely';
import type pg from 'pg';
import { csvLine } from '../../src/domain/csv';
import type { Db } from '../db/database';
import type { CheckedQuery } from './queryGuard';
import { copyRows } from './csvCopy';
import { csvCellSql, type ColumnType } from './csvSql';
import { CLIENT_GONE_MESSAGE, inStore, QUERY_LIMIT_DEFAULTS, QueryFailed, valueTooLarge, type QueryLimits, type StoreSession } from './querySession';
import { parse } from './sqlParser';
import { declareCursor, fetchRows, requireOneStatement } from './storeCursor';

// A dataset's whole result as CSV, streamed from the cursor of the fenced store session
// (querySession.ts): the database formats each row into its CSV line (csvSql.ts), so the server
// only joins a batch of ready lines into one Buffer and writes it. Measured on 200,000 rows: the
// server's CPU per row fell about 5x on PostgreSQL and 2.5x on PGlite against parsing every value
// into JavaScript and formatting it there (docs/decisions.md, "CSV lines from the database").
// On PostgreSQL the lines are read by COPY instead of FETCH, as bytes that never become strings or
// row objects (csvCopy.ts; docs/decisions.md, "COPY after all"); PGlite keeps the cursor.

/** The columns of a checked query, without running it: names and types of its result. */
async function shapeOf(session: StoreSession, text: string): Promise<{ names: string[]; types: ColumnType[] }> {
  // LIMIT 0 plans the query and checks its privileges but reads no row (the Limit node never asks
  // its input); the outer join gives one row of NULLs (a row, not the NULL of a missing row, hence
  // the extra level) whose JSON carries the names, duplicates and '?column?' included, in order.
  const empty = `(SELECT * FROM (\n${text}\n) AS q1 LIMIT 0)`;
  const namesSql = `SELECT k.name FROM (SELECT q0.* FROM (SELECT 1) AS one LEFT JOIN ${empty} AS q0 ON true) AS q, json_object_keys(to_json(q)) WITH ORDINALITY AS k(name, i) ORDER BY k.i`;
  await requireOneStatement(namesSql, 'SelectStmt');
  const names = (await sql.raw<{ name: string }>(namesSql).execute(session.trx)).rows.map((r) => r.name);
  if (names.length === 0) return { names, types: [] };
  const aliases = names.map((_, i) => `c${i + 1}`);
  const typesSql = `SELECT t.oid::int AS oid, t.typcategory::text AS category FROM unnest((SELECT ARRAY[${aliases.map((c) => `pg_typeof(q.${c})`).join(', ')}]::oid[] FROM (SELECT 1) AS one LEFT JOIN ${empty} AS q(${aliases.join(', ')}) ON true)) WITH ORDINALITY AS u(oid, i) JOIN pg_type t ON t.oid = u.oid ORDER BY u.i`;
  await requireOneStatement(typesSql, 'SelectStmt');
  const types = (await sql.raw<ColumnType>(typesSql).execute(session.trx)).rows;
  if (types.length !== names.length) throw new QueryFailed('The columns of the query could not be read', false);
  return { names, types };
}

/** The SELECT whose one column `line` is each row's CSV line, CRLF included. */
function linesSelect(text: string, types: readonly ColumnType[]): string {
  if (types.length === 0) return `SELECT E'\\r\\n' AS line FROM (\n${text}\n) AS q`;
  const aliases = types.map((_, i) => `c${i + 1}`);
  const cells = types.map((type, i) => csvCellSql(`q.${aliases[i]}`, type)).join(", ',', ");
  return `SELECT concat(${cells}, E'\\r\\n') AS line FROM (\n${text}\n) AS q(${aliases.join(', ')})`;
}

/**
 * Bytes a batch aims at; rows per FETCH follow the last batch's line length, within
 * MIN_BATCH..MAX_BATCH. 1 MB batches let PGlite's heap grow by 50-100 MB over a million rows.
 */
const BATCH_BYTES = 262_144;
/** The first batch is small: it decides between a 422 and a 200, and the client gets bytes soon. */
const FIRST_BATCH = 1_000;
const MIN_BATCH = 10;
const MAX_BATCH = 20_000;

/**
 * Streams the whole result as CSV. The first batch is read before `open` is called, so a query
 * that fails at once fails before anything is sent (the caller can still answer with an error).
 * Each batch is written only once the client has taken the previous one (back-pressure; the next
 * batch is fetched meanwhile, so at most two are held), and the session's deadline covers the
 * whole export: a slow reader holds the connection at most that long. A failure after `open`
 * destroys the stream (the client sees a cut download) and rejects. Resolves to the rows written.
 */
export async function exportCsv(db: Db, workspaceId: string, checked: CheckedQuery, limits: QueryLimits, signal: AbortSignal | undefined, open: () => Writable): Promise<number> {
  const valueMax = limits.valueMaxBytes ?? QUERY_LIMIT_DEFAULTS.valueMaxBytes;
  let out: Writable | undefined;
  try {
    return await inStore(db, workspaceId, limits, signal, async (session) => {
      const { names, types } = await shapeOf(session, checked.text);
      if (session.client) {
        return await exportByCopy(session, session.client, names, linesSelect(checked.text, types), valueMax, () => (out = open()));
      }
      await declareCursor(session, linesSelect(checked.text, types));
      let wanted = FIRST_BATCH;
      let page = await fetchRows<{ line: string }>(session, wanted);
      // no row, no header: as before, the header comes from the rows
      let chunk = page.length > 0 && names.length > 0 ? csvLine(names) : '';
      // the first batch's lines are checked before anything is sent: a value over the cap is a 422
      let text = joinLines(page, names, valueMax);
      const stream = open();
      out = stream;
      let count = 0;
      for (;;) {
        count += page.length;
        const done = page.length < wanted;
        wanted = nextBatch(text.length, page.length);
        // the database reads the next batch while the client takes this one
        const next = done ? undefined : fetchRows<{ line: string }>(session, wanted);
        next?.catch(() => undefined);
        chunk += text;
        if (chunk !== '' && !stream.write(Buffer.from(chunk))) {
          // a failed wait (client gone, deadline) leaves the transaction only once its FETCH has settled
          await drained(stream, session.signal).catch(async (error: unknown) => {
            await next?.catch(() => undefined);
            throw error;
          });
        }
        chunk = '';
        if (!next) break;
        page = await next;
        text = joinLines(page, names, valueMax);
      }
      stream.end();
      return count;
    });
  } catch (error) {
    out?.destroy(error instanceof Error ? error : undefined);
    throw error;
  }
}

/** Bytes of CSV per write of a COPY export. */
const COPY_CHUNK = 131_072;

/**
 * The PostgreSQL path: the lines come from one `COPY (<lines>) TO STDOUT (FORMAT binary)` in the
 * same fenced transaction, as bytes (csvCopy.ts), and are copied into 128 KB chunks written to the
 * stream. While the stream is full the connection's socket is not read, so the backend waits on
 * its send. As with the cursor, the first FIRST_BATCH rows (or all, when fewer) are read before
 * `open`, so a query that fails at once is still a 422. statement_timeout bounds the one COPY and
 * the session's deadline cancels it: a session that ends (deadline, client gone, a value over the
 * cap) reads on and drops the rest, since the backend acts on the cancel only once it can send.
 */
async function exportByCopy(session: StoreSession, client: pg.PoolClient, names: readonly string[], select: string, valueMax: number, open: () => Writable): Promise<number> {
  const copy = `COPY (\n${select}\n) TO STDOUT (FORMAT binary)`;
  await requireCopyToStdout(copy);
  session.check();
  let stream: Writable | undefined;
  let chunk = Buffer.allocUnsafe(COPY_CHUNK);
  let used = 0;
  let count = 0;
  /** chunks filled while the stream was full (at most about one socket read's worth) */
  const waiting: Buffer[] = [];
  let full = false;

  const onDrain = () => {
    full = false;
    while (!full && waiting.length > 0) push(waiting.shift()!);
    if (!full) run.resume();
  };
  const onClose = () => {
    if (!stream?.writableFinished) session.abort(new QueryFailed(CLIENT_GONE_MESSAGE, false));
  };
  const opened = (): Writable => {
    if (!stream) stream = open().on('drain', onDrain).on('close', onClose);
    return stream;
  };
  const push = (bytes: Buffer) => {
    if (full) waiting.push(bytes);
    else if (!opened().write(bytes)) {
      full = true;
      run.pause();
    }
  };
  const flush = () => {
    if (used === 0) return;
    push(chunk.subarray(0, used));
    chunk = Buffer.allocUnsafe(COPY_CHUNK);
    used = 0;
  };
  const append = (data: Buffer, start: number, end: number) => {
    if (used + end - start > chunk.length) {
      flush();
      if (end - start > chunk.length) chunk = Buffer.allocUnsafe(end - start);
    }
    used += data.copy(chunk, used, start, end);
  };
  // no row, no header: as with the cursor, the header comes from the rows
  const header = names.length > 0 ? Buffer.from(csvLine(names)) : undefined;
  const onRow = (data: Buffer, start: number, end: number) => {
    // a line can only hold a value over the cap when it is that long itself
    if (end - start > valueMax) checkValues(data.toString('utf8', start, end), names, valueMax);
    if (count === 0 && header) append(header, 0, header.length);
    append(data, start, end);
    count += 1;
    if (count === FIRST_BATCH && !stream) flush();
  };
  const run = copyRows(client, copy, onRow, (error) => session.abort(error instanceof QueryFailed ? error : new QueryFailed(`The export failed: ${String(error)}`, false)));
  const onAbort = () => run.discard();
  session.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await run.done;
    session.check();
    flush();
    const out = opened();
    for (const bytes of waiting.splice(0)) out.write(bytes);
    out.end();
    return count;
  } finally {
    session.signal.removeEventListener('abort', onAbort);
    stream?.off('drain', onDrain).off('close', onClose);
  }
}

/**
 * Throws unless `text` is exactly one COPY of a SELECT to the client in binary: no file, no
 * program, no FROM, no other option. The role could not write a file anyway (that takes
 * pg_write_server_files), but nothing around the checked text may change what the statement is.
 */
async function requireCopyToStdout(text: string): Promise<void> {
  const parsed = (await parse(text)) as { stmts?: { stmt: { CopyStmt?: Record<string, unknown> } }[] };
  const copy = parsed.stmts?.length === 1 ? parsed.stmts[0]?.stmt.CopyStmt : undefined;
  const keys = copy ? Object.keys(copy).sort().join(',') : '';
  const options = JSON.stringify((copy?.options as { DefElem?: { defname?: unknown; arg?: unknown } }[] | undefined)?.map((o) => [o.DefElem?.defname, o.DefElem?.arg]));
  const query = copy?.query as Record<string, unknown> | undefined;
  if (keys !== 'options,query' || !query || Object.keys(query).join() !== 'SelectStmt' || options !== '[["format",{"String":{"sval":"binary"}}]]') {
    throw new QueryFailed('The query cannot be run as one statement', false);
  }
}

function joinLines(page: readonly { line: string }[], names: readonly string[], valueMax: number): string {
  let text = '';
  for (const { line } of page) {
    // a line can only hold a value over the cap when it is that long itself (3 bytes a character at most)
    if (line.length * 3 > valueMax) checkValues(line, names, valueMax);
    text += line;
  }
  return text;
}

/** Rows of the next FETCH: about BATCH_BYTES of lines as long as the last batch's. */
function nextBatch(chars: number, rows: number): number {
  if (rows === 0) return MAX_BATCH;
  return Math.max(MIN_BATCH, Math.min(MAX_BATCH, Math.floor((BATCH_BYTES * rows) / Math.max(1, chars))));
}

/** Refuses the query when a cell of `line` is larger than the value cap (bytes of UTF-8, as quoted). */
function checkValues(line: string, names: readonly string[], valueMax: number): void {
  let column = 0;
  let start = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 34 /* " */) quoted = !quoted;
    else if (!quoted && (c === 44 /* , */ || c === 13 /* \r */)) {
      if (i - start > valueMax / 3 && Buffer.byteLength(line.slice(start, i)) > valueMax) throw valueTooLarge(names[column] ?? String(column + 1), valueMax);
      column += 1;
      start = i + 1;
    }
  }
}

/** Resolves when `out` wants more; rejects when it closes first or the session is aborted. */
async function drained(out: Writable, signal: AbortSignal): Promise<void> {
  if (out.destroyed) throw new QueryFailed(CLIENT_GONE_MESSAGE, false);
  const closed = new AbortController();
  try {
    await Promise.race([
      once(out, 'drain', { signal }),
      once(out, 'close', { signal: closed.signal }).then(() => {
        throw new QueryFailed(CLIENT_GONE_MESSAGE, false);
      }),
    ]);
  } catch (error) {
    if (signal.aborted) throw signal.reason as Error;
    throw error;
  } finally {
    closed.abort();
  }
}
