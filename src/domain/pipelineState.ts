// Where a pipeline's next run resumes: the bookmarks of its incremental state, read for people.
// A state is what the pipeline's tap last emitted, kept by the runner (pipeline_states): a bare
// Singer state `{bookmarks: {stream: {...}}}` for the built-in taps, or Meltano's
// `{completed: {singer_state: …}, partial: {singer_state: …}}` for Python plugins. Taps write what
// they like into a bookmark, so everything here reads untrusted JSON and never throws.

// a type, not an interface: it then fits the wire schema's open object as it is
export type Bookmark = {
  stream: string;
  /** one line: `updated_at ≥ 2026-01-02`, `modified = …`, or the bookmark's JSON, shortened */
  position: string;
};

/** A position longer than this is cut with an ellipsis: it is a hint, not the state itself. */
export const BOOKMARK_POSITION_MAX = 120;
/** More streams than this are summarised by the count of the rest. */
export const BOOKMARKS_SHOWN_MAX = 50;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= BOOKMARK_POSITION_MAX ? flat : `${flat.slice(0, BOOKMARK_POSITION_MAX - 1)}…`;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** One bookmark as a line: the Singer SDK's replication key and value when it has them. */
export function bookmarkPosition(bookmark: unknown): string {
  if (isRecord(bookmark)) {
    const key = scalarText(bookmark.replication_key);
    const value = scalarText(bookmark.replication_key_value);
    if (key !== undefined && value !== undefined) return shorten(`${key} ≥ ${value}`);
    if (value !== undefined) return shorten(`≥ ${value}`);
    const entries = Object.entries(bookmark);
    const only = entries.length === 1 ? entries[0] : undefined;
    const onlyValue = only ? scalarText(only[1]) : undefined;
    if (only && onlyValue !== undefined) return shorten(`${only[0]} = ${onlyValue}`);
  }
  return shorten(jsonText(bookmark));
}

const singerBookmarks = (state: unknown): Record<string, unknown> => {
  const singer = isRecord(state) ? state.singer_state : undefined;
  return isRecord(singer) && isRecord(singer.bookmarks) ? singer.bookmarks : {};
};

/**
 * The bookmarks of a stored value: a bare Singer state's, or Meltano's completed ones with the
 * partial ones of a run that ended early over them (where the next run starts, as Meltano merges them).
 */
function bookmarksIn(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) return {};
  if ('completed' in value || 'partial' in value) return { ...singerBookmarks(value.completed), ...singerBookmarks(value.partial) };
  return isRecord(value.bookmarks) ? value.bookmarks : {};
}

/** The streams a stored state has bookmarks for, sorted by stream, at most BOOKMARKS_SHOWN_MAX. */
export function bookmarksOf(value: unknown): Bookmark[] {
  const bookmarks = bookmarksIn(value);
  return Object.keys(bookmarks)
    .sort()
    .slice(0, BOOKMARKS_SHOWN_MAX)
    .map((stream) => ({ stream: shorten(stream), position: bookmarkPosition(bookmarks[stream]) }));
}
