import { sql } from 'kysely';
import { parseMemo } from './parseMemo';
import { parse } from './sqlParser';
import { QueryFailed, type StoreSession } from './querySession';

// The one cursor a store session reads a dataset query through, and the proof that a text the
// runner builds around the guard's checked text is still exactly one statement of the expected
// kind: DECLARE and FETCH take no parameters, so they go through the simple protocol, which runs
// every statement it is sent.

const CURSOR = 'dataset_rows';

type Row = Record<string, unknown>;

/** Throws unless `text` parses to exactly one statement whose node is `kind` (e.g. 'SelectStmt'). */
export async function requireOneStatement(text: string, kind: string): Promise<void> {
  if ((await onlyStatementOf(text)) !== kind) throw new QueryFailed('The query cannot be run as one statement', false);
}

/** The node type of the one statement `text` parses to (undefined: none or several); kept per text, as parsing is pure. */
const onlyStatementOf = parseMemo(async (text: string): Promise<string | undefined> => {
  const parsed = (await parse(text)) as { stmts?: { stmt: Record<string, unknown> }[] };
  const [only] = parsed.stmts ?? [];
  return parsed.stmts?.length === 1 && only ? Object.keys(only.stmt)[0] : undefined;
});

/** Declares the cursor over `select` (a SELECT built around a checked text). */
export async function declareCursor(session: StoreSession, select: string): Promise<void> {
  const declare = `DECLARE ${CURSOR} NO SCROLL CURSOR FOR\n${select}\n`;
  await requireOneStatement(declare, 'DeclareCursorStmt');
  await sql.raw(declare).execute(session.trx);
}

export async function fetchRows<R extends Row = Row>(session: StoreSession, count: number): Promise<R[]> {
  // PGlite answers without a turn of the event loop: let a closed socket or the deadline's timer be heard
  await new Promise(setImmediate);
  session.check();
  const { rows } = await sql.raw<R>(`FETCH FORWARD ${Math.max(1, Math.floor(count))} FROM ${CURSOR}`).execute(session.trx);
  session.check();
  return rows;
}
