import { sql, type RawBuilder } from 'kysely';
import { classify, isStopWord, type MatchKind } from '../../src/domain/searchMatch';
import type { Db } from '../db/database';
import { maxEdits } from '../repositories/searchText';
import type { SearchEngine, SearchHit, SearchRequest, SearchResult } from './engine';
import { explain, type DatasetText, type Expansion } from './explain';

// Search on PostgreSQL (PGlite or a server) over the index of migration 012:
//  1. each term is expanded against the workspace's vocabulary: the word itself, words it
//     begins (from MIN_PREFIX letters) and words within its edits. levenshtein counts a swap of
//     two adjacent letters as two edits, so the database returns words within twice the edits
//     and src/domain/searchMatch.ts keeps those within the edits as Elasticsearch counts them;
//  2. the postings of the expanded words give, per dataset and term, its best match (how, edits,
//     field); a dataset must match every term, then the `tag:` and `in:` filters;
//  3. ranking: the exact title or alias (the whole query, stop words too), then a title or alias
//     beginning with the query, then whole words, word beginnings, typos (also within the first
//     two); then title before tags before description, fewer
//     edits, a shorter title (more of it matched);
//     ties by the day published, then popularity (likes and views), then newest.

export const MIN_PREFIX = 3;
/**
 * Bounds on one term's expansion, as Elasticsearch bounds its fuzzy and prefix queries
 * (max_expansions 50): the closest words and the shortest continuations are kept.
 */
const MAX_FUZZY_CANDIDATES = 2_000;
const MAX_FUZZY_WORDS = 20;
const MAX_PREFIX_WORDS = 50;
const KIND_CODE: Record<MatchKind, number> = { exact: 0, prefix: 1, fuzzy: 2 };
const LAST_CHAR = '\u{10FFFF}';

interface TermPlan {
  term: string;
  expansion: Map<string, { kind: MatchKind; edits: number }>;
}

export function postgresSearchEngine(db: Db): SearchEngine {
  return { search: (request) => search(db, request) };
}

/** The terms that count: stop words drop out unless the query is nothing else. */
export function meaningfulTerms(terms: readonly string[]): string[] {
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
    // A range over text_pattern_ops: byte order, so every word beginning with the term lies within.
    const prefix = sql`(SELECT ${index}::int AS term, word FROM search_vocabulary
      WHERE workspace_id = ${workspaceId} AND word ~>=~ ${term} AND word ~<~ ${term + LAST_CHAR}
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

async function search(db: Db, request: SearchRequest): Promise<SearchResult> {
  const { workspaceId, paging } = request;
  const terms = meaningfulTerms(request.text.terms);
  const where = sql.join([sql`d.workspace_id = ${workspaceId}`, ...filters(request)], sql` AND `);
  // The count rides along with the page (count(*) OVER ()); a page past the end has no row to
  // carry it, so the first row is asked for once more.
  const pageOf = async (query: (limit: RawBuilder<unknown>) => RawBuilder<{ id: string; total: number }>) => {
    const rows = (await query(sql`LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`).execute(db)).rows;
    const total = rows[0]?.total ?? (paging.page > 0 ? (await query(sql`LIMIT 1`).execute(db)).rows[0]?.total : 0) ?? 0;
    return { ids: rows.map((r) => r.id), total: Number(total) };
  };

  if (terms.length === 0) {
    const { ids, total } = await pageOf((limit) => sql<{ id: string; total: number }>`
      SELECT d.id, count(*) OVER ()::int AS total FROM datasets d WHERE ${where}
      ORDER BY d.published DESC, d.id ${limit}`);
    return { hits: ids.map((id) => ({ id, matches: [] })), total };
  }

  const plans = await expand(db, workspaceId, terms);
  // Every term must match: one that reaches no word of the workspace leaves nothing.
  if (plans.some((plan) => plan.expansion.size === 0)) return { hits: [], total: 0 };

  // Per term and dataset the best posting, coded kind·100 + edits·10 + field (smaller is better).
  const perTerm = plans.map((plan, index) => {
    const words = [...plan.expansion.keys()];
    const codes = words.map((word) => {
      const how = plan.expansion.get(word) ?? { kind: 'fuzzy' as const, edits: 9 };
      return KIND_CODE[how.kind] * 10 + how.edits;
    });
    // MATERIALIZED: each term's datasets once, then joined (inlined, the planner re-aggregates per row).
    return sql`${sql.raw(`t${index}`)} AS MATERIALIZED (
      SELECT p.dataset_id, min(q.code * 10 + p.field) AS best
      FROM unnest(${words}::text[], ${codes}::int[]) AS q(word, code)
      JOIN search_postings p ON p.workspace_id = ${workspaceId} AND p.word = q.word
      GROUP BY p.dataset_id)`;
  });
  const joins = plans.slice(1).map((_, i) => sql`JOIN ${sql.raw(`t${i + 1}`)} USING (dataset_id)`);
  const bests = plans.map((_, i) => sql.raw(`t${i}.best`));
  const allPhrase = request.text.terms.join(' ');
  const title = sql`d.search_title`;
  const alias = sql`d.search_alias`;
  const { ids, total } = await pageOf((limit) => sql<{ id: string; total: number }>`
    WITH ${sql.join(perTerm, sql`, `)},
    hits AS MATERIALIZED (
      SELECT dataset_id AS id,
        greatest(${sql.join(bests, sql`, `)}) / 100 AS worst_kind,
        (${sql.join(bests.map((b) => sql`${b} % 10`), sql` + `)}) AS fields,
        (${sql.join(bests.map((b) => sql`(${b} / 10) % 10`), sql` + `)}) AS edits
      FROM t0 ${sql.join(joins, sql` `)}
    )
    SELECT d.id, count(*) OVER ()::int AS total
    FROM hits h JOIN datasets d ON d.id = h.id
    -- ARRAY(...) is an init plan: the planner cannot estimate how many datasets the terms share
    -- and would hash every dataset of the workspace; with it, it looks the few ids up by key.
    WHERE ${where} AND d.id = ANY(ARRAY(SELECT id FROM hits))
    ORDER BY
      CASE
        WHEN ${title} = ${allPhrase} OR ${alias} = ${allPhrase} THEN 0
        WHEN starts_with(${title}, ${allPhrase}) OR starts_with(${alias}, ${allPhrase}) THEN 1
        ELSE 2 + h.worst_kind
      END,
      h.worst_kind, h.fields, h.edits, length(d.title), date_trunc('day', d.published) DESC, d.like_count + d.view_count DESC, d.published DESC, d.id
    ${limit}`);
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
    .select(['d.id', 'd.title', 'd.alias', 'd.questions', 'd.description'])
    .select((eb) => eb.fn.coalesce(sql<string[]>`(SELECT array_agg(t.tag ORDER BY t.tag) FROM dataset_tags t WHERE t.dataset_id = d.id)`, sql<string[]>`ARRAY[]::text[]`).as('tags'))
    .where('d.id', 'in', ids)
    .execute();
  for (const row of rows) texts.set(row.id, { title: row.title, alias: row.alias, questions: row.questions, description: row.description, tags: row.tags });
  return texts;
}
