import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import { maxEdits, readSearchText, type SearchText } from './searchText';

// Dataset search and question answering on the database itself: PostgreSQL full-text search
// (stemmed, weighted title > questions and tags > description) plus, per term, prefix and
// levenshtein matching on the words of the dataset and a trigram similarity, so that typos
// within the allowed edits still find their dataset. Both PGlite and PostgreSQL ship
// fuzzystrmatch and pg_trgm; the search sits behind these two functions so that another engine
// can replace it.

const TRIGRAM_MATCH = 0.6;
const MIN_PREFIX = 3;
const MIN_TRIGRAM_TERM = 5;

/** Each dataset of the workspace that passes the filters, with its words and its text vector. */
function documents(workspaceId: string, search: SearchText): RawBuilder<unknown> {
  const tagFilters = search.tags.map(
    (tag) => sql`AND EXISTS (SELECT 1 FROM dataset_tags ft WHERE ft.dataset_id = d.id AND (lower(ft.tag) = ${tag} OR replace(lower(ft.tag), ' ', '-') = ${tag}))`,
  );
  const channelFilters = search.channels.map(
    (channel) => sql`AND EXISTS (SELECT 1 FROM channels fc WHERE fc.id = d.channel_id AND (lower(fc.name) = ${channel} OR replace(lower(fc.name), ' ', '-') = ${channel}))`,
  );
  return sql`
    docs AS (
      SELECT d.id, d.published,
        lower(concat_ws(' ', d.title, d.description, d.questions, tg.tags)) AS body,
        setweight(to_tsvector('english', d.title), 'A')
          || setweight(to_tsvector('english', coalesce(d.questions, '') || ' ' || coalesce(tg.tags, '')), 'B')
          || setweight(to_tsvector('english', coalesce(d.description, '')), 'C') AS vec
      FROM datasets d
      LEFT JOIN LATERAL (SELECT string_agg(t.tag, ' ') AS tags FROM dataset_tags t WHERE t.dataset_id = d.id) tg ON true
      WHERE d.workspace_id = ${workspaceId}
      ${sql.join(tagFilters, sql` `)}
      ${sql.join(channelFilters, sql` `)}
    ),
    words AS (
      SELECT docs.*, ARRAY(
        SELECT DISTINCT w FROM regexp_split_to_table(docs.body, '[[:space:][:punct:]]+') AS w
        WHERE w <> '' AND length(w) <= 100
      ) AS words
      FROM docs
    )`;
}

/** True when the dataset matches the term: stemmed, by prefix, within its edits, or by trigrams. */
function termMatches(term: string): RawBuilder<boolean> {
  const edits = maxEdits(term);
  const length = [...term].length;
  const prefix = length >= MIN_PREFIX ? sql`starts_with(w, ${term})` : sql`false`;
  const fuzzy =
    edits > 0
      ? sql`(length(w) BETWEEN ${length - edits} AND ${length + edits} AND levenshtein_less_equal(w, ${term}, ${edits}) <= ${edits})`
      : sql`w = ${term}`;
  const trigrams = length >= MIN_TRIGRAM_TERM ? sql`word_similarity(${term}, body) >= ${TRIGRAM_MATCH}` : sql`false`;
  return sql<boolean>`(
    vec @@ plainto_tsquery('english', ${term})
    OR EXISTS (SELECT 1 FROM unnest(words) AS w WHERE ${prefix} OR ${fuzzy})
    OR ${trigrams}
  )`;
}

/** A stop word ('the', 'by') carries no meaning: it neither filters nor scores. */
const isStopWord = (term: string) => sql<boolean>`numnode(plainto_tsquery('english', ${term})) = 0`;

/** The text's lexemes joined by OR, for ranking by how much of the text a dataset holds. */
function rankExpression(text: string): RawBuilder<number> {
  return sql<number>`(
    CASE WHEN numnode(plainto_tsquery('english', ${text})) = 0 THEN 0
    ELSE ts_rank(vec, replace(plainto_tsquery('english', ${text})::text, ' & ', ' | ')::tsquery) END
    + word_similarity(${text}, body)
  )`;
}

/**
 * The dataset that best answers a question: the one matching most of its meaningful words
 * (any of them, unlike search), then by rank. Undefined when no word of the question matches.
 */
export async function answerQuestion(db: Db, workspaceId: string, question: string): Promise<string | undefined> {
  const search = readSearchText(question);
  const terms = search.terms;
  if (terms.length === 0) return undefined;
  const matched = sql.join(
    terms.map((term) => sql`(CASE WHEN ${isStopWord(term)} THEN 0 WHEN ${termMatches(term)} THEN 1 ELSE 0 END)`),
    sql` + `,
  );
  const result = await sql<{ id: string }>`
    WITH ${documents(workspaceId, { terms, tags: [], channels: [] })},
    scored AS (SELECT id, published, ${matched} AS matched, ${rankExpression(terms.join(' '))} AS rank FROM words)
    SELECT id FROM scored WHERE matched > 0
    ORDER BY matched DESC, rank DESC, published DESC, id
    LIMIT 1`.execute(db);
  return result.rows[0]?.id;
}
