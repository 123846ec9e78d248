import { parseMemo } from './parseMemo';
import { parse, scan } from './sqlParser';

// A dataset's query is text a workspace admin typed; it runs against the workspace's default
// store. Before it goes near the database it is parsed by PostgreSQL's own parser and walked:
// exactly one SELECT, tables only by bare name (the store's tables or the query's own CTEs),
// functions only from an allow-list, nothing that locks, writes or creates. The runner then adds
// a READ ONLY transaction, a search_path of the store schema and a statement timeout (queryRunner.ts).

/** Functions a query may call: aggregates, window, date/time, string, math, casts and JSON builders. */
export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([
  // aggregates
  'count', 'sum', 'avg', 'min', 'max', 'string_agg', 'array_agg', 'bool_and', 'bool_or', 'every', 'stddev', 'stddev_pop',
  'stddev_samp', 'variance', 'var_pop', 'var_samp', 'percentile_cont', 'percentile_disc', 'mode', 'corr', 'covar_pop',
  'covar_samp', 'regr_slope', 'regr_intercept', 'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg',
  // window
  'row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value',
  // date and time
  'now', 'date_trunc', 'date_part', 'extract', 'age', 'make_date', 'make_time', 'make_timestamp', 'make_timestamptz', 'make_interval',
  'to_char', 'to_date', 'to_timestamp', 'to_number', 'justify_days', 'justify_hours', 'justify_interval', 'isfinite', 'date_bin',
  'timezone', 'current_date', 'current_timestamp', 'localtimestamp', 'statement_timestamp', 'transaction_timestamp',
  'generate_series', 'overlaps',
  // strings
  'lower', 'upper', 'initcap', 'length', 'char_length', 'character_length', 'octet_length', 'concat', 'concat_ws', 'substr',
  'substring', 'replace', 'translate', 'trim', 'btrim', 'ltrim', 'rtrim', 'left', 'right', 'lpad', 'rpad', 'split_part',
  'strpos', 'position', 'overlay', 'reverse', 'repeat', 'starts_with', 'format', 'md5', 'regexp_replace', 'regexp_match',
  'regexp_matches', 'regexp_split_to_array', 'string_to_array', 'array_to_string', 'unaccent', 'quote_literal', 'chr', 'ascii',
  // math
  'abs', 'round', 'ceil', 'ceiling', 'floor', 'trunc', 'power', 'pow', 'sqrt', 'cbrt', 'mod', 'ln', 'log', 'log10', 'exp',
  'sign', 'div', 'greatest', 'least', 'random', 'pi', 'degrees', 'radians', 'width_bucket', 'num_nonnulls', 'num_nulls',
  // casts and JSON
  'cast', 'to_json', 'to_jsonb', 'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array',
  'json_extract_path_text', 'jsonb_extract_path_text', 'jsonb_array_length', 'json_array_length', 'array_length', 'cardinality',
  'unnest', 'coalesce', 'nullif',
]);

/** Type names a cast may not name: reg* types look objects up in the system catalogs. */
const REFUSED_TYPE = /^reg|^pg_|^(?:txid_snapshot|xid8?|cid|tid|oid)$/i;

/**
 * Node types of the parse tree that are never part of a read: statements other than SELECT
 * (a data-modifying CTE carries one), row locks, parameters, cursors.
 */
const REFUSED_NODES = new Set([
  'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'LockingClause', 'ParamRef', 'CurrentOfExpr', 'intoClause',
]);

export interface CheckedQuery {
  /** the statement's own text (without a trailing semicolon), ready to be wrapped */
  text: string;
  /** the store tables it reads (bare names, lower-case as PostgreSQL folds them), sorted */
  tables: string[];
}

/** A refused query: the message says why, in words an analyst can act on. */
export class QueryRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryRefused';
  }
}

const MAX_DEPTH = 200;

/**
 * The query checked against the rules above; throws QueryRefused naming the first thing refused.
 * The check is a pure function of the text, so its answer (or refusal) is kept per process by the
 * exact text (./parseMemo.ts): one dataset page load (its body's freshness, then its data, then a
 * continuous poll every 5 s) parses its SQL once, not once per request.
 */
export async function checkQuery(query: string): Promise<CheckedQuery> {
  const checked = await checkedOnce(query);
  return { text: checked.text, tables: [...checked.tables] };
}

const checkedOnce = parseMemo((query: string) => checkText(query), { keep: (error) => error instanceof QueryRefused });

/**
 * The check itself, unmemoised. `cut` takes the statement's text out of the query (statementText);
 * a test hands in a faulty one to reach the re-parse below on its own.
 */
export async function checkText(query: string, cut: typeof statementText = statementText): Promise<CheckedQuery> {
  if (query.trim() === '') throw new QueryRefused('The query is empty');
  let tree: { stmts?: { stmt: Record<string, unknown>; stmt_location?: number; stmt_len?: number }[] };
  try {
    tree = (await parse(query)) as typeof tree;
  } catch (error) {
    throw new QueryRefused(`The query is not valid SQL: ${error instanceof Error ? error.message : String(error)}`);
  }
  const statements = tree.stmts ?? [];
  if (statements.length !== 1) throw new QueryRefused('Exactly one SELECT statement is allowed');
  const [only] = statements;
  if (!only || !('SelectStmt' in only.stmt)) throw new QueryRefused(`Only SELECT is allowed, not ${statementName(Object.keys(only?.stmt ?? {})[0])}`);
  await refuseStraySemicolons(query, only.stmt_location ?? 0);

  const ctes = new Set<string>();
  const relations = new Set<string>();
  collect(only.stmt, ctes, relations, 0);
  const tables = [...relations].filter((name) => !ctes.has(name)).sort();
  const text = cut(query, only.stmt_location, only.stmt_len);
  // The text is what runs: prove it parses to the very statement checked above, nothing more
  // (when it is the whole query, unchanged, that tree is the one just checked).
  if (text !== query && !(await sameStatement(text, only.stmt))) throw new QueryRefused('The query could not be read as one statement');
  return { text, tables };
}

/**
 * The parser drops empty statements, so `;SELECT ...` counts as one: only a single semicolon
 * after the statement may stand outside it. (Token offsets are bytes, like the statement's.)
 */
async function refuseStraySemicolons(query: string, location: number): Promise<void> {
  // The scanner's JSON breaks on raw control characters in a token's text; they can only stand
  // inside literals, names or comments here (the query parsed), and a space keeps every offset.
  const scannable = query.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ');
  let tokens: { tokenName: string; start: number }[];
  try {
    tokens = (await scan(scannable)).tokens;
  } catch {
    throw new QueryRefused('The query could not be read as one statement');
  }
  const semicolons = tokens.filter((token) => token.tokenName === 'ASCII_59');
  if (semicolons.length > 1 || semicolons.some((token) => token.start < location)) {
    throw new QueryRefused('Exactly one SELECT statement is allowed: remove the extra semicolon');
  }
}

/**
 * The statement's own text. The parser's offsets count bytes of the UTF-8 text, not JavaScript
 * characters: slicing the string would shift by one per multi-byte character before the statement
 * and hand the runner text the guard never checked (issue 17).
 */
export function statementText(query: string, location = 0, length?: number): string {
  const bytes = Buffer.from(query, 'utf8');
  const end = length ? location + length : bytes.length;
  return bytes.subarray(location, end).toString('utf8').trim();
}

async function sameStatement(text: string, checked: Record<string, unknown>): Promise<boolean> {
  let again: { stmts?: { stmt: Record<string, unknown> }[] };
  try {
    again = (await parse(text)) as typeof again;
  } catch {
    return false;
  }
  return again.stmts?.length === 1 && treeKey(again.stmts[0]?.stmt) === treeKey(checked);
}

/** A parse tree as text without its source positions, which differ once the statement is cut out. */
export function treeKey(tree: unknown): string {
  return JSON.stringify(tree, (key, value: unknown) => (typeof value === 'number' && /(^|_)location$|^stmt_len$/.test(key) ? undefined : value));
}

function collect(node: unknown, ctes: Set<string>, relations: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH) throw new QueryRefused('The query is nested too deeply');
  if (Array.isArray(node)) {
    for (const item of node) collect(item, ctes, relations, depth + 1);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    if (REFUSED_NODES.has(key)) throw new QueryRefused(refusal(key));
    switch (key) {
      case 'RangeVar':
        relations.add(relationName(value as RangeVar));
        break;
      case 'CommonTableExpr': {
        const name = (value as { ctename?: string }).ctename ?? '';
        if (name.toLowerCase().startsWith('pg_')) throw new QueryRefused(`The name ${name} is reserved for the system catalogs`);
        ctes.add(name);
        break;
      }
      case 'FuncCall':
        checkFunction(value as FuncCall);
        break;
      case 'TypeName':
      case 'typeName':
        checkType(value as TypeNameNode);
        break;
      default:
        break;
    }
    collect(value, ctes, relations, depth + 1);
  }
}

interface RangeVar {
  catalogname?: string;
  schemaname?: string;
  relname?: string;
}
interface FuncCall {
  funcname?: { String?: { sval?: string } }[];
}
interface TypeNameNode {
  names?: { String?: { sval?: string } }[];
}

function relationName(range: RangeVar): string {
  const name = range.relname ?? '';
  if (range.schemaname !== undefined || range.catalogname !== undefined) {
    throw new QueryRefused(`Tables are named without a schema: ${[range.catalogname, range.schemaname, name].filter(Boolean).join('.')} is refused`);
  }
  if (name.toLowerCase().startsWith('pg_')) throw new QueryRefused(`The system catalogs cannot be read (${name})`);
  return name;
}

function checkFunction(call: FuncCall): void {
  const parts = (call.funcname ?? []).map((p) => p.String?.sval ?? '');
  const name = parts[parts.length - 1] ?? '';
  // The parser itself qualifies SQL-standard forms (EXTRACT, SUBSTRING ... FROM) with pg_catalog.
  const qualifiedOk = parts.length === 1 || (parts.length === 2 && parts[0] === 'pg_catalog');
  if (!qualifiedOk || !ALLOWED_FUNCTIONS.has(name.toLowerCase())) {
    throw new QueryRefused(`The function ${parts.join('.')} is not allowed in a dataset query`);
  }
}

function checkType(type: TypeNameNode): void {
  const parts = (type.names ?? []).map((p) => p.String?.sval ?? '');
  const name = parts[parts.length - 1] ?? '';
  if (parts.length > 2 || (parts.length === 2 && parts[0] !== 'pg_catalog') || REFUSED_TYPE.test(name)) {
    throw new QueryRefused(`The type ${parts.join('.')} is not allowed in a dataset query`);
  }
}

function refusal(node: string): string {
  switch (node) {
    case 'InsertStmt':
    case 'UpdateStmt':
    case 'DeleteStmt':
    case 'MergeStmt':
      return 'A dataset query only reads: INSERT, UPDATE, DELETE and MERGE are refused';
    case 'LockingClause':
      return 'A dataset query cannot lock rows (FOR UPDATE/SHARE)';
    case 'intoClause':
      return 'SELECT INTO creates a table and is refused';
    case 'ParamRef':
      return 'Parameters such as $1 cannot be used in a dataset query: write the value itself';
    case 'CurrentOfExpr':
      return 'WHERE CURRENT OF needs a cursor, which a dataset query does not have';
    default:
      return 'The query uses something a dataset query may not';
  }
}

// The statements people type, by the parser's node names: a refusal names what they wrote.
const STATEMENT_NAMES: Readonly<Record<string, string>> = {
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
  CreateStmt: 'CREATE TABLE',
  CreateTableAsStmt: 'CREATE TABLE AS',
  DropStmt: 'DROP',
  TruncateStmt: 'TRUNCATE',
  CopyStmt: 'COPY',
  VariableSetStmt: 'SET',
  VariableShowStmt: 'SHOW',
  TransactionStmt: 'a transaction command (BEGIN, COMMIT, ROLLBACK)',
  ExplainStmt: 'EXPLAIN',
  AlterTableStmt: 'ALTER TABLE',
  GrantStmt: 'GRANT or REVOKE',
  DoStmt: 'DO',
  CallStmt: 'CALL',
  CreateFunctionStmt: 'CREATE FUNCTION',
  ViewStmt: 'CREATE VIEW',
  IndexStmt: 'CREATE INDEX',
};

/** A statement's name as SQL says it (DeleteStmt → DELETE; an unlisted CreateRoleStmt → CREATE ROLE). */
export function statementName(node: string | undefined): string {
  if (node === undefined) return 'an empty statement';
  return STATEMENT_NAMES[node] ?? node.replace(/Stmt$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase();
}
