import { sql, type Kysely } from 'kysely';

/**
 * Dataset search (issue 11): an inverted index kept by the database itself. Every word of a
 * dataset's title, alias, tags, questions and description is a posting (word → dataset, field);
 * each workspace's distinct words form its vocabulary, which typo and prefix matching scan (by
 * word length, by prefix) instead of the postings. Triggers keep both current on every write
 * path and in the writer's own transaction, so no process can see a dataset without its words.
 * Words are cut as src/domain/searchMatch.ts cuts a query: lowercased runs of letters and digits.
 * The vocabulary only grows: a word no dataset holds any more finds no postings, which is
 * cheaper than counting uses on every write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE search_postings (
      workspace_id uuid NOT NULL,
      word text NOT NULL,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      -- 1 title, 2 alias, 3 tags, 4 questions, 5 description (server/search/fields.ts)
      field smallint NOT NULL,
      PRIMARY KEY (workspace_id, word, dataset_id, field)
    );
    CREATE INDEX search_postings_dataset_idx ON search_postings (dataset_id);

    CREATE TABLE search_vocabulary (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      word text NOT NULL,
      length int NOT NULL,
      PRIMARY KEY (workspace_id, word)
    );
    -- typo candidates: words of about the term's length; prefix candidates: a range of words
    CREATE INDEX search_vocabulary_length_idx ON search_vocabulary (workspace_id, length, word);
    CREATE INDEX search_vocabulary_prefix_idx ON search_vocabulary (workspace_id, word text_pattern_ops);

    -- the title and alias as the query is compared with them (exact / beginning), computed once per write
    ALTER TABLE datasets
      ADD COLUMN search_title text GENERATED ALWAYS AS (btrim(regexp_replace(lower(title), '[^[:alnum:]]+', ' ', 'g'))) STORED,
      ADD COLUMN search_alias text GENERATED ALWAYS AS (btrim(regexp_replace(lower(coalesce(alias, '')), '[^[:alnum:]]+', ' ', 'g'))) STORED;

    -- tag:{name} with spaces written as hyphens, any case
    CREATE INDEX dataset_tags_search_idx ON dataset_tags ((replace(lower(tag), ' ', '-')));

    CREATE FUNCTION search_index_dataset(target uuid) RETURNS void LANGUAGE plpgsql AS $fn$
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
    END
    $fn$;

    -- The same for a whole workspace in one statement: for bulk loads (the bench) and repairs.
    CREATE FUNCTION search_reindex_workspace(target uuid) RETURNS void LANGUAGE plpgsql AS $fn$
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
    END
    $fn$;

    CREATE FUNCTION search_index_dataset_row() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM search_index_dataset(NEW.id);
      RETURN NULL;
    END
    $fn$;

    CREATE FUNCTION search_index_tag_row() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM search_index_dataset(NEW.dataset_id); END IF;
      IF TG_OP IN ('DELETE', 'UPDATE') THEN PERFORM search_index_dataset(OLD.dataset_id); END IF;
      RETURN NULL;
    END
    $fn$;

    CREATE TRIGGER datasets_search_index AFTER INSERT OR UPDATE OF title, alias, questions, description ON datasets
      FOR EACH ROW EXECUTE FUNCTION search_index_dataset_row();
    CREATE TRIGGER dataset_tags_search_index AFTER INSERT OR UPDATE OR DELETE ON dataset_tags
      FOR EACH ROW EXECUTE FUNCTION search_index_tag_row();

    SELECT search_reindex_workspace(id) FROM workspaces;
  `.execute(db);
}
