import { describe, expect, it } from 'vitest';
import * as messages from './messages';

// Spec 002 §5's messages and §9's limits, written out: the page shows them word for word.
describe('visualisation messages and limits', () => {
  it('are the spec’s words and numbers', () => {
    const { showingRowsText, ...constants } = messages;
    expect(constants).toStrictEqual({
      ROW_DATA_NONCONFORMING: 'Row data does not conform to structure expected by visualisation',
      METADATA_UNPARSEABLE: "Unable to parse 'metadata' for this dataset -",
      CHART_HAS_NO_METADATA: 'Chart has no metadata',
      LINK_EXPECTED_HREF: 'Link error: expected `href`',
      METADATA_NOT_WELL_FORMED: 'Dataset metadata is not well formed',
      NO_DATA_TO_DISPLAY: 'No data to display',
      NOTHING_HERE: 'Nothing here',
      CHART_LABEL_MAX: 50,
      TABLE_ROW_LIMIT: 10,
      CAROUSEL_IMAGE_WIDTH: 250,
      TREEMAP_LABEL_MIN_SHARE: 0.2,
      CONTINUOUS_POLL_MS: 5_000,
    });
    expect(showingRowsText(10, 25)).toBe('(showing 10 of 25 rows)');
  });
});
