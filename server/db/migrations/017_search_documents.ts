import { sql, type Kysely } from 'kysely';

/**
 * Search at scale (issue 11). Two additions to migration 012's index:
 *  - search_documents: each dataset's distinct words in one array under a GIN index. A query of
 *    several terms asks it for the datasets holding a word of every term's expansion; GIN
 *    intersects its posting lists in one index scan, so only those few datasets' postings are
 *    ranked instead of every posting of every expanded word. Kept by the same functions as the
 *    postings, in the writer's transaction.
 *  - title and alias by prefix: the datasets whose title or alias begins with the query rank
 *    first, and are looked up by range instead of reading every match's row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE search_documents (
      dataset_id uuid PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      words text[] NOT NULL
    );
    CREATE INDEX search_documents_words_idx ON search_documents USING gin (words);

    -- INCLUDE (id): the beginnings are read from the index alone
    CREATE INDEX datasets_search_title_idx ON datasets (workspace_id, search_title text_pattern_ops) INCLUDE (id);
    CREATE INDEX datasets_search_alias_idx ON datasets (workspace_id, search_alias text_pattern_ops) INCLUDE (id) WHERE search_alias <> '';

    CREATE OR REPLACE FUNCTION search_index_dataset(target uuid) RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      DELETE FROM search_postings WHERE dataset_id = target;
      INSERT INTO search_postings (workspace_id, word, dataset_id, field)
      SELECT DISTINCT d.workspace_id, w.word, d.id, f.field
      FROM datasets d
      CROSS JOIN LATERAL (
        SELECT 1::smallint AS field, d.title AS body
        UNION ALL SELECT 2::smallint, d.alias
        UNION ALL SELECT 3::smallint, (SELECT string_agg(t.tag, ' ') FROM dataset_tags t WHERE t.dataset_id = d.id)
        UNION ALL SELECT 4::smallint, d.questions
        UNION ALL SELECT 5::smallint, d.description
      ) f
      CROSS JOIN LATERAL regexp_split_to_table(lower(coalesce(f.body, '')), '[^[:alnum:]]+') AS w(word)
      WHERE d.id = target AND w.word <> '' AND length(w.word) <= 64;
      INSERT INTO search_vocabulary (workspace_id, word, length)
      SELECT DISTINCT workspace_id, word, length(word) FROM search_postings WHERE dataset_id = target
      ON CONFLICT DO NOTHING;
      DELETE FROM search_documents WHERE dataset_id = target;
      INSERT INTO search_documents (dataset_id, workspace_id, words)
      SELECT d.id, d.workspace_id, ARRAY(SELECT DISTINCT p.word FROM search_postings p WHERE p.dataset_id = target)
      FROM datasets d WHERE d.id = target;
    END
    $fn$;

    CREATE OR REPLACE FUNCTION search_reindex_workspace(target uuid) RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      DELETE FROM search_postings WHERE workspace_id = target;
      INSERT INTO search_postings (workspace_id, word, dataset_id, field)
      SELECT DISTINCT d.workspace_id, w.word, d.id, f.field
      FROM datasets d
      LEFT JOIN (SELECT t.dataset_id, string_agg(t.tag, ' ') AS tags FROM dataset_tags t GROUP BY t.dataset_id) tg ON tg.dataset_id = d.id
      CROSS JOIN LATERAL (
        SELECT 1::smallint AS field, d.title AS body
        UNION ALL SELECT 2::smallint, d.alias
        UNION ALL SELECT 3::smallint, tg.tags
        UNION ALL SELECT 4::smallint, d.questions
        UNION ALL SELECT 5::smallint, d.description
      ) f
      CROSS JOIN LATERAL regexp_split_to_table(lower(coalesce(f.body, '')), '[^[:alnum:]]+') AS w(word)
      WHERE d.workspace_id = target AND w.word <> '' AND length(w.word) <= 64;
      INSERT INTO search_vocabulary (workspace_id, word, length)
      SELECT DISTINCT workspace_id, word, length(word) FROM search_postings WHERE workspace_id = target
      ON CONFLICT DO NOTHING;
      DELETE FROM search_documents WHERE workspace_id = target;
      INSERT INTO search_documents (dataset_id, workspace_id, words)
      SELECT dataset_id, target, array_agg(DISTINCT word) FROM search_postings WHERE workspace_id = target GROUP BY dataset_id;
    END
    $fn$;

    SELECT search_reindex_workspace(id) FROM workspaces;
  `.execute(db);
}
