import { sql, type Kysely } from 'kysely';

/**
 * A dataset's body as every viewer sees it, kept on its row as JSON text (issue 21): a read model.
 * Every dataset answer parsed the row's columns, its likers and its channel into objects and wrote
 * them back out as JSON, about a third of the feed's server CPU and most of the garbage it made.
 * The server now splices the stored text with what depends on the viewer or on our own code: the
 * links, the tags (their ids are derived in the server) and the extras of some answers.
 *
 * The body is written by a BEFORE trigger on the row itself, from the row and the current state of
 * its likers and channel. A row trigger runs once PostgreSQL holds the row's lock, and its queries
 * take a fresh snapshot, so two writers touching one dataset (two stars at once) both count: the
 * second rebuilds from what the first committed. That is also why the like count is set here, from
 * the same query as the likers: the two can no longer disagree. Writes elsewhere that show in a
 * body touch the dataset rows they affect, which rebuilds them:
 * - a star given or taken (including by a deleted profile's cascade);
 * - a liker's new name or email;
 * - a channel's new name, description or picture (a deleted channel sets the datasets' channel to
 *   null, an update of its own).
 * Comment counts and tags are columns of the row (migration 025): their triggers update the row.
 * One interleaving is left: a liker renamed (or a channel edited) while another transaction stars
 * (or moves) the dataset, each committing after the other has read. The star reads the old name,
 * and the rename's trigger cannot see the uncommitted star to rebuild it; the body shows the old
 * name until the dataset's next write. Closing it with row locks (the rebuild holding its likers
 * FOR SHARE) makes the two lock profile and dataset in opposite orders: a deadlock whenever a
 * liker is renamed while the dataset is viewed, which is worse than a name late by one write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A value as JSON text; SQL null as JSON null (concat would drop it).
    CREATE FUNCTION json_text(value anyelement) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(to_json(value)::text, 'null') $$;
    -- As JavaScript's toISOString writes it (milliseconds, truncated as a Date holds them; Z), whatever the session's time zone.
    CREATE FUNCTION iso_json(t timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT coalesce('"' || to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')
    $$;

    ALTER TABLE datasets
      ADD COLUMN body_json text NOT NULL DEFAULT '',
      -- 'data' is offered for raw data that is a JSON list of rows (after JSON's own whitespace);
      -- other raw data (a mermaid diagram's text) is drawn from the dataset itself
      ADD COLUMN holds_rows boolean GENERATED ALWAYS AS (coalesce(ltrim(raw_data, E' \\t\\n\\r') LIKE '[%', false)) STORED;

    CREATE FUNCTION datasets_write_body() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      likers text;
      source text;
    BEGIN
      SELECT count(*), string_agg(concat('{"id":', to_json(liker.id), ',"name":', json_text(liker.name), ',"email":', json_text(liker.email), '}'), ',' ORDER BY liker.starred, liker.id)
        INTO NEW.like_count, likers
        FROM (SELECT p.id, p.name, p.email, l.created AS starred FROM dataset_likes l JOIN profiles p ON p.id = l.profile_id WHERE l.dataset_id = NEW.id) liker;
      SELECT concat('{"source":{"id":', to_json(c.id), ',"name":', to_json(c.name), ',"description":', json_text(c.description), ',"picture":', json_text(c.picture), '}}')
        INTO source
        FROM channels c WHERE c.id = NEW.channel_id;
      NEW.body_json := concat(
        '{"id":', to_json(NEW.id),
        ',"workspaceId":', to_json(NEW.workspace_id),
        ',"alias":', json_text(NEW.alias),
        ',"title":', to_json(NEW.title),
        ',"description":', json_text(NEW.description),
        ',"descriptionContentType":', json_text(NEW.description_content_type),
        ',"questions":', json_text(NEW.questions),
        ',"visualisation":', json_text(NEW.visualisation),
        ',"metadata":', json_text(NEW.metadata),
        ',"rawData":', json_text(NEW.raw_data),
        ',"query":', json_text(NEW.query),
        ',"viewCount":', NEW.view_count,
        ',"likeCount":', NEW.like_count,
        ',"likedByProfiles":[', likers, ']',
        ',"commentCount":', NEW.comment_count,
        ',"continuousPoll":', json_text(NEW.continuous_poll),
        ',"published":', iso_json(NEW.published),
        ',"created":', iso_json(NEW.created),
        ',"lastModified":', iso_json(NEW.last_modified),
        ',"_embedded":' || source,
        '}');
      RETURN NEW;
    END
    $fn$;
    CREATE TRIGGER datasets_body BEFORE INSERT OR UPDATE ON datasets FOR EACH ROW EXECUTE FUNCTION datasets_write_body();

    -- Writes elsewhere rebuild the bodies they show in by touching those rows (the trigger above
    -- writes the body whatever the update sets).
    CREATE FUNCTION datasets_rebuild_liked() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      UPDATE datasets SET body_json = '' WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.dataset_id ELSE NEW.dataset_id END;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER dataset_likes_shown AFTER INSERT OR DELETE ON dataset_likes FOR EACH ROW EXECUTE FUNCTION datasets_rebuild_liked();

    CREATE FUNCTION datasets_rebuild_liker() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      UPDATE datasets SET body_json = '' WHERE id IN (SELECT dataset_id FROM dataset_likes WHERE profile_id = NEW.id);
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER profiles_shown_as_likers AFTER UPDATE OF name, email ON profiles FOR EACH ROW
      WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION datasets_rebuild_liker();

    CREATE FUNCTION datasets_rebuild_source() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      UPDATE datasets SET body_json = '' WHERE channel_id = NEW.id;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER channels_shown_as_sources AFTER UPDATE OF name, description, picture ON channels FOR EACH ROW
      WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.description IS DISTINCT FROM NEW.description OR OLD.picture IS DISTINCT FROM NEW.picture)
      EXECUTE FUNCTION datasets_rebuild_source();

    UPDATE datasets SET body_json = '';
  `.execute(db);
}
