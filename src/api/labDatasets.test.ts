import { describe, expect, it } from 'vitest';
import { createApiClient } from './client';
import { datasetRows, deleteDataset, listLabDatasets, previewDataset } from './labDatasets';
import { fakeFetch, type FakeReply } from './testing/fakeFetch';

const api = (href: string) => ({ href: `http://api.test/api${href}` });
const WORKSPACE = { _links: { datasets: api('/workspaces/w1/datasets'), 'preview dataset': api('/workspaces/w1/datasets/preview') } };
const DATASET = { id: 'd1', title: 'T', _links: { data: api('/datasets/d1/data'), 'delete dataset': api('/datasets/d1') } };

function clientWith(...replies: FakeReply[]) {
  const fake = fakeFetch(...replies);
  return { client: createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 }), calls: fake.calls };
}

describe('the Lab datasets calls', () => {
  it('lists 20 at a time through the workspace link, with the search only when there is one', async () => {
    const page = { _embedded: { datasets: [DATASET] }, page: { size: 20, totalElements: 1, totalPages: 1, number: 0 } };
    const { client, calls } = clientWith({ body: page }, { body: page });
    await listLabDatasets(client, WORKSPACE, { page: 0, search: '  ' });
    await listLabDatasets(client, WORKSPACE, { page: 2, search: ' sales ' });
    expect(calls.map((c) => c.url)).toEqual(['http://api.test/api/workspaces/w1/datasets?page=0&size=20', 'http://api.test/api/workspaces/w1/datasets?page=2&size=20&search=sales']);
  });

  it('reads rows from the data link; 204 is no rows', async () => {
    const { client } = clientWith({ body: [{ month: '2024-01', revenue: 3 }] }, { status: 204 });
    await expect(datasetRows(client, DATASET)).resolves.toEqual([{ month: '2024-01', revenue: 3 }]);
    await expect(datasetRows(client, DATASET)).resolves.toEqual([]);
  });

  it('previews with {query} and passes the 400 on for the form', async () => {
    const refused = { status: 400, body: { timestamp: 't', status: 400, error: 'Bad Request', message: 'Validation failed', path: '/p', errors: [{ field: 'query', objectName: 'dataset', defaultMessage: 'Only SELECT' }] } };
    const { client, calls } = clientWith({ body: { columns: ['a'], rows: [{ a: 1 }], truncated: false } }, refused);
    await expect(previewDataset(client, WORKSPACE, 'select 1 as a')).resolves.toEqual({ columns: ['a'], rows: [{ a: 1 }], truncated: false });
    await expect(previewDataset(client, WORKSPACE, 'delete from t')).rejects.toMatchObject({ skipErrorHandler: true, apiError: { status: 400 } });
    expect(calls.map((c) => [c.method, c.body])).toEqual([
      ['POST', { query: 'select 1 as a' }],
      ['POST', { query: 'delete from t' }],
    ]);
  });

  it('deletes through the dataset link, and refuses without one', async () => {
    const { client, calls } = clientWith({ status: 204 });
    await deleteDataset(client, DATASET);
    expect(calls.map((c) => [c.method, c.url])).toEqual([['DELETE', 'http://api.test/api/datasets/d1']]);
    await expect(deleteDataset(client, { _links: {} })).rejects.toMatchObject({ apiError: { kind: 'missingLink', rel: 'delete dataset' } });
  });
});
