// Column-level lineage of a dataset's query (issue 41): for each output column, the table columns
// it reads, through CTEs, joins, set operations, subqueries and expressions, each marked as a
// direct copy, a transformation or an aggregation (OpenLineage's IDENTITY, TRANSFORMATION and
// AGGREGATION). Pure: the tree PostgreSQL's own parser made of the query (libpg-query's JSON) and
// the columns of the tables it may read in; values out. It never throws: what it cannot place (an
// unknown table's column among several, a reference too deep) is reported as unresolved.
//
// Rules (docs/decisions.md, "Column lineage"):
// - a column named as it is in a select list is 'direct'; anything computed from it (operators,
//   casts, CASE, non-aggregate functions, a value taken from another row by lag/lead/first_value)
//   is a 'transformation'; an aggregate's arguments, and the arguments, partitions and orderings
//   of window aggregates and ranking functions, are 'aggregation'. Through a CTE or subquery the
//   strongest of the two steps wins (lower(sum(x)) reads x by aggregation).
// - WHERE, JOIN ON, GROUP BY and ORDER BY choose rows, not values: they are not a column's sources.
// - `SELECT *` and `t.*` expand through the known columns of each table; over a table whose
//   columns are unknown the output keeps one column named '*' reading `table.*`.

import { ownValue } from './ownValue';

export type LineageKind = 'direct' | 'transformation' | 'aggregation';

export const LINEAGE_KINDS: readonly LineageKind[] = ['direct', 'transformation', 'aggregation'];

/** A table column an output column reads. `column` is '*' for the unknown columns of a table. */
interface ColumnSource {
  readonly table: string;
  readonly column: string;
  readonly kind: LineageKind;
}

export interface OutputColumnLineage {
  /** the column's name as PostgreSQL names it in the result */
  readonly name: string;
  /** the strongest kind among its sources; null for a column that reads none (a constant, count(*)) */
  readonly kind: LineageKind | null;
  readonly sources: readonly ColumnSource[];
  /** references that could not be traced to one table ('x', 'a.x'), in order of appearance */
  readonly unresolved: readonly string[];
}

export interface QueryLineage {
  readonly columns: readonly OutputColumnLineage[];
  /** every table the query reads anywhere (not its CTEs), sorted */
  readonly tables: readonly string[];
}

/** The columns of each table the query may read, in their order; a table not in it has unknown columns. */
export type KnownColumns = ReadonlyMap<string, readonly string[]>;

/** The column name standing for a table's unknown columns. */
export const ALL_COLUMNS = '*';

const RANK: Readonly<Record<LineageKind, number>> = { direct: 0, transformation: 1, aggregation: 2 };

/** The stronger of two kinds: direct < transformation < aggregation. */
function strongerKind(a: LineageKind, b: LineageKind): LineageKind {
  return RANK[a] >= RANK[b] ? a : b;
}

/** Nesting past this depth is not followed (the server's guard refuses a query at 200 already). */
const MAX_LINEAGE_DEPTH = 400;
/**
 * SELECTs walked for one query, at most. A recursive CTE's body is walked once per round, so
 * recursive CTEs nested in each other's bodies multiply their rounds; past this the query's lineage
 * is not followed (its columns named, each read as '…', no table listed: a half-walk could take a
 * CTE's name for a table) rather than holding the server for minutes. An ordinary query walks a few dozen.
 */
export const MAX_LINEAGE_SELECTS = 5_000;
/** Rounds of a recursive CTE, at most: each adds what one more step of the recursion reads, until nothing new comes (a rotation over n columns takes n); MAX_LINEAGE_SELECTS bounds the whole. */
const MAX_RECURSIVE_ROUNDS = 64;

/** Aggregate functions of PostgreSQL that a dataset query may call, and a few more. */
const AGGREGATES: ReadonlySet<string> = new Set([
  'count', 'sum', 'avg', 'min', 'max', 'string_agg', 'array_agg', 'bool_and', 'bool_or', 'every', 'stddev', 'stddev_pop', 'stddev_samp',
  'variance', 'var_pop', 'var_samp', 'percentile_cont', 'percentile_disc', 'mode', 'corr', 'covar_pop', 'covar_samp', 'regr_slope',
  'regr_intercept', 'regr_count', 'regr_r2', 'regr_avgx', 'regr_avgy', 'regr_sxx', 'regr_syy', 'regr_sxy', 'json_agg', 'jsonb_agg',
  'json_object_agg', 'jsonb_object_agg', 'bit_and', 'bit_or', 'bit_xor', 'xmlagg', 'any_value', 'range_agg', 'range_intersect_agg',
  'rank', 'dense_rank', 'percent_rank', 'cume_dist',
]);

/** Window functions whose value is one input value of another row: a transformation of it, not an aggregation. */
const ROW_PICKERS: ReadonlySet<string> = new Set(['lag', 'lead', 'first_value', 'last_value', 'nth_value']);

// ---- the parser's tree, read defensively --------------------------------------------------------

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{Type: body}` → [Type, body]; anything else → undefined. */
function unwrap(value: unknown): [string, Node] | undefined {
  if (!isNode(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const type = keys[0]!;
  const body = value[type];
  return isNode(body) ? [type, body] : undefined;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A `String` node's text (`{String: {sval}}`). */
function stringOf(value: unknown): string | undefined {
  const node = unwrap(value);
  return node?.[0] === 'String' ? (text(node[1]['sval']) ?? '') : undefined;
}

const names = (value: unknown): string[] => list(value).map((item) => stringOf(item) ?? '');

// ---- relations and scopes ----------------------------------------------------------------------

interface Source {
  table: string;
  column: string;
  kind: LineageKind;
}

/** What one column of a relation (a table, a CTE, a subquery's output) reads. */
interface Column {
  name: string;
  sources: Source[];
  unresolved: string[];
  /** stands for the unknown columns of the tables in its sources */
  star?: true;
}

/** A FROM item as a query sees it. */
interface Relation {
  /** the name qualified references use; a join without an alias has none */
  alias: string | undefined;
  columns: Column[];
  /** tables whose unknown columns this relation also carries */
  open: string[];
  /** a join's two sides, whose own names stay visible unless the join has an alias */
  parts: Relation[];
  /** what `SELECT *` lists when it is not `columns` then one '*' column (a join: each side's in turn) */
  starred?: Column[];
}

interface Ctes {
  readonly names: ReadonlyMap<string, Relation>;
  readonly parent: Ctes | undefined;
}

interface Scope {
  readonly relations: readonly Relation[];
  readonly parent: Scope | undefined;
}

/** A query's output: its columns in order (a '*' column where unknown columns stand). */
interface Output {
  columns: Column[];
}

/** Sources gathered for one expression, deduplicated by table column with the strongest kind kept. */
class Gathered {
  readonly sources = new Map<string, Source>();
  readonly unresolved: string[] = [];

  add(source: Source, kind: LineageKind): void {
    const key = `${source.table}\u0000${source.column}`;
    const was = this.sources.get(key);
    const next = strongerKind(kind, source.kind);
    if (was) was.kind = strongerKind(was.kind, next);
    else this.sources.set(key, { table: source.table, column: source.column, kind: next });
  }

  addColumn(column: Column, kind: LineageKind): void {
    for (const source of column.sources) this.add(source, kind);
    for (const name of column.unresolved) this.miss(name);
  }

  miss(name: string): void {
    if (!this.unresolved.includes(name)) this.unresolved.push(name);
  }

  column(name: string): Column {
    return { name, sources: [...this.sources.values()], unresolved: [...this.unresolved] };
  }
}

function lookupCte(ctes: Ctes | undefined, name: string): Relation | undefined {
  for (let at = ctes; at; at = at.parent) {
    const found = at.names.get(name);
    if (found) return found;
  }
  return undefined;
}

/** The relations a qualified name may address: each item, and the sides of joins without an alias. */
function* named(relations: readonly Relation[]): Generator<Relation> {
  for (const relation of relations) {
    if (relation.alias !== undefined) yield relation;
    else yield* named(relation.parts);
  }
}

const copyColumn = (column: Column, name = column.name): Column => ({ ...column, name, sources: column.sources.map((s) => ({ ...s })), unresolved: [...column.unresolved] });

/** A query's output as a relation named `alias`, its columns renamed by `renames` in order. */
function asRelation(output: Output, alias: string | undefined, renames: readonly string[] = []): Relation {
  const columns: Column[] = [];
  const open: string[] = [];
  let position = 0;
  for (const column of output.columns) {
    if (column.star) {
      for (const source of column.sources) if (!open.includes(source.table)) open.push(source.table);
      continue;
    }
    columns.push(copyColumn(column, renames[position] ?? column.name));
    position += 1;
  }
  return { alias, columns, open, parts: [] };
}

/** A relation's columns as `SELECT *` lists them, with one '*' column for its unknown ones. */
function expand(relation: Relation): Column[] {
  if (relation.starred) return relation.starred.map((c) => copyColumn(c));
  const columns = relation.columns.map((c) => copyColumn(c));
  if (relation.open.length > 0) {
    columns.push({ name: ALL_COLUMNS, star: true, unresolved: [], sources: relation.open.map((table) => ({ table, column: ALL_COLUMNS, kind: 'direct' })) });
  }
  return columns;
}

// ---- the walk ----------------------------------------------------------------------------------

/** What every walk of one query shares: the SELECTs it may still walk, and the names found so far. */
interface WalkBudget {
  selectsLeft: number;
  /** a SELECT was left unwalked for want of budget */
  exhausted: boolean;
  /**
   * The first column's name of each scalar subquery walked, by its node: naming an unnamed
   * `(SELECT …)` reads it here, where walking the subquery again for its name (and each level
   * below doing the same) took time exponential in the nesting, on the request path.
   */
  readonly subqueryNames: WeakMap<Node, string | undefined>;
}

class Walk {
  readonly tables = new Set<string>();

  constructor(
    private readonly known: KnownColumns,
    private readonly shared: WalkBudget,
  ) {}

  /** A SELECT (plain, VALUES or a set operation) as its output columns. */
  select(stmt: Node, outer: Scope | undefined, ctes: Ctes | undefined, depth: number): Output {
    if (depth > MAX_LINEAGE_DEPTH) return { columns: [] };
    if (this.shared.selectsLeft <= 0) {
      this.shared.exhausted = true;
      return { columns: [] };
    }
    this.shared.selectsLeft -= 1;
    const inner = this.withClause(stmt['withClause'], outer, ctes, depth);
    const op = text(stmt['op']);
    if (op !== undefined && op !== 'SETOP_NONE') {
      const left = this.select(isNode(stmt['larg']) ? stmt['larg'] : {}, outer, inner, depth + 1);
      const right = this.select(isNode(stmt['rarg']) ? stmt['rarg'] : {}, outer, inner, depth + 1);
      // EXCEPT keeps rows of its left side only; UNION and INTERSECT values come from both
      return op === 'SETOP_EXCEPT' ? left : { columns: mergeByPosition(left.columns, right.columns) };
    }
    const values = list(stmt['valuesLists']);
    if (values.length > 0) return this.values(values, { relations: [], parent: outer }, inner, depth);

    const relations: Relation[] = [];
    for (const item of list(stmt['fromClause'])) {
      relations.push(this.fromItem(item, { relations: [...relations], parent: outer }, outer, inner, depth + 1));
    }
    const scope: Scope = { relations, parent: outer };
    const columns: Column[] = [];
    for (const target of list(stmt['targetList'])) {
      const [type, body] = unwrap(target) ?? ['', {}];
      if (type !== 'ResTarget') continue;
      const val = body['val'];
      const star = starOf(val);
      if (star !== undefined) {
        columns.push(...this.star(star, scope));
        continue;
      }
      const gathered = new Gathered();
      this.expression(val, scope, inner, 'direct', gathered, depth + 1);
      columns.push(gathered.column(text(body['name']) ?? this.figureName(val, scope, inner, depth)));
    }
    // expressions elsewhere may hold subqueries reading further tables
    for (const key of ['whereClause', 'havingClause', 'groupClause', 'sortClause', 'distinctClause', 'limitCount', 'limitOffset', 'windowClause']) {
      this.expression(stmt[key], scope, inner, 'transformation', new Gathered(), depth + 1);
    }
    return { columns };
  }

  private values(rows: readonly unknown[], scope: Scope, ctes: Ctes | undefined, depth: number): Output {
    const gathered: Gathered[] = [];
    for (const row of rows) {
      const items = list(unwrap(row)?.[1]['items']);
      items.forEach((item, i) => {
        const into = (gathered[i] ??= new Gathered());
        this.expression(item, scope, ctes, 'direct', into, depth + 1);
      });
    }
    return { columns: gathered.map((g, i) => g.column(`column${i + 1}`)) };
  }

  /** The CTEs of a WITH clause, each seeing those before it (and itself when RECURSIVE). */
  private withClause(clause: unknown, outer: Scope | undefined, ctes: Ctes | undefined, depth: number): Ctes | undefined {
    const body = unwrap(clause)?.[1] ?? (isNode(clause) ? clause : undefined);
    const items = list(body?.['ctes']);
    if (items.length === 0) return ctes;
    const recursive = body?.['recursive'] === true;
    const defined = new Map<string, Relation>();
    const layer: Ctes = { names: defined, parent: ctes };
    for (const item of items) {
      const [type, cte] = unwrap(item) ?? ['', {}];
      if (type !== 'CommonTableExpr') continue;
      const name = text(cte['ctename']) ?? '';
      const renames = names(cte['aliascolnames']);
      const query = unwrap(cte['ctequery']);
      if (!query || query[0] !== 'SelectStmt') {
        // a data-modifying CTE (refused by the guard) reads nothing we trace
        defined.set(name, { alias: name, columns: [], open: [], parts: [] });
        continue;
      }
      const stmt = query[1];
      const op = text(stmt['op']);
      if (recursive && op !== undefined && op !== 'SETOP_NONE' && isNode(stmt['larg'])) {
        // the non-recursive term first (under the body's own WITH, as the whole reads it), then
        // the whole until its sources stop growing; only a UNION can refer to itself (PostgreSQL
        // refuses any other recursive body), so anything else is read once, below
        const seedCtes = this.withClause(stmt['withClause'], outer, layer, depth + 1);
        defined.set(name, asRelation(this.select(stmt['larg'], outer, seedCtes, depth + 2), name, renames));
        for (let round = 0; round < MAX_RECURSIVE_ROUNDS; round++) {
          const before = signature(defined.get(name)!);
          defined.set(name, asRelation(this.select(stmt, outer, layer, depth + 1), name, renames));
          if (signature(defined.get(name)!) === before) break;
        }
      } else {
        defined.set(name, asRelation(this.select(stmt, outer, { names: new Map(defined), parent: ctes }, depth + 1), name, renames));
      }
    }
    return layer;
  }

  /** One FROM item; `visible` holds the items before it (what LATERAL sees), `outer` the enclosing query. */
  private fromItem(item: unknown, visible: Scope, outer: Scope | undefined, ctes: Ctes | undefined, depth: number): Relation {
    const empty: Relation = { alias: undefined, columns: [], open: [], parts: [] };
    if (depth > MAX_LINEAGE_DEPTH) return empty;
    const [type, body] = unwrap(item) ?? ['', {}];
    const alias = unwrap(body['alias'])?.[1] ?? (isNode(body['alias']) ? body['alias'] : undefined);
    const aliasName = text(alias?.['aliasname']);
    const renames = names(alias?.['colnames']);
    switch (type) {
      case 'RangeVar':
        return this.rangeVar(body, aliasName, renames, ctes);
      case 'RangeTableSample':
        return this.fromItem(body['relation'], visible, outer, ctes, depth + 1);
      case 'RangeSubselect': {
        const query = unwrap(body['subquery']);
        const sees = body['lateral'] === true ? visible : outer;
        const output = query?.[0] === 'SelectStmt' ? this.select(query[1], sees, ctes, depth + 1) : { columns: [] };
        return asRelation(output, aliasName, renames);
      }
      case 'RangeFunction': {
        // a function in FROM may always read the items before it
        const gathered = new Gathered();
        for (const entry of list(body['functions'])) {
          const [first] = list(unwrap(entry)?.[1]['items']);
          this.expression(first, visible, ctes, 'transformation', gathered, depth + 1);
        }
        const functionName = functionNameOf(list(body['functions'])[0]);
        const columnNames = renames.length > 0 ? renames : [aliasName ?? functionName ?? '?column?'];
        if (body['ordinality'] === true && renames.length === 0) columnNames.push('ordinality');
        return { alias: aliasName ?? functionName, columns: columnNames.map((name) => gathered.column(name)), open: [], parts: [] };
      }
      case 'JoinExpr':
        return this.join(body, aliasName, renames, visible, outer, ctes, depth);
      default:
        // XMLTABLE, JSON_TABLE and the like: read for the tables of their subqueries, named by their alias
        this.expression(body, visible, ctes, 'transformation', new Gathered(), depth + 1);
        return { ...empty, alias: aliasName };
    }
  }

  private rangeVar(body: Node, aliasName: string | undefined, renames: readonly string[], ctes: Ctes | undefined): Relation {
    const relname = text(body['relname']) ?? '';
    const schema = text(body['schemaname']);
    const cte = schema === undefined ? lookupCte(ctes, relname) : undefined;
    if (cte) {
      const columns = cte.columns.map((c, i) => copyColumn(c, renames[i] ?? c.name));
      return { alias: aliasName ?? relname, columns, open: [...cte.open], parts: [] };
    }
    const table = [text(body['catalogname']), schema, relname].filter((part) => part !== undefined).join('.');
    this.tables.add(table);
    const known = this.known.get(table);
    const alias = aliasName ?? relname;
    if (known === undefined) {
      // unknown columns: renamed ones cannot be placed
      const columns = renames.map((name) => ({ name, sources: [], unresolved: [`${alias}.${name}`] }));
      return { alias, columns, open: [table], parts: [] };
    }
    const columns = known.map((column, i) => ({ name: renames[i] ?? column, sources: [{ table, column, kind: 'direct' as const }], unresolved: [] }));
    return { alias, columns, open: [], parts: [] };
  }

  private join(body: Node, aliasName: string | undefined, renames: readonly string[], visible: Scope, outer: Scope | undefined, ctes: Ctes | undefined, depth: number): Relation {
    const left = this.fromItem(body['larg'], visible, outer, ctes, depth + 1);
    const right = this.fromItem(body['rarg'], { relations: [...visible.relations, left], parent: visible.parent }, outer, ctes, depth + 1);
    const leftNames = new Set(left.columns.map((c) => c.name));
    let using = names(body['usingClause']);
    if (body['isNatural'] === true) using = right.columns.map((c) => c.name).filter((name) => leftNames.has(name));
    const jointype = text(body['jointype']);
    const merged = using.map((name) => {
      const l = left.columns.find((c) => c.name === name);
      const r = right.columns.find((c) => c.name === name);
      if (jointype === 'JOIN_FULL') {
        const gathered = new Gathered();
        if (l) gathered.addColumn(l, 'transformation');
        if (r) gathered.addColumn(r, 'transformation');
        if (!l && left.open.length === 1) gathered.add({ table: left.open[0]!, column: name, kind: 'direct' }, 'transformation');
        if (!r && right.open.length === 1) gathered.add({ table: right.open[0]!, column: name, kind: 'direct' }, 'transformation');
        return gathered.column(name);
      }
      const side = jointype === 'JOIN_RIGHT' ? { column: r, relation: right } : { column: l, relation: left };
      if (side.column) return copyColumn(side.column);
      const open = side.relation.open;
      return open.length === 1 ? { name, sources: [{ table: open[0]!, column: name, kind: 'direct' as const }], unresolved: [] } : { name, sources: [], unresolved: [name] };
    });
    const rest = (relation: Relation) => relation.columns.filter((c) => !using.includes(c.name)).map((c) => copyColumn(c));
    const rename = (c: Column, i: number) => (renames[i] === undefined ? c : copyColumn(c, renames[i]));
    const columns = [...merged, ...rest(left), ...rest(right)].map(rename);
    const starred = [...merged, ...expand(left).filter((c) => !using.includes(c.name)), ...expand(right).filter((c) => !using.includes(c.name))].map(rename);
    // ON conditions choose rows: read only for the tables their subqueries name
    this.expression(body['quals'], { relations: [left, right], parent: visible.parent }, ctes, 'transformation', new Gathered(), depth + 1);
    return { alias: aliasName, columns, open: [...new Set([...left.open, ...right.open])], parts: [left, right], starred };
  }

  /** `*` (qualifier undefined) or `q.*` in a select list. */
  private star(qualifier: string | null, scope: Scope): Column[] {
    if (qualifier === null) return scope.relations.flatMap(expand);
    for (let at: Scope | undefined = scope; at; at = at.parent) {
      for (const relation of named(at.relations)) if (relation.alias === qualifier) return expand(relation);
    }
    return [{ name: ALL_COLUMNS, sources: [], unresolved: [`${qualifier}.*`] }];
  }

  /** The column a reference names, searched in the query's own FROM first, then the enclosing ones. */
  private resolve(fields: readonly string[], scope: Scope | undefined): Column | undefined {
    const column = fields[fields.length - 1] ?? '';
    const qualifier = fields.length >= 2 ? fields[fields.length - 2] : undefined;
    for (let at = scope; at; at = at.parent) {
      if (qualifier !== undefined) {
        for (const relation of named(at.relations)) {
          if (relation.alias !== qualifier) continue;
          return relation.columns.find((c) => c.name === column) ?? inOpen(relation, column);
        }
        continue;
      }
      const found = at.relations.map((r) => r.columns.find((c) => c.name === column)).find((c) => c !== undefined);
      if (found) return found;
      const open = at.relations.filter((r) => r.open.length > 0);
      if (open.length === 1) return inOpen(open[0]!, column);
      if (open.length > 1) return undefined;
      // a whole row: `SELECT t FROM t`
      const row = [...named(at.relations)].find((r) => r.alias === column);
      if (row) {
        const gathered = new Gathered();
        for (const c of expand(row)) gathered.addColumn(c, 'transformation');
        return gathered.column(column);
      }
    }
    return undefined;
  }

  /** Gathers what an expression reads, each source at least as strong as `kind`. */
  expression(node: unknown, scope: Scope | undefined, ctes: Ctes | undefined, kind: LineageKind, into: Gathered, depth: number): void {
    if (depth > MAX_LINEAGE_DEPTH) {
      into.miss('…');
      return;
    }
    if (Array.isArray(node)) {
      for (const item of node) this.expression(item, scope, ctes, kind, into, depth + 1);
      return;
    }
    const wrapped = unwrap(node);
    if (!wrapped) {
      if (isNode(node)) for (const value of Object.values(node)) this.expression(value, scope, ctes, strongerKind(kind, 'transformation'), into, depth + 1);
      return;
    }
    const [type, body] = wrapped;
    const transformed = strongerKind(kind, 'transformation');
    switch (type) {
      case 'ColumnRef': {
        const fields = list(body['fields']);
        // `o.*` inside an expression (`to_json(o.*)`, `(o.*)::text`) is the whole row, as a bare `o` is
        const star = starOf(node);
        if (star !== undefined) {
          for (const column of this.star(star, scope ?? { relations: [], parent: undefined })) into.addColumn(column, transformed);
          return;
        }
        // a star anywhere but last is not SQL
        if (fields.some((f) => unwrap(f)?.[0] === 'A_Star')) return;
        const parts = names(fields);
        const column = this.resolve(parts, scope);
        if (column) into.addColumn(column, kind);
        else into.miss(parts.join('.'));
        return;
      }
      case 'FuncCall': {
        const name = (names(body['funcname']).pop() ?? '').toLowerCase();
        const over = body['over'];
        const aggregate = AGGREGATES.has(name) || body['agg_star'] === true || body['agg_distinct'] === true || body['agg_within_group'] === true || list(body['agg_order']).length > 0 || body['agg_filter'] !== undefined;
        if (over !== undefined) {
          // lag(x) copies x from another row, which the window's order only chooses; an aggregate
          // or a ranking over a window is computed from its rows, partitions and order included
          if (ROW_PICKERS.has(name)) {
            this.expression(body['args'], scope, ctes, transformed, into, depth + 1);
            this.window(over, scope, ctes, new Gathered(), depth + 1);
            return;
          }
          this.expression([body['args'], body['agg_filter']], scope, ctes, 'aggregation', into, depth + 1);
          this.window(over, scope, ctes, into, depth + 1);
          return;
        }
        const argKind = aggregate ? 'aggregation' : transformed;
        this.expression([body['args'], body['agg_order'], body['agg_filter']], scope, ctes, argKind, into, depth + 1);
        return;
      }
      case 'SubLink': {
        const query = unwrap(body['subselect']);
        const output = query?.[0] === 'SelectStmt' ? this.select(query[1], scope, ctes, depth + 1) : { columns: [] };
        if (query?.[0] === 'SelectStmt') this.shared.subqueryNames.set(query[1], output.columns[0]?.name);
        const linkType = text(body['subLinkType']);
        this.expression(body['testexpr'], scope, ctes, transformed, into, depth + 1);
        if (linkType === 'EXISTS_SUBLINK') return;
        // a scalar subquery hands its one value on; an ARRAY(...) collects rows; IN/ANY/ALL compare
        const through = linkType === 'EXPR_SUBLINK' ? kind : linkType === 'ARRAY_SUBLINK' ? 'aggregation' : transformed;
        const first = output.columns[0];
        if (first) into.addColumn(first, through);
        return;
      }
      case 'SelectStmt':
        this.select(body, scope, ctes, depth + 1);
        return;
      case 'A_Const':
      case 'TypeName':
      case 'String':
      case 'Integer':
      case 'Float':
      case 'Boolean':
      case 'ParamRef':
        return;
      default:
        for (const value of Object.values(body)) this.expression(value, scope, ctes, transformed, into, depth + 1);
    }
  }

  /** A window's PARTITION BY and ORDER BY decide its value over several rows (an inline or a named window). */
  private window(over: unknown, scope: Scope | undefined, ctes: Ctes | undefined, into: Gathered, depth: number): void {
    const spec = unwrap(over)?.[1] ?? (isNode(over) ? over : {});
    this.expression([spec['partitionClause'], spec['orderClause']], scope, ctes, 'aggregation', into, depth + 1);
  }

  /** PostgreSQL's name for an unnamed select-list expression (FigureColname), with its strength. */
  figureName(node: unknown, scope: Scope, ctes: Ctes | undefined, depth: number): string {
    return this.figure(node, scope, ctes, depth)[0] ?? '?column?';
  }

  private figure(node: unknown, scope: Scope, ctes: Ctes | undefined, depth: number): [string | undefined, number] {
    if (depth > MAX_LINEAGE_DEPTH) return [undefined, 0];
    const [type, body] = unwrap(node) ?? ['', {}];
    switch (type) {
      case 'ColumnRef': {
        const last = list(body['fields']).at(-1);
        const name = stringOf(last);
        return name === undefined ? [undefined, 0] : [name, 2];
      }
      case 'A_Indirection': {
        const last = list(body['indirection']).at(-1);
        const name = stringOf(last);
        return name !== undefined ? [name, 2] : this.figure(body['arg'], scope, ctes, depth + 1);
      }
      case 'FuncCall':
        return [names(body['funcname']).at(-1), 2];
      case 'A_Expr':
        return text(body['kind']) === 'AEXPR_NULLIF' ? ['nullif', 2] : [undefined, 0];
      case 'TypeCast': {
        const inner = this.figure(body['arg'], scope, ctes, depth + 1);
        if (inner[1] > 1) return inner;
        const typeName = unwrap(body['typeName'])?.[1] ?? (isNode(body['typeName']) ? body['typeName'] : {});
        const last = names(typeName['names']).at(-1);
        return last === undefined ? inner : [last, 1];
      }
      case 'CollateClause':
        return this.figure(body['arg'], scope, ctes, depth + 1);
      case 'GroupingFunc':
        return ['grouping', 2];
      case 'SubLink': {
        const linkType = text(body['subLinkType']);
        if (linkType === 'EXISTS_SUBLINK') return ['exists', 2];
        if (linkType === 'ARRAY_SUBLINK') return ['array', 2];
        if (linkType === 'EXPR_SUBLINK') {
          const query = unwrap(body['subselect']);
          // the subquery's own first column name, as the walk of the expression found it (a select
          // list's expression is walked before it is named; one past the depth limit has no name)
          const name = query?.[0] === 'SelectStmt' ? this.shared.subqueryNames.get(query[1]) : undefined;
          return name === undefined ? [undefined, 0] : [name, 2];
        }
        return [undefined, 0];
      }
      case 'CaseExpr': {
        const inner = this.figure(body['defresult'], scope, ctes, depth + 1);
        return inner[1] > 1 ? inner : ['case', 1];
      }
      case 'A_ArrayExpr':
        return ['array', 2];
      case 'RowExpr':
        return ['row', 2];
      case 'CoalesceExpr':
        return ['coalesce', 2];
      case 'MinMaxExpr':
        return [text(body['op']) === 'IS_GREATEST' ? 'greatest' : 'least', 2];
      case 'SQLValueFunction': {
        const op = (text(body['op']) ?? '').replace(/^SVFOP_/, '').replace(/_N$/, '').toLowerCase();
        return op === '' ? [undefined, 0] : [op, 2];
      }
      case 'XmlExpr':
        return [xmlName(text(body['op'])), 2];
      case 'XmlSerialize':
        return ['xmlserialize', 2];
      default:
        return [undefined, 0];
    }
  }
}

function xmlName(op: string | undefined): string | undefined {
  const names: Record<string, string> = { IS_XMLCONCAT: 'xmlconcat', IS_XMLELEMENT: 'xmlelement', IS_XMLFOREST: 'xmlforest', IS_XMLPARSE: 'xmlparse', IS_XMLPI: 'xmlpi', IS_XMLROOT: 'xmlroot', IS_XMLSERIALIZE: 'xmlserialize', IS_DOCUMENT: '?column?' };
  return op === undefined ? undefined : ownValue(names, op);
}

/** A column of a relation's unknown columns: its one open table's, else unplaced. */
function inOpen(relation: Relation, column: string): Column | undefined {
  return relation.open.length === 1 ? { name: column, sources: [{ table: relation.open[0]!, column, kind: 'direct' }], unresolved: [] } : undefined;
}

/** The qualifier of a select-list star: null for `*`, 'q' for `q.*`; undefined when the item is no star. */
function starOf(val: unknown): string | null | undefined {
  const [type, body] = unwrap(val) ?? ['', {}];
  if (type !== 'ColumnRef') return undefined;
  const fields = list(body['fields']);
  if (unwrap(fields.at(-1))?.[0] !== 'A_Star') return undefined;
  return fields.length === 1 ? null : (stringOf(fields.at(-2)) ?? '');
}

function functionNameOf(entry: unknown): string | undefined {
  const [first] = list(unwrap(entry)?.[1]['items']);
  const call = unwrap(first);
  if (call?.[0] === 'FuncCall') return names(call[1]['funcname']).at(-1);
  if (call?.[0] === 'SQLValueFunction') return (text(call[1]['op']) ?? '').replace(/^SVFOP_/, '').replace(/_N$/, '').toLowerCase();
  return undefined;
}

/** UNION and INTERSECT: each position reads what either side's column reads, named by the left. */
function mergeByPosition(left: readonly Column[], right: readonly Column[]): Column[] {
  return left.map((column, i) => {
    const gathered = new Gathered();
    gathered.addColumn(column, 'direct');
    const other = right[i];
    if (other) gathered.addColumn(other, 'direct');
    const merged = gathered.column(column.name);
    return column.star || other?.star ? { ...merged, star: true } : merged;
  });
}

function signature(relation: Relation): string {
  return JSON.stringify(relation.columns.map((c) => [c.name, c.sources, c.unresolved]));
}

function finish(column: Column): OutputColumnLineage {
  const kind = column.sources.reduce<LineageKind | null>((strongest, s) => (strongest === null ? s.kind : strongerKind(strongest, s.kind)), null);
  return { name: column.name, kind, sources: column.sources.map((s) => ({ table: s.table, column: s.column, kind: s.kind })), unresolved: [...column.unresolved] };
}

/** The SelectStmt of a parse result (`{stmts: [{stmt}]}`), a statement (`{SelectStmt}`) or its body. */
function selectOf(tree: unknown): Node | undefined {
  if (!isNode(tree)) return undefined;
  if (Array.isArray(tree['stmts'])) {
    const [first] = tree['stmts'] as unknown[];
    return isNode(first) ? selectOf(first['stmt']) : undefined;
  }
  const wrapped = unwrap(tree);
  if (wrapped?.[0] === 'SelectStmt') return wrapped[1];
  if ('targetList' in tree || 'op' in tree || 'valuesLists' in tree) return tree;
  return undefined;
}

/**
 * The lineage of a query's output columns from libpg-query's parse of it (the whole result, its
 * first statement or that statement's SelectStmt). `known` names the columns of the tables the
 * query may read; a table it does not name has unknown columns. Anything but a SELECT has no columns.
 */
export function columnLineage(tree: unknown, known: KnownColumns = new Map()): QueryLineage {
  const stmt = selectOf(tree);
  if (!stmt) return { columns: [], tables: [] };
  const budget: WalkBudget = { selectsLeft: MAX_LINEAGE_SELECTS, exhausted: false, subqueryNames: new WeakMap() };
  const walk = new Walk(known, budget);
  const output = walk.select(stmt, undefined, undefined, 0);
  if (budget.exhausted) return { columns: output.columns.map((c) => ({ name: c.name, kind: null, sources: [], unresolved: ['…'] })), tables: [] };
  return { columns: output.columns.map(finish), tables: [...walk.tables].sort() };
}
