import { describe, expect, it } from 'vitest';
import type { ApiKey, Invitation, Workspace } from '../domain/resources';
import { draftApiKey, createApiKey, deleteApiKey, listApiKeys, renameApiKey } from './apikeys';
import { requestPasswordReset } from './changePassword';
import { createApiClient } from './client';
import { feed, getDataset, search } from './datasets';
import { toApiError } from './errors';
import { acceptInvitation, listInvitationsFor } from './invitations';
import { countUnread, listNotifications } from './notifications';
import { login, saveProfile, setDefaultWorkspace } from './profiles';
import { ask } from './questions';
import { getRoot } from './root';
import { fakeFetch, type FakeReply } from './testing/fakeFetch';
import { countActiveJobs, getWorkspace, listJobs, listMembers, listWorkspaces, refreshWorkspace } from './workspaces';

const BASE = 'http://api.test/api';
const profile = { id: 'auth0|42', name: 'Ann', email: 'ann@example.com', _links: {} };
const workspace: Workspace = {
  id: 'w1',
  name: 'Demo',
  _links: { self: { href: `${BASE}/workspaces/w1` }, questions: { href: `${BASE}/workspaces/w1/questions` } },
};
const page = (key: string, items: unknown[], totalElements = items.length) => ({
  _embedded: { [key]: items },
  page: { size: 20, totalElements, totalPages: 1, number: 0 },
});

function api(...replies: FakeReply[]) {
  const fake = fakeFetch(...replies);
  const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
  return { client, calls: fake.calls };
}

describe('root and profiles', () => {
  it('getRoot reads GET /', async () => {
    const { client, calls } = api({ body: { _links: { 'new apikey': { href: 'apikeys' } } } });
    const root = await getRoot(client);
    expect(root._links?.['new apikey']).toBeDefined();
    expect(calls[0]!.url).toBe(`${BASE}/`);
  });

  it('login POSTs {id,name,email} to /profiles/{encoded id}/login', async () => {
    const { client, calls } = api({ body: profile });
    await expect(login(client, { id: 'auth0|42', name: 'Ann', email: 'ann@example.com' })).resolves.toMatchObject({ id: 'auth0|42' });
    expect(calls[0]).toMatchObject({ method: 'POST', url: `${BASE}/profiles/auth0%7C42/login`, body: { id: 'auth0|42', name: 'Ann', email: 'ann@example.com' } });
  });

  it('login without a profile in the answer is a parse error', async () => {
    const { client } = api({ status: 204 });
    const failure = await login(client, profile).catch((error: unknown) => error);
    expect(toApiError(failure).kind).toBe('parse');
  });

  it('saveProfile uses /profiles/{id} and sends only id, name, email', async () => {
    const { client, calls } = api({ body: { ...profile, name: 'Anna' } });
    const saved = await saveProfile(client, { ...profile, name: 'Anna' });
    expect(saved.name).toBe('Anna');
    expect(calls.map((c) => [c.method, c.url])).toEqual([['PUT', `${BASE}/profiles/auth0%7C42`]]);
    expect(calls[0]!.body).toEqual({ id: 'auth0|42', name: 'Anna', email: 'ann@example.com' });
  });

  it('setDefaultWorkspace PATCHes {defaultWorkspace:{id}}', async () => {
    const { client, calls } = api({ body: profile });
    await setDefaultWorkspace(client, 'auth0|42', 'w2');
    expect(calls[0]).toMatchObject({ method: 'PATCH', url: `${BASE}/profiles/auth0%7C42`, body: { defaultWorkspace: { id: 'w2' } } });
  });
});

describe('workspaces', () => {
  it('lists workspaces with size=99 and unwraps the embedded list', async () => {
    const { client, calls } = api({ body: page('workspaces', [workspace]) });
    expect((await listWorkspaces(client)).map((w) => w.id)).toEqual(['w1']);
    expect(calls[0]!.url).toBe(`${BASE}/workspaces?size=99`);
  });

  it('an empty page (no _embedded) is an empty list', async () => {
    const { client } = api({ body: { page: { size: 99, totalElements: 0, totalPages: 0, number: 0 } } });
    expect(await listWorkspaces(client)).toEqual([]);
  });

  it('reads a workspace, refreshes it through its self link, lists members and jobs', async () => {
    const job = { id: 'j1', type: 'PIPELINE_RUN', status: 'RUNNING', created: '2024-01-01T00:00:00Z' };
    const member = { id: 'm1', name: 'Bob' };
    const { client, calls } = api({ body: workspace }, { body: workspace }, { body: page('members', [member]) }, { body: page('jobs', [job]) });
    await getWorkspace(client, 'w 1');
    await refreshWorkspace(client, workspace);
    expect(await listMembers(client, 'w1')).toHaveLength(1);
    expect((await listJobs(client, 'w1'))[0]?.status).toBe('RUNNING');
    expect(calls.map((c) => c.url)).toEqual([
      `${BASE}/workspaces/w%201`,
      `${BASE}/workspaces/w1`,
      `${BASE}/workspaces/w1/members`,
      `${BASE}/workspaces/w1/jobs`,
    ]);
  });

  it("counts active jobs through the workspace's jobs link: the server's total of one-item pages", async () => {
    const job = { id: 'j1', type: 'PIPELINE_RUN', status: 'QUEUED', created: '2024-01-01T00:00:00Z' };
    const withJobs: Workspace = { ...workspace, _links: { ...workspace._links, jobs: { href: `${BASE}/workspaces/w1/jobs` } } };
    const { client, calls } = api({ body: page('jobs', [job], 37) }, { body: { _embedded: { jobs: [job, job] } } });
    expect(await countActiveJobs(client, withJobs)).toBe(37);
    // No page metadata: the server listed every match.
    expect(await countActiveJobs(client, withJobs)).toBe(2);
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/workspaces/w1/jobs?status=QUEUED,RUNNING&size=1`, `${BASE}/workspaces/w1/jobs?status=QUEUED,RUNNING&size=1`]);
  });

  it('without a jobs link there is no count to ask for', async () => {
    const { client, calls } = api();
    await expect(countActiveJobs(client, workspace)).rejects.toMatchObject({ apiError: { kind: 'missingLink', rel: 'jobs' } });
    expect(calls).toEqual([]);
  });
});

describe('notifications', () => {
  it('counts unread with a one-item page and reads page.totalElements', async () => {
    const { client, calls } = api({ body: page('notifications', [], 17) });
    expect(await countUnread(client)).toBe(17);
    expect(calls[0]!.url).toBe(`${BASE}/notifications?size=1`);
  });

  it('lists with all, before, since and markAsResolved', async () => {
    const { client, calls } = api({ body: page('notifications', []) });
    await listNotifications(client, { all: true, before: '2024-02-01T00:00:00Z', since: '2024-01-01T00:00:00Z', markAsResolved: true });
    const url = new URL(calls[0]!.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      all: 'true',
      before: '2024-02-01T00:00:00Z',
      since: '2024-01-01T00:00:00Z',
      markAsResolved: 'true',
    });
  });
});

describe('invitations', () => {
  const invitation: Invitation = {
    email: 'ann@example.com',
    workspace: { id: 'w9' },
    _links: { 'accept invitation': { href: `${BASE}/invitations/i1` } },
  };

  it('lists the invitations of an email address', async () => {
    const { client, calls } = api({ body: page('invitations', [invitation]) });
    expect(await listInvitationsFor(client, 'ann+x@example.com')).toHaveLength(1);
    expect(new URL(calls[0]!.url).searchParams.get('email')).toBe('ann+x@example.com');
  });

  it("PATCHes the 'accept invitation' link", async () => {
    const { client, calls } = api({ status: 200, body: { ok: true } });
    await acceptInvitation(client, invitation);
    expect(calls[0]).toMatchObject({ method: 'PATCH', url: `${BASE}/invitations/i1` });
  });

  it('an invitation without the link cannot be accepted', async () => {
    const { client, calls } = api();
    const failure = await acceptInvitation(client, { email: 'x@example.com' }).catch((error: unknown) => error);
    expect(toApiError(failure)).toEqual({ kind: 'missingLink', rel: 'accept invitation' });
    expect(calls).toHaveLength(0);
  });
});

describe('api keys', () => {
  const draft: ApiKey = { id: 'k1', _links: { 'create apikey': { href: `${BASE}/apikeys/k1` } } };
  const key: ApiKey = {
    id: 'k1',
    name: 'ci',
    clientId: 'c1',
    _links: { 'update apikey': { href: `${BASE}/apikeys/k1` }, 'delete apikey': { href: `${BASE}/apikeys/k1` } },
  };

  it('lists keys', async () => {
    const { client, calls } = api({ body: page('apikeys', [key]) });
    expect((await listApiKeys(client))[0]?.name).toBe('ci');
    expect(calls[0]!.url).toBe(`${BASE}/apikeys`);
  });

  it('drafts with POST /apikeys, then saves the named key through its create link', async () => {
    const { client, calls } = api({ body: draft }, { body: { ...key, clientSecret: 's3cret' } });
    const drafted = await draftApiKey(client);
    const created = await createApiKey(client, drafted, 'ci');
    expect(created.clientSecret).toBe('s3cret');
    expect(calls[0]).toMatchObject({ method: 'POST', url: `${BASE}/apikeys` });
    expect(calls[1]).toMatchObject({ method: 'PUT', url: `${BASE}/apikeys/k1`, body: { id: 'k1', name: 'ci' } });
    expect(calls[1]!.body).not.toHaveProperty('_links');
  });

  it('renames through the update link; an empty answer keeps the key renamed locally', async () => {
    const { client, calls } = api({ status: 204 });
    const renamed = await renameApiKey(client, key, 'deploy');
    expect(renamed.name).toBe('deploy');
    expect(calls[0]).toMatchObject({ method: 'PUT', body: { id: 'k1', name: 'deploy', clientId: 'c1' } });
  });

  it('deletes through the delete link with the key as body', async () => {
    const { client, calls } = api({ status: 204 });
    await deleteApiKey(client, key);
    expect(calls[0]).toMatchObject({ method: 'DELETE', url: `${BASE}/apikeys/k1`, body: { id: 'k1', name: 'ci', clientId: 'c1' } });
  });
});

describe('questions', () => {
  it("POSTs {question} to the workspace 'questions' link and returns the answer", async () => {
    const { client, calls } = api({ body: { description: 'Sales', alias: 'sales/monthly' } });
    expect(await ask(client, workspace, 'monthly sales?')).toEqual({ description: 'Sales', alias: 'sales/monthly' });
    expect(calls[0]).toMatchObject({ method: 'POST', url: `${BASE}/workspaces/w1/questions`, body: { question: 'monthly sales?' } });
  });

  it('204 means nothing was found: null', async () => {
    const { client } = api({ status: 204 });
    expect(await ask(client, workspace, 'anything?')).toBeNull();
  });
});

describe('datasets', () => {
  it('reads the feed 10 at a time', async () => {
    const { client, calls } = api({ body: page('datasets', []) });
    await feed(client, 'w1', 2);
    expect(calls[0]!.url).toBe(`${BASE}/workspaces/w1/feed?page=2&size=10`);
  });

  it('searches with the quotes stripped', async () => {
    const { client, calls } = api({ body: page('datasets', []) });
    await search(client, 'w1', { q: '"monthly sales"', page: 1, size: 20 });
    const url = new URL(calls[0]!.url);
    expect(url.pathname).toBe('/api/workspaces/w1/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'monthly sales', page: '1', size: '20' });
  });

  it('reads a dataset by alias, each part encoded and the slashes kept', async () => {
    const { client, calls } = api({ body: { id: 'd1', title: 'T' } });
    await getDataset(client, 'w1', 'sales/by region?');
    expect(calls[0]!.url).toBe(`${BASE}/workspaces/w1/datasets/sales/by%20region%3F`);
  });

  it('an alias made only of dot parts is refused without a request', async () => {
    const { client, calls } = api();
    await expect(getDataset(client, 'w1', '../..')).rejects.toThrow();
    expect(calls).toHaveLength(0);
  });
});

describe('password reset', () => {
  const request = { client_id: 'spa', email: 'ann@example.com', connection: 'Username-Password-Authentication' };

  it("POSTs to the identity provider's change_password and returns its text", async () => {
    const fake = fakeFetch({ status: 200, body: "We've just sent you an email to reset your password." });
    const text = await requestPasswordReset(fake.fetch, 'https://id.example/', request);
    expect(text).toBe("We've just sent you an email to reset your password.");
    expect(fake.calls[0]).toMatchObject({ method: 'POST', url: 'https://id.example/dbconnections/change_password', body: request });
    expect(fake.calls[0]!.headers.has('authorization')).toBe(false);
  });

  it('accepts a JSON string answer', async () => {
    const json = fakeFetch({ status: 200, body: '"Email sent"' });
    expect(await requestPasswordReset(json.fetch, 'https://id.example', request)).toBe('Email sent');
  });

  it('rejects on an error status and on no connection', async () => {
    const bad = fakeFetch({ status: 400, body: 'bad email' });
    const failure = await requestPasswordReset(bad.fetch, 'https://id.example', request).catch((error: unknown) => error);
    expect(toApiError(failure)).toEqual({ kind: 'response', status: 400, message: '[400] bad email' });
    const offline = fakeFetch({ networkError: true });
    const offlineFailure = await requestPasswordReset(offline.fetch, 'https://id.example', request).catch((error: unknown) => error);
    expect(toApiError(offlineFailure).kind).toBe('network');
  });
});
