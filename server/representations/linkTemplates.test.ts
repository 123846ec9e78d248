import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonText } from '../http/jsonText';
import { hrefs } from '../policy/hrefs';
import { datasetLinks, workspaceLinks } from '../policy/links';
import type { DatasetBodyRow } from '../repositories/datasets';
import type { WorkspaceShown } from '../repositories/workspaces';
import { datasetLinksJson } from './dataset';
import { workspaceJson } from './workspace';

// Links are rendered from a template per combination of flags, with their ids put in: the text
// must be exactly what serialising the policy's link function gives, for any ids, viewer and body.

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
const role = fc.constantFrom('owner' as const, 'editor' as const, 'member' as const);

describe("a dataset's links from their template", () => {
  it('are the links datasetLinks makes, serialised, for every viewer and dataset', () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.constantFrom(...servers),
        fc.record({ role, liked: fc.boolean(), subscribed: fc.boolean(), mayComment: fc.boolean() }),
        fc.option(fc.string(), { nil: null }),
        fc.boolean(),
        (id, h, viewer, query, holdsRows) => {
          const dataset = row(id, query, holdsRows);
          expect(new JsonText(datasetLinksJson(h, dataset, viewer)).text).toBe(JSON.stringify(datasetLinks(h, dataset, viewer)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("are a workspace's links for the caller's role (and whether they may run things), with a new channel's id of each answer's own", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.constantFrom(...servers), role, fc.boolean(), (id, h, memberRole, runs) => {
        const workspace = { id, name: 'W', domains: [], app_properties: {}, deployment_secret: null, ssh_private_key_set: false } as unknown as WorkspaceShown;
        const first = JSON.parse(new JsonText(workspaceJson({ h }, workspace, memberRole, runs, undefined)).text) as { _links: Record<string, { href: string }> };
        const second = JSON.parse(new JsonText(workspaceJson({ h }, workspace, memberRole, runs, undefined)).text) as typeof first;
        const channelId = /channels\/([0-9a-f-]{36})$/.exec(first._links['create channel']!.href)![1]!;
        expect(first._links).toEqual(workspaceLinks(h, { id }, memberRole, runs, channelId));
        expect(second._links['create channel']!.href).not.toBe(first._links['create channel']!.href);
      }),
      { numRuns: 100 },
    );
  });

  it('keep each server’s public URL apart', () => {
    const viewer = { role: 'member' as const, liked: false, subscribed: false, mayComment: true };
    const dataset = row('5f0c6a8e-2d1b-4a4e-9a57-0e6f3c1d2b7a', null, false);
    const one = new JsonText(datasetLinksJson(hrefs({ publicUrl: 'https://one.example.com' }), dataset, viewer)).text;
    const two = new JsonText(datasetLinksJson(hrefs({ publicUrl: 'https://two.example.com' }), dataset, viewer)).text;
    expect(one).toContain('https://one.example.com/api/datasets/5f0c6a8e-2d1b-4a4e-9a57-0e6f3c1d2b7a');
    expect(two).toContain('https://two.example.com/api/datasets/5f0c6a8e-2d1b-4a4e-9a57-0e6f3c1d2b7a');
    expect(two).not.toContain('one.example.com');
  });
});
