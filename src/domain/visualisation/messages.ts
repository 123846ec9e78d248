// The visualisation messages of spec 002 §5 and limits of §9, word for word.

export const ROW_DATA_NONCONFORMING = 'Row data does not conform to structure expected by visualisation';
export const METADATA_UNPARSEABLE = "Unable to parse 'metadata' for this dataset -";
export const CHART_HAS_NO_METADATA = 'Chart has no metadata';
export const LINK_EXPECTED_HREF = 'Link error: expected `href`';
export const METADATA_NOT_WELL_FORMED = 'Dataset metadata is not well formed';
export const NO_DATA_TO_DISPLAY = 'No data to display';
export const NOTHING_HERE = 'Nothing here';

/** Chart labels are cut to this many characters (§9). */
export const CHART_LABEL_MAX = 50;
/** html-table and html-metric show at most this many rows by default (§9). */
export const TABLE_ROW_LIMIT = 10;
/** One carousel image per this many pixels of width, at least one (§9). */
export const CAROUSEL_IMAGE_WIDTH = 250;
/** A treemap tile's label is drawn only when its value is at least this share of the total (§9). */
export const TREEMAP_LABEL_MIN_SHARE = 0.2;
/** A dataset with continuousPoll refreshes its data this often (§9). */
export const CONTINUOUS_POLL_MS = 5_000;

/** '(showing N of M rows)' under a table that shows fewer rows than it has. */
export function showingRowsText(shown: number, total: number): string {
  return `(showing ${shown} of ${total} rows)`;
}
