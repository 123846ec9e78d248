import { sql, type Kysely } from 'kysely';

/**
 * Comments on datasets (spec 002 §4-§7): a comment is initialised (a row without a message, seen
 * only by its author) and created by the PUT that gives it one. Replies name their parent.
 * Likes of comments, and the earlier texts of edited comments (the edit history).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE comments (
      id uuid PRIMARY KEY,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      parent_id uuid REFERENCES comments(id) ON DELETE CASCADE,
      author_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      -- null while initialised; the first PUT creates the comment
      message text,
      created timestamptz NOT NULL DEFAULT now(),
      last_modified timestamptz NOT NULL DEFAULT now()
    );
    -- a dataset's thread, newest first, and a comment's replies, oldest first
    CREATE INDEX comments_dataset_idx ON comments (dataset_id, created DESC, id) WHERE parent_id IS NULL AND message IS NOT NULL;
    CREATE INDEX comments_parent_idx ON comments (parent_id, created, id) WHERE parent_id IS NOT NULL AND message IS NOT NULL;
    CREATE INDEX comments_drafts_idx ON comments (author_id, created) WHERE message IS NULL;

    CREATE TABLE comment_likes (
      comment_id uuid NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
      profile_id text NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      created timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (comment_id, profile_id)
    );

    CREATE TABLE comment_edits (
      id uuid PRIMARY KEY,
      comment_id uuid NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
      -- the text as it was before this edit
      message text NOT NULL,
      -- when that text was written
      written timestamptz NOT NULL,
      edited timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX comment_edits_comment_idx ON comment_edits (comment_id, edited DESC);
  `.execute(db);
}
