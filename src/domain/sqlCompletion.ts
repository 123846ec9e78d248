// Autocomplete of a dataset's SQL (issue 20): the store's table names where a table is expected
// (after FROM or JOIN), their columns elsewhere — those of a table or alias before a dot, else
// those of the tables the query reads, else every table's. Nothing inside a string or a comment.
// Pure: the editor asks it on every keystroke with the store browser's tables.

export interface CompletionTable {
  readonly name: string;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
}

export interface CompletionOption {
  readonly label: string;
  /** what replaces the typed word: the name, quoted when SQL needs it */
  readonly insert: string;
  readonly kind: 'table' | 'column';
  /** a column's type and table, a table's column count */
  readonly detail: string;
}

interface Completion {
  /** the typed word runs from `from` to `to`; the chosen option replaces it */
  readonly from: number;
  readonly to: number;
  readonly options: readonly CompletionOption[];
}

export const MAX_COMPLETIONS = 50;

/** Longer texts get no completion: re-reading them on every keystroke would make typing lag. */
export const MAX_COMPLETION_TEXT = 20_000;

/** A character of a name: A–Z, a–z, 0–9, _ and $ (by code, as this runs on every keystroke). */
function isWordChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}
const PLAIN_NAME = /^[a-z_][a-z0-9_$]*$/;
// Words that would be read as SQL rather than as a name, and words that are never an alias.
const KEYWORDS = new Set(
  'all and any as asc between by case cross desc distinct else end except false from full group having in inner intersect is join lateral left like limit natural not null offset on or order outer right select then true union using when where window with'.split(' '),
);
const TABLE_CONTEXT = new Set(['from', 'join']);

/** The name as SQL must write it: quoted when it is not a plain lower-case name or is a keyword. */
export function sqlName(name: string): string {
  return PLAIN_NAME.test(name) && !KEYWORDS.has(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

type Token = { readonly text: string; readonly kind: 'word' | 'quoted' | 'symbol' };

/**
 * The tokens of `text` before `end`, or null when `end` is inside a string literal, a quoted name
 * or a comment (no completion there).
 */
function tokensBefore(text: string, end: number): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < end) {
    const c = text[i]!;
    if (c === '-' && text[i + 1] === '-') {
      const newline = text.indexOf('\n', i);
      if (newline === -1 || newline >= end) return null;
      i = newline + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close === -1 || close + 2 > end) return null;
      i = close + 2;
    } else if (c === "'" || c === '"') {
      // a doubled quote inside is the quote itself
      let j = i + 1;
      for (;;) {
        const close = text.indexOf(c, j);
        if (close === -1 || close >= end) return null;
        if (text[close + 1] === c) j = close + 2;
        else {
          if (c === '"') tokens.push({ text: text.slice(i + 1, close).replace(/""/g, '"'), kind: 'quoted' });
          i = close + 1;
          break;
        }
      }
    } else if (isWordChar(c)) {
      let j = i + 1;
      while (j < end && isWordChar(text[j])) j += 1;
      tokens.push({ text: text.slice(i, j), kind: 'word' });
      i = j;
    } else {
      if (!/\s/.test(c)) tokens.push({ text: c, kind: 'symbol' });
      i += 1;
    }
  }
  return tokens;
}

/** Tables the query names after FROM or JOIN, and the aliases given to them. */
function tablesNamed(tokens: readonly Token[], tables: readonly CompletionTable[]): { named: CompletionTable[]; aliases: Map<string, CompletionTable> } {
  const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  const named: CompletionTable[] = [];
  const aliases = new Map<string, CompletionTable>();
  tokens.forEach((token, index) => {
    if (token.kind !== 'word' || !TABLE_CONTEXT.has(token.text.toLowerCase()) || index + 1 >= tokens.length) return;
    const nameToken = tokens[index + 1]!;
    if (nameToken.kind === 'symbol') return;
    // by lower-case name, quoted or not: completion offers a table however its name was written
    const table = byName.get(nameToken.text.toLowerCase());
    if (!table) return;
    if (!named.includes(table)) named.push(table);
    aliases.set(table.name.toLowerCase(), table);
    let next = tokens[index + 2];
    if (next?.kind === 'word' && next.text.toLowerCase() === 'as') next = tokens[index + 3];
    if (next && next.kind !== 'symbol' && !KEYWORDS.has(next.text.toLowerCase())) aliases.set(next.text.toLowerCase(), table);
  });
  return { named, aliases };
}

function ranked<T>(items: readonly T[], nameOf: (item: T) => string, word: string): T[] {
  const w = word.toLowerCase();
  const starts = items.filter((i) => nameOf(i).toLowerCase().startsWith(w));
  const contains = w === '' ? [] : items.filter((i) => !nameOf(i).toLowerCase().startsWith(w) && nameOf(i).toLowerCase().includes(w));
  return [...starts, ...contains];
}

const tableOption = (t: CompletionTable): CompletionOption => ({ label: t.name, insert: sqlName(t.name), kind: 'table', detail: `${t.columns.length} column${t.columns.length === 1 ? '' : 's'}` });

function columnOptions(tables: readonly CompletionTable[], word: string, withTable: boolean): CompletionOption[] {
  const seen = new Set<string>();
  const options: CompletionOption[] = [];
  for (const table of tables) {
    for (const column of ranked(table.columns, (c) => c.name, word)) {
      // one entry per column name when several tables have it (id, created…)
      if (seen.has(column.name)) continue;
      seen.add(column.name);
      options.push({ label: column.name, insert: sqlName(column.name), kind: 'column', detail: withTable ? `${column.type} · ${table.name}` : column.type });
    }
  }
  // starting matches first across tables, then the rest
  const w = word.toLowerCase();
  return [...options.filter((o) => o.label.toLowerCase().startsWith(w)), ...options.filter((o) => !o.label.toLowerCase().startsWith(w))];
}

/**
 * What to offer at `cursor` in `text`, or null: inside a string or comment, with no word begun
 * outside a table or dot position, or when nothing but the word itself matches.
 */
export function sqlCompletion(text: string, cursor: number, tables: readonly CompletionTable[]): Completion | null {
  if (text.length > MAX_COMPLETION_TEXT) return null;
  const at = Math.max(0, Math.min(Math.trunc(cursor), text.length));
  let from = at;
  while (from > 0 && isWordChar(text[from - 1])) from -= 1;
  let to = at;
  while (to < text.length && isWordChar(text[to])) to += 1;
  const tokens = tokensBefore(text, from);
  if (tokens === null) return null;
  const word = text.slice(from, at);
  const previous = tokens.at(-1);
  const afterDot = previous?.kind === 'symbol' && previous.text === '.' && text[from - 1] === '.';
  // FROM usually comes after the columns being typed: the tables are read from the whole text
  const { named, aliases } = tablesNamed(tokensBefore(text, text.length) ?? tokens, tables);

  let options: CompletionOption[];
  if (afterDot) {
    const qualifier = tokens.at(-2);
    const table = qualifier && qualifier.kind !== 'symbol' ? aliases.get(qualifier.text.toLowerCase()) ?? tables.find((t) => t.name.toLowerCase() === qualifier.text.toLowerCase()) : undefined;
    if (!table) return null;
    options = columnOptions([table], word, false);
  } else if (previous?.kind === 'word' && TABLE_CONTEXT.has(previous.text.toLowerCase())) {
    options = ranked(tables, (t) => t.name, word).map(tableOption);
  } else {
    if (word === '' || /^[0-9]/.test(word)) return null;
    const reading = named.length > 0 ? named : tables;
    options = [...columnOptions(reading, word, reading.length > 1), ...ranked(tables, (t) => t.name, word).map(tableOption)];
  }
  if (options.length === 0 || (options.length === 1 && options[0]!.label === word)) return null;
  return { from, to, options: options.slice(0, MAX_COMPLETIONS) };
}

/** The text with the option in place of the typed word, and where the cursor goes after it. */
export function applyCompletion(text: string, completion: Completion, option: CompletionOption): { text: string; cursor: number } {
  return { text: `${text.slice(0, completion.from)}${option.insert}${text.slice(completion.to)}`, cursor: completion.from + option.insert.length };
}
