import { describe, expect, it } from 'vitest';
import type { Dataset } from '../domain/resources';
import { createApiClient } from './client';
import { createList, datasetRows, editDataset, recordView, setInList, setLiked, unwatchDataset, watchDataset } from './datasets';
import { ApiFailure, toApiError } from './errors';
import { fakeFetch, type FakeReply } from './testing/fakeFetch';

const BASE = 'http://api.test/api';
const dataset: Dataset = {
  id: 'd1',
  title: 'Sales',
  _links: {
    self: { href: `${BASE}/datasets/d1` },
    data: { href: `${BASE}/datasets/d1/data` },
    'view dataset': { href: `${BASE}/datasets/d1/view` },
    'like dataset': { href: `${BASE}/datasets/d1/like` },
    'add subscription': { href: `${BASE}/datasets/d1/subscriptions` },
    'delete subscription': { href: `${BASE}/datasets/d1/subscriptions` },
    'edit dataset': { href: `${BASE}/datasets/d1` },
  },
};

function setup(...replies: FakeReply[]) {
  const fake = fakeFetch(...replies);
  const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('tok'), fetch: fake.fetch, retryDelay: () => 0 });
  return { client, calls: fake.calls };
}

describe('dataset page calls', () => {
  it('records a view with PUT and ignores a 404', async () => {
    const { client, calls } = setup({ status: 404, body: { status: 404, message: 'gone' } });
    await expect(recordView(client, dataset)).resolves.toBeUndefined();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`PUT ${BASE}/datasets/d1/view`]);
  });

  it('a view failing otherwise rejects', async () => {
    const { client } = setup({ status: 403, body: { status: 403, message: 'no' } });
    await expect(recordView(client, dataset)).rejects.toBeInstanceOf(ApiFailure);
  });

  it('reads rows, [] on 204', async () => {
    const { client } = setup({ body: [{ month: 'Jan', revenue: 3 }] }, { status: 204 });
    await expect(datasetRows(client, dataset)).resolves.toEqual([{ month: 'Jan', revenue: 3 }]);
    await expect(datasetRows(client, dataset)).resolves.toEqual([]);
  });

  it('likes with PUT and unlikes with DELETE on the like link', async () => {
    const { client, calls } = setup({ status: 200 }, { status: 204 });
    await setLiked(client, dataset, true);
    await setLiked(client, dataset, false);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`PUT ${BASE}/datasets/d1/like`, `DELETE ${BASE}/datasets/d1/like`]);
  });

  it('watches with POST {type} once, unwatches with DELETE', async () => {
    const { client, calls } = setup({ status: 503 }, { status: 204 });
    await expect(watchDataset(client, dataset, 'ALERTS')).rejects.toBeInstanceOf(ApiFailure);
    await unwatchDataset(client, dataset);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`POST ${BASE}/datasets/d1/subscriptions`, `DELETE ${BASE}/datasets/d1/subscriptions`]);
    expect(calls[0]?.body).toEqual({ type: 'ALERTS' });
  });

  it('PATCHes {description} and reads the dataset back when the answer is empty', async () => {
    const { client, calls } = setup({ status: 204 }, { body: { ...dataset, description: 'new' } });
    const saved = await editDataset(client, dataset, { description: 'new' });
    expect(saved.description).toBe('new');
    expect(calls[0]).toMatchObject({ method: 'PATCH', body: { description: 'new' } });
  });

  it('adds to and removes from a list at {datasets href}/{id}; without the link it refuses', async () => {
    const list = { id: 'c1', name: 'Mine', _links: { datasets: { href: `${BASE}/channels/c1/datasets` } } };
    const { client, calls } = setup({ status: 204 }, { status: 204 });
    await setInList(client, list, 'd 1', true);
    await setInList(client, list, 'd 1', false);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`PUT ${BASE}/channels/c1/datasets/d%201`, `DELETE ${BASE}/channels/c1/datasets/d%201`]);
    await expect(setInList(client, { _links: {} }, 'd1', true)).rejects.toSatisfy((e) => toApiError(e).kind === 'missingLink');
  });

  it('creates a private list with PUT create channel', async () => {
    const workspace = { _links: { 'create channel': { href: `${BASE}/workspaces/w1/channels` } } };
    const { client, calls } = setup({ status: 201, body: { id: 'c9', name: 'New' } });
    await expect(createList(client, workspace, ' New ')).resolves.toMatchObject({ id: 'c9' });
    expect(calls[0]).toMatchObject({ method: 'PUT', body: { name: 'New', description: '', type: 'LIST', scope: 'PROFILE' } });
  });

  it('downloads the data as CSV with the bearer token and Accept text/csv', async () => {
    const { client, calls } = setup({ body: 'month,revenue\nJan,3\n', headers: { 'content-type': 'text/csv' } });
    const blob = await client.download(dataset, 'data', 'text/csv');
    expect(await blob.text()).toBe('month,revenue\nJan,3\n');
    expect(calls[0]?.headers.get('accept')).toBe('text/csv');
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer tok');
  });

  it('a failed download carries the server message', async () => {
    const { client } = setup({ status: 422, body: { status: 422, message: 'Query timed out' } });
    const error: unknown = await client.download(dataset, 'data', 'text/csv').catch((e: unknown) => e);
    // The Blob body is read back as the error body (spec 000's '[status] {body}' text).
    const apiError = toApiError(error);
    expect(apiError).toMatchObject({ kind: 'response', status: 422 });
    expect('message' in apiError ? apiError.message : undefined).toBe('[422] {"status":422,"message":"Query timed out"}');
  });
});
