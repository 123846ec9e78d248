import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hrefs } from '../policy/hrefs';
import { datasetLinks } from '../policy/links';
import type { DatasetBodyRow } from '../repositories/datasets';
import { datasetLinksJson } from './dataset';

// A dataset's links are rendered from a template per combination of flags, with its id put in:
// the text must be exactly what serialising datasetLinks gives, for any id, viewer and dataset.

const row = (id: string, query: string | null, holdsRows: boolean): DatasetBodyRow => ({
  id,
  workspace_id: id,
  query,
  holds_rows: holdsRows,
  tags: [],
  body_json: '{}',
  liked: false,
  subscription_type: null,
  comments_read_only: null,
});

// one per public URL, shared by every run: the templates are kept per server and reused across datasets
const servers = ['https://data.example.com', 'http://127.0.0.1:3000', 'https://example.com/with/a/path'].map((publicUrl) => hrefs({ publicUrl }));

describe("a dataset's links from their template", () => {
  it('are the links datasetLinks makes, serialised, for every viewer and dataset', () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.constantFrom(...servers),
        fc.record({ role: fc.constantFrom('owner' as const, 'editor' as const, 'member' as const), liked: fc.boolean(), subscribed: fc.boolean(), mayComment: fc.boolean() }),
        fc.option(fc.string(), { nil: null }),
        fc.boolean(),
        (id, h, viewer, query, holdsRows) => {
          const dataset = row(id, query, holdsRows);
          expect(datasetLinksJson(h, dataset, viewer)).toBe(JSON.stringify(datasetLinks(h, dataset, viewer)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keep each server’s public URL apart', () => {
    const viewer = { role: 'member' as const, liked: false, subscribed: false, mayComment: true };
    const dataset = row('5f0c6a8e-2d1b-4a4e-9a57-0e6f3c1d2b7a', null, false);
    const one = datasetLinksJson(hrefs({ publicUrl: 'https://one.example.com' }), dataset, viewer);
    const two = datasetLinksJson(hrefs({ publicUrl: 'https://two.example.com' }), dataset, viewer);
    expect(one).toContain('https://one.example.com/api/datasets/5f0c6a8e-2d1b-4a4e-9a57-0e6f3c1d2b7a');
    expect(two).toContain('https://two.example.com/api/datasets/5f0c6a8e-2d1b-4a4e-9a57-0e6f3c1d2b7a');
    expect(two).not.toContain('one.example.com');
  });
});
