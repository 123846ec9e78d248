import { sql, type RawBuilder } from 'kysely';
import { classify, isStopWord, type MatchKind } from '../../src/domain/searchMatch';
import type { Db } from '../db/database';
import { maxEdits } from '../repositories/searchText';
import type { SearchEngine, SearchHit, SearchRequest, SearchResult } from './engine';
import { explain, type DatasetText, type Expansion } from './explain';

// Search on PostgreSQL (PGlite or a server) over the index of migrations 012 and 017:
//  1. each term is expanded against the workspace's vocabulary: the word itself, words it
//     begins (from MIN_PREFIX letters) and words within its edits. levenshtein counts a swap of
//     two adjacent letters as two edits, so the database returns words within twice the edits
//     and src/domain/searchMatch.ts keeps those within the edits as Elasticsearch counts them;
//  2. with several terms, the GIN index of search_documents gives the datasets holding a word of
//     every term's expansion, and only their postings are read; otherwise each term's postings;
//  3. the postings give, per dataset and term, its best match (how, edits, field); a dataset
//     must match every term, then the `tag:` and `in:` filters;
//  4. ranking: the exact title or alias (the whole query, stop words too), then a title or alias
//     beginning with the query, then whole words, word beginnings, typos (also within the first
//     two); then title before tags before description, fewer edits, a shorter title (more of it
//     matched); ties by the day published, then popularity (likes and views), then newest.
//     Only the matches that can reach the page are read from `datasets` and sorted (the
//     candidates of step 4 in search()); the count covers every match.

const MIN_PREFIX = 3;
/**
 * Bounds on one term's expansion, as Elasticsearch bounds its fuzzy and prefix queries
 * (max_expansions 50): the closest words and the shortest continuations are kept.
 */
const MAX_FUZZY_CANDIDATES = 2_000;
const MAX_FUZZY_WORDS = 20;
const MAX_PREFIX_WORDS = 50;
/** Beyond this many datasets sharing every term, probing each one's postings costs more than reading the terms' postings. */
const MAX_NARROWED = 2_000;
const KIND_CODE: Record<MatchKind, number> = { exact: 0, prefix: 1, fuzzy: 2 };
const LAST_CHAR = '\u{10FFFF}';

/**
 * A column beginning with the text, as a range over a text_pattern_ops index: byte order, so
 * every value that begins with the text lies within.
 */
const beginsWith = (column: RawBuilder<unknown>, text: string) => sql`(${column} ~>=~ ${text} AND ${column} ~<~ ${text + LAST_CHAR})`;

interface TermPlan {
  term: string;
  expansion: Map<string, { kind: MatchKind; edits: number }>;
}

interface PostgresSearchOptions {
  /** How many datasets sharing every term are still ranked by probing their own postings. */
  readonly maxNarrowed?: number;
}

export function postgresSearchEngine(db: Db, { maxNarrowed = MAX_NARROWED }: PostgresSearchOptions = {}): SearchEngine {
  return { search: (request) => search(db, request, maxNarrowed) };
}

/** The terms that count: stop words drop out unless the query is nothing else. */
function meaningfulTerms(terms: readonly string[]): string[] {
  const kept = terms.filter((term) => !isStopWord(term));
  return kept.length > 0 ? kept : [...terms];
}

async function expand(db: Db, workspaceId: string, terms: readonly string[]): Promise<TermPlan[]> {
  const parts = terms.map((term, index) => {
    const edits = maxEdits(term);
    const length = [...term].length;
    // OSA distance ≤ k implies levenshtein ≤ 2k (a swap is one OSA edit and two levenshtein ones).
    const bound = edits * 2;
    const fuzzy = sql`(SELECT ${index}::int AS term, word FROM search_vocabulary
      WHERE workspace_id = ${workspaceId} AND length BETWEEN ${length - edits} AND ${length + edits}
        AND ${edits === 0 ? sql`word = ${term}` : sql`levenshtein_less_equal(word, ${term}, ${bound}) <= ${bound}`}
      LIMIT ${MAX_FUZZY_CANDIDATES})`;
    if (length < MIN_PREFIX) return fuzzy;
    const prefix = sql`(SELECT ${index}::int AS term, word FROM search_vocabulary
      WHERE workspace_id = ${workspaceId} AND ${beginsWith(sql`word`, term)}
      ORDER BY length, word LIMIT ${MAX_PREFIX_WORDS * 4})`;
    return sql`${fuzzy} UNION ALL ${prefix}`;
  });
  const rows = await sql<{ term: number; word: string }>`${sql.join(parts, sql` UNION ALL `)}`.execute(db);
  const found = terms.map(() => new Map<string, { kind: MatchKind; edits: number }>());
  for (const row of rows.rows) {
    const term = terms[row.term];
    const words = found[row.term];
    if (term === undefined || words === undefined || words.has(row.word)) continue;
    const how = classify(term, row.word, maxEdits(term), MIN_PREFIX);
    if (how) words.set(row.word, how);
  }
  return terms.map((term, index) => {
    const all = [...(found[index] ?? new Map<string, { kind: MatchKind; edits: number }>())];
    const exact = all.filter(([, how]) => how.kind === 'exact');
    const prefix = all.filter(([, how]) => how.kind === 'prefix').sort(([a], [b]) => a.length - b.length || (a < b ? -1 : 1));
    const fuzzy = all.filter(([, how]) => how.kind === 'fuzzy').sort(([a, x], [b, y]) => x.edits - y.edits || (a < b ? -1 : 1));
    return { term, expansion: new Map([...exact, ...prefix.slice(0, MAX_PREFIX_WORDS), ...fuzzy.slice(0, MAX_FUZZY_WORDS)]) };
  });
}

function filters(request: SearchRequest): RawBuilder<unknown>[] {
  const { workspaceId, viewerId, text } = request;
  const visible = viewerId === undefined ? sql`c.scope <> 'PROFILE'` : sql`(c.scope <> 'PROFILE' OR c.creator_id = ${viewerId})`;
  // ARRAY(...) is computed once (an init plan), so the planner looks the few ids up instead of
  // walking every dataset of the workspace and probing its tags.
  const tag = (name: string) => sql`d.id = ANY(ARRAY(SELECT t.dataset_id FROM dataset_tags t WHERE replace(lower(t.tag), ' ', '-') = ${name}))`;
  // A channel is a dataset's source channel or a list holding it; a private list counts for its creator only.
  const channel = (name: string) => sql`(
    d.channel_id = ANY(ARRAY(SELECT c.id FROM channels c WHERE c.workspace_id = ${workspaceId} AND replace(lower(c.name), ' ', '-') = ${name} AND ${visible}))
    OR d.id = ANY(ARRAY(SELECT cd.dataset_id FROM channel_datasets cd JOIN channels c ON c.id = cd.channel_id
      WHERE c.workspace_id = ${workspaceId} AND replace(lower(c.name), ' ', '-') = ${name} AND ${visible})))`;
  return [...text.tags.map(tag), ...text.channels.map(channel)];
}

/**
 * The datasets holding a word of every term's expansion, from the GIN index of
 * search_documents (migration 017), when there are several terms and few such datasets;
 * undefined when ranking should read the terms' postings whole instead.
 */
async function sharingEveryTerm(db: Db, workspaceId: string, plans: readonly TermPlan[], maxNarrowed: number): Promise<string[] | undefined> {
  if (plans.length < 2) return undefined;
  const everyTerm = plans.map((plan) => sql`s.words && ${[...plan.expansion.keys()]}::text[]`);
  const rows = await sql<{ id: string }>`
    SELECT s.dataset_id AS id FROM search_documents s
    WHERE s.workspace_id = ${workspaceId} AND ${sql.join(everyTerm, sql` AND `)}
    LIMIT ${maxNarrowed + 1}`.execute(db);
  return rows.rows.length > maxNarrowed ? undefined : rows.rows.map((row) => row.id);
}

/** One round trip: how many match, and the page's ids in order (ARRAY keeps the ORDER BY). */
async function countAndPage(db: Db, query: RawBuilder<unknown>): Promise<{ ids: string[]; total: number }> {
  const row = (await sql<{ total: number; ids: string[] }>`${query}`.execute(db)).rows[0];
  return { ids: row?.ids ?? [], total: Number(row?.total ?? 0) };
}

async function search(db: Db, request: SearchRequest, maxNarrowed: number): Promise<SearchResult> {
  const { workspaceId, paging } = request;
  const terms = meaningfulTerms(request.text.terms);
  const filtered = filters(request);
  const where = sql.join([sql`d.workspace_id = ${workspaceId}`, ...filtered], sql` AND `);
  const page = sql`LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`;

  if (terms.length === 0) {
    const { ids, total } = await countAndPage(db, sql`
      SELECT (SELECT count(*) FROM datasets d WHERE ${where})::int AS total,
        ARRAY(SELECT d.id::text FROM datasets d WHERE ${where} ORDER BY d.published DESC, d.id ${page}) AS ids`);
    return { hits: ids.map((id) => ({ id, matches: [] })), total };
  }

  const plans = await expand(db, workspaceId, terms);
  // Every term must match: one that reaches no word of the workspace leaves nothing.
  if (plans.some((plan) => plan.expansion.size === 0)) return { hits: [], total: 0 };
  const within = await sharingEveryTerm(db, workspaceId, plans, maxNarrowed);
  if (within?.length === 0) return { hits: [], total: 0 };

  // Per term and dataset the best posting, coded kind·100 + edits·10 + field (smaller is better).
  const perTerm = plans.map((plan, index) => {
    const words = [...plan.expansion.keys()];
    const codes = words.map((word) => {
      const how = plan.expansion.get(word) ?? { kind: 'fuzzy' as const, edits: 9 };
      return KIND_CODE[how.kind] * 10 + how.edits;
    });
    // MATERIALIZED when joined: each term's datasets once (inlined, the planner re-aggregates
    // per row); a lone term is read once anyway.
    return sql`${sql.raw(`t${index}`)} AS ${plans.length > 1 ? sql`MATERIALIZED` : sql``} (
      SELECT p.dataset_id, min(q.code * 10 + p.field) AS best
      FROM unnest(${words}::text[], ${codes}::int[]) AS q(word, code)
      JOIN search_postings p ON p.workspace_id = ${workspaceId} AND p.word = q.word
      ${within === undefined ? sql`` : sql`WHERE p.dataset_id = ANY(${within}::uuid[])`}
      GROUP BY p.dataset_id)`;
  });
  const joins = plans.slice(1).map((_, i) => sql`JOIN ${sql.raw(`t${i + 1}`)} USING (dataset_id)`);
  const bests = plans.map((_, i) => sql.raw(`t${i}.best`));
  const phrase = request.text.terms.join(' ');
  const { ids, total } = await countAndPage(db, sql`
    WITH ${sql.join(perTerm, sql`, `)},
    hits AS (
      SELECT dataset_id AS id,
        greatest(${sql.join(bests, sql`, `)}) / 100 AS worst_kind,
        (${sql.join(bests.map((b) => sql`${b} % 10`), sql` + `)}) AS fields,
        (${sql.join(bests.map((b) => sql`(${b} / 10) % 10`), sql` + `)}) AS edits
      FROM t0 ${sql.join(joins, sql` `)}
    ),
    kept AS MATERIALIZED (
      ${filtered.length === 0 ? sql`SELECT * FROM hits` : sql`SELECT h.* FROM hits h JOIN datasets d ON d.id = h.id WHERE ${where}`}
    ),
    -- Step 4's candidates. A dataset whose title or alias does not begin with the query ranks
    -- after every match of a better (worst kind, fields, edits): among those, only the ones up to
    -- the class of the page's last position can reach the page, besides the ones that begin
    -- with the query. tests/api/search-engine.test.ts proves every page a slice of the whole.
    last_class AS (SELECT worst_kind, fields, edits FROM kept ORDER BY worst_kind, fields, edits OFFSET ${(paging.page + 1) * paging.size - 1} LIMIT 1),
    beginning AS (
      SELECT d.id FROM datasets d WHERE d.workspace_id = ${workspaceId} AND ${beginsWith(sql`d.search_title`, phrase)}
      UNION SELECT d.id FROM datasets d WHERE d.workspace_id = ${workspaceId} AND d.search_alias <> '' AND ${beginsWith(sql`d.search_alias`, phrase)}
    ),
    candidates AS (
      SELECT * FROM kept h
      WHERE NOT EXISTS (SELECT 1 FROM last_class) OR (h.worst_kind, h.fields, h.edits) <= (SELECT worst_kind, fields, edits FROM last_class)
      UNION SELECT h.* FROM kept h JOIN beginning b ON b.id = h.id
    )
    SELECT (SELECT count(*) FROM kept)::int AS total, ARRAY(
      -- ARRAY(...) is an init plan: the planner cannot tell how few the candidates are and would
      -- hash every dataset of the workspace; with it, it looks them up by key.
      SELECT d.id::text FROM candidates h JOIN datasets d ON d.id = h.id
      WHERE d.id = ANY(ARRAY(SELECT id FROM candidates))
      ORDER BY
        CASE
          WHEN d.search_title = ${phrase} OR d.search_alias = ${phrase} THEN 0
          WHEN starts_with(d.search_title, ${phrase}) OR starts_with(d.search_alias, ${phrase}) THEN 1
          ELSE 2 + h.worst_kind
        END,
        h.worst_kind, h.fields, h.edits, length(d.title), date_trunc('day', d.published) DESC, d.like_count + d.view_count DESC, d.published DESC, d.id
      ${page}) AS ids`);
  const texts = await textsOf(db, ids);
  const expansions: Expansion[] = plans.map((plan) => plan.expansion);
  const hits: SearchHit[] = ids.map((id) => {
    const text = texts.get(id);
    return { id, matches: text ? explain(text, terms, expansions) : [] };
  });
  return { hits, total };
}

async function textsOf(db: Db, ids: readonly string[]): Promise<Map<string, DatasetText>> {
  const texts = new Map<string, DatasetText>();
  if (ids.length === 0) return texts;
  const rows = await db
    .selectFrom('datasets as d')
    .select(['d.id', 'd.title', 'd.alias', 'd.questions', 'd.description', 'd.tags'])
    .where('d.id', 'in', ids)
    .execute();
  for (const row of rows) texts.set(row.id, { title: row.title, alias: row.alias, questions: row.questions, description: row.description, tags: row.tags });
  return texts;
}
