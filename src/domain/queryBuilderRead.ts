import {
  queryProblem,
  type AggregateFunction,
  type ColumnRef,
  type FilterOperator,
  type QueryAggregate,
  type QueryFilter,
  type QueryJoin,
  type QuerySort,
  type QueryState,
} from './queryBuilder';

// The query builder reads SQL back (issue 38): the SQL it writes, give or take spacing, the case
// of keywords, names written bare or quoted, a trailing semicolon and an aggregate without AS.
// Anything else — a comment, an alias on a table or a column, OR, a subquery, a function of its
// own, a join on another condition — is not readable: the builder says why and leaves the SQL as
// the analyst wrote it, as the chart builder does with JSON. A tokenizer and a recursive descent
// over that one grammar; names fold to lower case unless quoted, as PostgreSQL folds them.

type QueryRead = { readonly ok: true; readonly state: QueryState | null } | { readonly ok: false; readonly problem: string };

type Token =
  /** a bare word: a keyword or a name (`lower` is how PostgreSQL reads it as a name) */
  | { readonly kind: 'word'; readonly text: string; readonly lower: string; readonly at: number }
  /** a quoted name, its quotes undone */
  | { readonly kind: 'name'; readonly text: string; readonly at: number }
  | { readonly kind: 'string'; readonly value: string; readonly at: number }
  | { readonly kind: 'number'; readonly text: string; readonly at: number }
  | { readonly kind: 'symbol'; readonly text: string; readonly at: number };

class Unreadable extends Error {}

const GRAMMAR = 'The builder reads SELECT … FROM … [LEFT JOIN …] [WHERE …] [GROUP BY …] [ORDER BY …] [LIMIT …] as it writes them.';

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f']);
const OPERATOR_CHARS = new Set(['~', '!', '@', '#', '^', '&', '|', '`', '?', '+', '-', '*', '/', '%', '<', '>', '=']);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isWordStart = isLetter;
const isWordChar = (c: string | undefined) => isLetter(c) || isDigit(c) || c === '$';

/** A string literal from its opening quote; `escapes` for E'…' (only \\ and \' are read). */
function readString(text: string, start: number, escapes: boolean): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const c = text[i];
    if (c === undefined) throw new Unreadable('A text value is not closed.');
    if (c === "'") {
      if (text[i + 1] === "'") {
        value += "'";
        i += 2;
        continue;
      }
      return { value, end: i + 1 };
    }
    if (escapes && c === '\\') {
      const next = text[i + 1];
      if (next !== '\\' && next !== "'") throw new Unreadable('A text value uses an escape other than \\\\ or \\\'.');
      value += next;
      i += 2;
      continue;
    }
    value += c;
    i += 1;
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (WHITESPACE.has(c)) {
      i += 1;
    } else if ((c === '-' && text[i + 1] === '-') || (c === '/' && text[i + 1] === '*')) {
      throw new Unreadable('It has a comment, which the builder would drop.');
    } else if (c === '"') {
      let name = '';
      let j = i + 1;
      for (;;) {
        const d = text[j];
        if (d === undefined) throw new Unreadable('A quoted name is not closed.');
        if (d === '"') {
          if (text[j + 1] === '"') {
            name += '"';
            j += 2;
            continue;
          }
          break;
        }
        name += d;
        j += 1;
      }
      if (name === '') throw new Unreadable('It has an empty quoted name ("").');
      tokens.push({ kind: 'name', text: name, at: i });
      i = j + 1;
    } else if (c === "'") {
      const { value, end } = readString(text, i, false);
      tokens.push({ kind: 'string', value, at: i });
      i = end;
    } else if (isWordStart(c)) {
      let j = i + 1;
      while (isWordChar(text[j])) j += 1;
      const word = text.slice(i, j);
      if (text[j] === "'") {
        // E'…' is the escape string the builder writes; N'', B'', X'' and the like it does not
        if (word.toLowerCase() !== 'e') throw new Unreadable(`It has a ${word}'…' value, which the builder does not write.`);
        const { value, end } = readString(text, j, true);
        tokens.push({ kind: 'string', value, at: i });
        i = end;
      } else {
        tokens.push({ kind: 'word', text: word, lower: word.toLowerCase(), at: i });
        i = j;
      }
    } else if (isDigit(c)) {
      let j = i + 1;
      while (isDigit(text[j])) j += 1;
      if (text[j] === '.' && isDigit(text[j + 1])) {
        j += 1;
        while (isDigit(text[j])) j += 1;
      }
      if (isWordChar(text[j]) || text[j] === '.') throw new Unreadable(`It has a number the builder does not read (${text.slice(i, j + 1)}).`);
      tokens.push({ kind: 'number', text: text.slice(i, j), at: i });
      i = j;
    } else if (c === ':' && text[i + 1] === ':') {
      tokens.push({ kind: 'symbol', text: '::', at: i });
      i += 2;
    } else if ('(),.;'.includes(c)) {
      tokens.push({ kind: 'symbol', text: c, at: i });
      i += 1;
    } else if (OPERATOR_CHARS.has(c)) {
      // PostgreSQL reads the longest run of operator characters (up to a comment) as one operator
      let j = i + 1;
      while (OPERATOR_CHARS.has(text[j] ?? '') && !(text[j] === '-' && text[j + 1] === '-') && !(text[j] === '/' && text[j + 1] === '*')) j += 1;
      tokens.push({ kind: 'symbol', text: text.slice(i, j), at: i });
      i = j;
    } else {
      throw new Unreadable(`It has ${JSON.stringify(c)} where the builder writes none.`);
    }
  }
  return tokens;
}

/** Words PostgreSQL never reads as a bare column or table name (its reserved and type-function keywords). */
const RESERVED = new Set(
  (
    'all analyse analyze and any array as asc asymmetric both case cast check collate column constraint create current_catalog current_date current_role ' +
    'current_time current_timestamp current_user default deferrable desc distinct do else end except false fetch for foreign from grant group having in ' +
    'initially intersect into lateral leading limit localtime localtimestamp not null offset on only or order placing primary references returning select ' +
    'session_user some symmetric system_user table then to trailing true union unique user using variadic when where window with ' +
    'authorization binary collation concurrently cross current_schema freeze full ilike inner is isnull join left like natural notnull outer overlaps right similar tablesample verbose'
  ).split(' '),
);

// Maps, not objects: a word typed by the analyst must never find Object.prototype's `constructor`
const AGGREGATE_WORDS: ReadonlyMap<string, AggregateFunction> = new Map([['count', 'count'], ['sum', 'sum'], ['avg', 'avg'], ['min', 'min'], ['max', 'max']]);
const COMPARISONS: ReadonlyMap<string, FilterOperator> = new Map([['=', '='], ['<>', '≠'], ['!=', '≠'], ['<', '<'], ['<=', '≤'], ['>', '>'], ['>=', '≥']]);

/** A column as written: `name` or `qualifier.name`, resolved once the query's tables are known. */
type RawRef = { readonly qualifier: string | null; readonly name: string; readonly at: number };
type RawItem = { readonly kind: 'column'; readonly ref: RawRef } | { readonly kind: 'aggregate'; readonly fn: AggregateFunction; readonly ref: RawRef | null; readonly alias: string };
type RawFilter = { readonly ref: RawRef; readonly operator: FilterOperator; readonly value: string };
type RawSort = { readonly ref: RawRef; readonly direction: 'asc' | 'desc' };

class Parser {
  private index = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly text: string,
  ) {}

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.index + offset];
  }

  fail(): never {
    const token = this.peek();
    const where = token === undefined ? 'the end' : JSON.stringify(this.text.slice(token.at, token.at + 24).split(/[\s(),]/)[0] || this.text.slice(token.at, token.at + 1));
    throw new Unreadable(`It has something else at ${where}. ${GRAMMAR}`);
  }

  isWord(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === 'word' && token.lower === word;
  }

  isSymbol(symbol: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === 'symbol' && token.text === symbol;
  }

  acceptWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.index += 1;
    return true;
  }

  acceptSymbol(symbol: string): boolean {
    if (!this.isSymbol(symbol)) return false;
    this.index += 1;
    return true;
  }

  word(word: string): void {
    if (!this.acceptWord(word)) this.fail();
  }

  symbol(symbol: string): void {
    if (!this.acceptSymbol(symbol)) this.fail();
  }

  atEnd(): boolean {
    return this.index >= this.tokens.length;
  }

  /** Whether a name starts here: a quoted name or a bare word that is no reserved keyword. */
  isName(offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === 'name' || (token?.kind === 'word' && !RESERVED.has(token.lower));
  }

  name(): string {
    const token = this.peek();
    if (token?.kind === 'name') {
      this.index += 1;
      return token.text;
    }
    if (token?.kind === 'word' && !RESERVED.has(token.lower)) {
      this.index += 1;
      return token.lower;
    }
    return this.fail();
  }

  ref(): RawRef {
    const at = this.peek()?.at ?? this.text.length;
    const first = this.name();
    if (!this.acceptSymbol('.')) return { qualifier: null, name: first, at };
    return { qualifier: first, name: this.name(), at };
  }

  literal(): string {
    const token = this.peek();
    if (token?.kind === 'string') {
      this.index += 1;
      return token.value;
    }
    const negative = this.acceptSymbol('-');
    const number = this.peek();
    if (number?.kind !== 'number') return this.fail();
    this.index += 1;
    return `${negative ? '-' : ''}${number.text}`;
  }

  /** `ref::text`, as the text filters write their column. */
  textOf(): RawRef {
    const ref = this.ref();
    this.symbol('::');
    this.word('text');
    return ref;
  }

  item(): RawItem {
    const token = this.peek();
    const fn = token?.kind === 'word' && this.isSymbol('(', 1) ? AGGREGATE_WORDS.get(token.lower) : undefined;
    if (fn === undefined) {
      const ref = this.ref();
      if (this.isWord('as') || this.isName()) throw new Unreadable('It renames a column (AS), which the builder does not.');
      return { kind: 'column', ref };
    }
    this.index += 2;
    let aggregate: AggregateFunction = fn;
    let ref: RawRef | null = null;
    if (fn === 'count' && this.acceptSymbol('*')) {
      ref = null;
    } else if (fn === 'count') {
      if (!this.acceptWord('distinct')) throw new Unreadable('It counts the values of a column; the builder counts rows (count(*)) or distinct values (count(DISTINCT …)).');
      aggregate = 'distinct count';
      ref = this.ref();
    } else {
      ref = this.ref();
    }
    this.symbol(')');
    // without AS, PostgreSQL names the column after the function
    const alias = this.acceptWord('as') || this.isName() ? this.name() : fn;
    return { kind: 'aggregate', fn: aggregate, ref, alias };
  }

  condition(): RawFilter {
    const token = this.peek();
    const call = token?.kind === 'word' && this.isSymbol('(', 1) ? token.lower : null;
    if (call === 'strpos' || call === 'starts_with') {
      this.index += 2;
      this.word('lower');
      this.symbol('(');
      const ref = this.textOf();
      this.symbol(')');
      this.symbol(',');
      this.word('lower');
      this.symbol('(');
      const value = this.literal();
      this.symbol(')');
      this.symbol(')');
      if (call === 'strpos') {
        this.symbol('>');
        if (this.peek()?.kind !== 'number' || (this.peek() as { text: string }).text !== '0') this.fail();
        this.index += 1;
        return { ref, operator: 'contains', value };
      }
      return { ref, operator: 'starts with', value };
    }
    if (call === 'coalesce') {
      this.index += 2;
      const ref = this.textOf();
      this.symbol(',');
      if (this.literal() !== '') this.fail();
      this.symbol(')');
      const op = this.peek();
      const operator = op?.kind === 'symbol' ? COMPARISONS.get(op.text) : undefined;
      if (operator !== '=' && operator !== '≠') this.fail();
      this.index += 1;
      if (this.literal() !== '') this.fail();
      return { ref, operator: operator === '=' ? 'is empty' : 'is not empty', value: '' };
    }
    const ref = this.ref();
    const op = this.peek();
    const operator = op?.kind === 'symbol' ? COMPARISONS.get(op.text) : undefined;
    if (operator === undefined) this.fail();
    this.index += 1;
    return { ref, operator, value: this.literal() };
  }

  limit(): number {
    const token = this.peek();
    if (token?.kind !== 'number' || token.text.includes('.')) return this.fail();
    this.index += 1;
    // digits only, leading zeros as PostgreSQL reads them: a value beyond MAX_LIMIT (or Infinity,
    // past 308 digits) is reported by the state's check
    return Number(token.text);
  }
}

interface RawQuery {
  readonly star: boolean;
  readonly items: readonly RawItem[];
  readonly table: string;
  readonly joins: readonly { table: string; left: RawRef; right: RawRef }[];
  readonly filters: readonly RawFilter[];
  readonly groupBy: readonly RawRef[] | null;
  readonly sort: readonly RawSort[];
  readonly limit: number | null;
}

function parseQuery(parser: Parser): RawQuery {
  parser.word('select');
  const star = parser.acceptSymbol('*');
  const items: RawItem[] = [];
  if (!star) {
    if (parser.isWord('distinct')) throw new Unreadable('It selects DISTINCT rows; the builder groups instead.');
    do items.push(parser.item());
    while (parser.acceptSymbol(','));
  }
  parser.word('from');
  const table = parser.name();
  if (parser.isSymbol('.')) throw new Unreadable('It names a table with its schema; dataset queries name store tables alone.');
  if (parser.isWord('as') || parser.isName()) throw new Unreadable('It gives a table another name (an alias), which the builder does not.');
  const joins: { table: string; left: RawRef; right: RawRef }[] = [];
  while (parser.isWord('left') || parser.isWord('join') || parser.isWord('inner')) {
    if (!parser.acceptWord('left')) throw new Unreadable('It has an inner join; the builder writes LEFT JOIN, which keeps every row.');
    parser.acceptWord('outer');
    parser.word('join');
    const joined = parser.name();
    if (parser.isWord('as') || parser.isName()) throw new Unreadable('It gives a table another name (an alias), which the builder does not.');
    parser.word('on');
    const left = parser.ref();
    parser.symbol('=');
    const right = parser.ref();
    joins.push({ table: joined, left, right });
  }
  const filters: RawFilter[] = [];
  if (parser.acceptWord('where')) {
    do filters.push(parser.condition());
    while (parser.acceptWord('and'));
    if (parser.isWord('or')) throw new Unreadable('It has OR; the builder keeps rows that pass every filter (AND).');
  }
  let groupBy: RawRef[] | null = null;
  if (parser.acceptWord('group')) {
    parser.word('by');
    groupBy = [];
    do groupBy.push(parser.ref());
    while (parser.acceptSymbol(','));
  }
  if (parser.isWord('having')) throw new Unreadable('It filters groups (HAVING), which the builder does not.');
  const sort: RawSort[] = [];
  if (parser.acceptWord('order')) {
    parser.word('by');
    do {
      const ref = parser.ref();
      let direction: 'asc' | 'desc' = 'asc';
      if (parser.acceptWord('desc')) direction = 'desc';
      else parser.acceptWord('asc');
      if (parser.isWord('nulls')) throw new Unreadable('It places empty values itself (NULLS FIRST/LAST), which the builder does not.');
      sort.push({ ref, direction });
    } while (parser.acceptSymbol(','));
  }
  let limit: number | null = null;
  if (parser.acceptWord('limit')) limit = parser.limit();
  parser.acceptSymbol(';');
  if (!parser.atEnd()) parser.fail();
  return { star, items, table, joins, filters, groupBy, sort, limit };
}

/** The query's state from what was parsed: every column on a table of the query. */
function resolve(raw: RawQuery): QueryState {
  const tables = [raw.table];
  const joins: QueryJoin[] = [];
  for (const join of raw.joins) {
    // one side of ON is the joined table's key, the other a column of a table already joined
    const [own, other] = join.left.qualifier === join.table && join.right.qualifier !== join.table ? [join.left, join.right] : [join.right, join.left];
    if (own.qualifier !== join.table || other.qualifier === null || other.qualifier === join.table) {
      throw new Unreadable(`It joins ${join.table} on something other than one of its columns equal to a column of the tables before it.`);
    }
    if (!tables.includes(other.qualifier)) throw new Unreadable(`It joins ${join.table} on ${other.qualifier}, which is not a table before it.`);
    joins.push({ table: join.table, column: own.name, from: { table: other.qualifier, column: other.name } });
    tables.push(join.table);
  }
  const column = (ref: RawRef): ColumnRef => {
    if (ref.qualifier === null) {
      if (joins.length > 0) throw new Unreadable(`With a table joined, the builder names each column with its table (${ref.name} has none).`);
      return { table: raw.table, column: ref.name };
    }
    if (!tables.includes(ref.qualifier)) throw new Unreadable(`It names ${ref.qualifier}.${ref.name}, but ${ref.qualifier} is not a table of the query.`);
    return { table: ref.qualifier, column: ref.name };
  };

  const shown = raw.items.filter((item) => item.kind === 'column').map((item) => column(item.ref));
  const aggregates: QueryAggregate[] = raw.items.flatMap((item) => (item.kind === 'aggregate' ? [{ fn: item.fn, column: item.ref === null ? null : column(item.ref), alias: item.alias }] : []));
  const summarised = aggregates.length > 0 || raw.groupBy !== null;
  if (summarised) {
    if (raw.star) throw new Unreadable('It groups rows but shows every column (*).');
    const firstAggregate = raw.items.findIndex((item) => item.kind === 'aggregate');
    if (firstAggregate >= 0 && raw.items.slice(firstAggregate).some((item) => item.kind === 'column')) throw new Unreadable('It shows a group after an aggregate; the builder shows the groups first.');
    const grouped = (raw.groupBy ?? []).map(column);
    const missing = shown.find((ref) => !grouped.some((g) => g.table === ref.table && g.column === ref.column));
    if (missing !== undefined) throw new Unreadable(`It shows ${missing.column} without grouping by it.`);
    const hidden = grouped.find((ref) => !shown.some((s) => s.table === ref.table && s.column === ref.column));
    if (hidden !== undefined) throw new Unreadable(`It groups by ${hidden.column} without showing it.`);
  }

  const filters: QueryFilter[] = raw.filters.map((filter) => ({ column: column(filter.ref), operator: filter.operator, value: filter.value }));
  const sort: QuerySort[] = raw.sort.map(({ ref, direction }) => {
    // a bare name is a result column first, as PostgreSQL reads ORDER BY
    const index = ref.qualifier === null ? aggregates.findIndex((aggregate) => aggregate.alias === ref.name) : -1;
    return index >= 0 ? { key: { kind: 'aggregate', index }, direction } : { key: { kind: 'column', column: column(ref) }, direction };
  });
  return {
    table: raw.table,
    joins,
    columns: summarised ? [] : shown,
    filters,
    groupBy: summarised ? shown : [],
    aggregates,
    sort,
    limit: raw.limit,
  };
}

/**
 * The builder's state of a query, null for no query yet, or why the builder cannot read it. What
 * it reads it writes back meaning the same (queryProblem: nothing it would write differently).
 */
export function readQuery(sql: string): QueryRead {
  if (sql.trim() === '') return { ok: true, state: null };
  // every query the builder writes starts so: other text is not read through to its end
  if (!/^select[ \t\n\r\f*"]/i.test(sql.replace(/^[ \t\n\r\f]+/, '').slice(0, 7))) return { ok: false, problem: `It does not start with SELECT. ${GRAMMAR}` };
  try {
    const state = resolve(parseQuery(new Parser(tokenize(sql), sql)));
    const problem = queryProblem(state);
    return problem === null ? { ok: true, state } : { ok: false, problem };
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, problem: error.message };
    throw error;
  }
}
