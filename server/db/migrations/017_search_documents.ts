import { sql, type Kysely } from 'kysely';

/**
 * Search at scale (issue 11). Two additions to migration 012's index:
 *  - search_documents: each dataset's distinct words in one array under a GIN index. A query of
 *    several terms asks it for the datasets holding a word of every term's expansion; GIN
 *    intersects its posting lists in one index scan, so only those few datasets' postings are
 *    ranked instead of every posting of every expanded word. Kept in the writer's transaction:
 *    012's index functions are renamed to their postings part and wrapped under their old names
 *    (which the triggers call), so the words are written once and read back for the document.
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

    ALTER FUNCTION search_index_dataset(uuid) RENAME TO search_index_dataset_postings;
    ALTER FUNCTION search_reindex_workspace(uuid) RENAME TO search_reindex_workspace_postings;

    CREATE FUNCTION search_index_dataset(target uuid) RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM search_index_dataset_postings(target);
      DELETE FROM search_documents WHERE dataset_id = target;
      INSERT INTO search_documents (dataset_id, workspace_id, words)
      SELECT d.id, d.workspace_id, ARRAY(SELECT DISTINCT p.word FROM search_postings p WHERE p.dataset_id = target)
      FROM datasets d WHERE d.id = target;
    END
    $fn$;

    CREATE FUNCTION search_reindex_workspace(target uuid) RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM search_reindex_workspace_postings(target);
      DELETE FROM search_documents WHERE workspace_id = target;
      INSERT INTO search_documents (dataset_id, workspace_id, words)
      SELECT dataset_id, target, array_agg(DISTINCT word) FROM search_postings WHERE workspace_id = target GROUP BY dataset_id;
    END
    $fn$;

    SELECT search_reindex_workspace(id) FROM workspaces;
  `.execute(db);
}
