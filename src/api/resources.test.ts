import { describe, expect, it } from 'vitest';
import { createApiClient } from './client';
import { toApiError } from './errors';
import { downloadResource } from './resources';
import { fakeFetch, type FakeReply } from './testing/fakeFetch';

const BASE = 'http://api.test/api';
const workspace = { _links: { resources: { href: `${BASE}/workspaces/w1/resources` } } };

function setup(...replies: FakeReply[]) {
  const fake = fakeFetch(...replies);
  const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('tok'), fetch: fake.fetch, retryDelay: () => 0 });
  return { client, calls: fake.calls };
}

describe('downloadResource', () => {
  it("GETs the path under the workspace's 'resources' link, each segment encoded, with the token", async () => {
    const { client, calls } = setup({ body: 'a,b\n', headers: { 'content-type': 'text/csv' } });
    const { blob, fileName } = await downloadResource(client, workspace, 'reports/Q1 #1.csv');
    expect(await blob.text()).toBe('a,b\n');
    expect(fileName).toBe('Q1 #1.csv');
    expect(calls[0]?.url).toBe(`${BASE}/workspaces/w1/resources/reports/Q1%20%231.csv`);
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer tok');
  });

  it("rejects without the 'resources' link, asking nothing", async () => {
    const { client, calls } = setup();
    const error: unknown = await downloadResource(client, { _links: {} }, 'a.csv').catch((e: unknown) => e);
    expect(toApiError(error)).toEqual({ kind: 'missingLink', rel: 'resources' });
    expect(calls).toEqual([]);
  });

  it('a missing resource rejects with its 404', async () => {
    const { client } = setup({ status: 404, body: { status: 404, message: 'Resource not found' } });
    const error: unknown = await downloadResource(client, workspace, 'gone.csv').catch((e: unknown) => e);
    expect(toApiError(error)).toMatchObject({ kind: 'response', status: 404 });
  });
});
