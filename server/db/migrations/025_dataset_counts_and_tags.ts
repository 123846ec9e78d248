import { sql, type Kysely } from 'kysely';

/**
 * A dataset's comment count and its tags, kept on its row (issue 21). Every dataset read counted
 * the comments and gathered the tags with a subquery per row (in the feed's statement, a page of
 * ten, that and the read-only flag's were about a third of PostgreSQL's CPU), and the other lists
 * and the dataset page paid a second query for the tags. Triggers keep both, so every write path
 * (cascades included: deleting a comment deletes its replies) counts alike:
 * - comments: a comment counts once it has a message (an initialised one has none yet). The
 *   change is relative (`comment_count + 1`), which PostgreSQL re-applies to the newest row when
 *   two comments arrive together, so concurrent comments never lose a count.
 * - tags: sorted, and changed per statement (a dataset's tags are replaced in one insert): the
 *   new array is made from the row's own current one, for the same reason.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE datasets ADD COLUMN comment_count integer NOT NULL DEFAULT 0, ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
    UPDATE datasets d SET
      comment_count = (SELECT count(*) FROM comments c WHERE c.dataset_id = d.id AND c.message IS NOT NULL),
      tags = ARRAY(SELECT t.tag FROM dataset_tags t WHERE t.dataset_id = d.id ORDER BY t.tag);

    CREATE FUNCTION datasets_count_comments() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'UPDATE' AND (OLD.message IS NULL) = (NEW.message IS NULL) AND OLD.dataset_id = NEW.dataset_id THEN RETURN NULL; END IF;
      IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.message IS NOT NULL THEN
        UPDATE datasets SET comment_count = comment_count - 1 WHERE id = OLD.dataset_id;
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.message IS NOT NULL THEN
        UPDATE datasets SET comment_count = comment_count + 1 WHERE id = NEW.dataset_id;
      END IF;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER comments_counted AFTER INSERT OR DELETE OR UPDATE OF message, dataset_id ON comments
      FOR EACH ROW EXECUTE FUNCTION datasets_count_comments();

    -- a trigger with transition tables serves one event: one each, sharing the function
    CREATE FUNCTION datasets_keep_tags() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE datasets d SET tags = ARRAY(SELECT x FROM unnest(d.tags) x EXCEPT SELECT r.tag FROM removed r WHERE r.dataset_id = d.id ORDER BY 1)
        WHERE d.id IN (SELECT dataset_id FROM removed);
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE datasets d SET tags = ARRAY(SELECT x FROM unnest(d.tags) x UNION SELECT a.tag FROM added a WHERE a.dataset_id = d.id ORDER BY 1)
        WHERE d.id IN (SELECT dataset_id FROM added);
      END IF;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER dataset_tags_added AFTER INSERT ON dataset_tags REFERENCING NEW TABLE AS added
      FOR EACH STATEMENT EXECUTE FUNCTION datasets_keep_tags();
    CREATE TRIGGER dataset_tags_removed AFTER DELETE ON dataset_tags REFERENCING OLD TABLE AS removed
      FOR EACH STATEMENT EXECUTE FUNCTION datasets_keep_tags();
    CREATE TRIGGER dataset_tags_changed AFTER UPDATE ON dataset_tags REFERENCING OLD TABLE AS removed NEW TABLE AS added
      FOR EACH STATEMENT EXECUTE FUNCTION datasets_keep_tags();
  `.execute(db);
}
