import { editDistance } from './searchMatch';

// What to say when a dataset query names a table the store does not have: the table meant, found
// among the store's own (a typo, or the prefix a pipeline writes before its streams), or the list
// of tables there are. Pure, for the server's message and the SPA alike.

const MAX_NAME_LENGTH = 63;

/**
 * The store's tables a missing name most likely meant, best first (at most three): the same name
 * behind a pipeline's prefix, then names a typo or two away.
 */
export function tablesMeant(missing: string, tables: readonly string[]): string[] {
  // PostgreSQL names are at most 63 bytes: a longer one is no typo of a table, and measuring its
  // distance to every table would only cost time
  if (missing.length > MAX_NAME_LENGTH) return [];
  const name = missing.toLowerCase();
  const limit = Math.max(1, Math.floor(name.length / 4));
  const scored = tables
    .filter((t) => t !== name)
    .map((t) => ({ t, score: t.endsWith(`_${name}`) ? 0 : editDistance(name, t, limit) }))
    .filter((s) => s.score <= limit)
    .sort((a, b) => a.score - b.score || a.t.localeCompare(b.t));
  return scored.slice(0, 3).map((s) => s.t);
}

const LISTED = 10;

/** The message for tables no pipeline has loaded: what was meant when it can tell, else what there is. */
export function missingTablesMessage(missing: readonly string[], tables: readonly string[]): string {
  const base = `No pipeline has loaded ${missing.join(', ')} into the store yet.`;
  const meant = missing.flatMap((m) => {
    const found = tablesMeant(m, tables);
    return found.length === 0 ? [] : [missing.length === 1 ? found.join(' or ') : `${found.join(' or ')} for ${m}`];
  });
  if (meant.length > 0) return `${base} Did you mean ${meant.join(', ')}?`;
  if (tables.length === 0) return `${base} The store has no tables: run a pipeline that loads into it first.`;
  const more = tables.length > LISTED ? ` and ${tables.length - LISTED} more` : '';
  return `${base} The store has ${tables.slice(0, LISTED).join(', ')}${more}.`;
}

/** What the store browser's filter keeps: tables whose name, or one of whose columns, contains the text. */
export function tablesMatching<T extends { readonly name: string; readonly columns: readonly { readonly name: string }[] }>(tables: readonly T[], filter: string): readonly T[] {
  const text = filter.trim().toLowerCase();
  if (text === '') return tables;
  return tables.filter((t) => t.name.toLowerCase().includes(text) || t.columns.some((c) => c.name.toLowerCase().includes(text)));
}
