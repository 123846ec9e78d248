import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { createApiClient } from '../../api/client';
import { toApiError } from '../../api/errors';
import { fakeFetch, type FakeReply } from '../../api/testing/fakeFetch';
import { authActors } from './auth.actors';

const BASE = 'http://api.test/api';
const user = { sub: 'auth0|1', name: 'Ann', email: 'ann@example.com', email_verified: true };
const profile = { id: 'auth0|1', name: 'Ann', email: 'ann@example.com' };
const workspaces = (...ids: string[]) => ({ _embedded: { workspaces: ids.map((id) => ({ id, name: id })) } });
const invitation = (workspaceId: string) => ({
  email: 'ann@example.com',
  workspace: { id: workspaceId },
  _links: { 'accept invitation': { href: `${BASE}/invitations/${workspaceId}` } },
});

function run(replies: FakeReply[], reported: unknown[] = []) {
  const fake = fakeFetch(...replies);
  const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
  const { bootstrap } = authActors({ client, report: (error) => reported.push(error) });
  const actor = createActor(bootstrap, { input: { user } });
  actor.start();
  return { result: toPromise(actor), calls: fake.calls };
}

describe('bootstrap actor', () => {
  it('logs in, reads root and workspaces, and has no target without invitations', async () => {
    const { result, calls } = run([{ body: profile }, { body: { _links: {} } }, { body: workspaces('w1') }, { body: { _embedded: { invitations: [] } } }]);
    await expect(result).resolves.toMatchObject({ profile, workspaces: [{ id: 'w1' }], targetWorkspaceId: undefined });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST ${BASE}/profiles/auth0%7C1/login`,
      `GET ${BASE}/`,
      `GET ${BASE}/workspaces?size=99`,
      `GET ${BASE}/invitations?email=ann@example.com`,
    ]);
    expect(calls[0]!.body).toEqual({ id: 'auth0|1', name: 'Ann', email: 'ann@example.com' });
  });

  it('accepts pending invitations, targets the accepted workspace and re-reads the list', async () => {
    const { result, calls } = run([
      { body: profile },
      { body: { _links: {} } },
      { body: workspaces('w1') },
      { body: { _embedded: { invitations: [invitation('w9')] } } },
      { status: 204 },
      { body: workspaces('w1', 'w9') },
    ]);
    const output = await result;
    expect(output.targetWorkspaceId).toBe('w9');
    expect(output.workspaces.map((w) => w.id)).toEqual(['w1', 'w9']);
    expect(calls[4]).toMatchObject({ method: 'PATCH', url: `${BASE}/invitations/w9` });
  });

  it('skips and reports an invitation that cannot be accepted', async () => {
    const reported: unknown[] = [];
    const { result } = run(
      [
        { body: profile },
        { body: { _links: {} } },
        { body: workspaces('w1') },
        { body: { _embedded: { invitations: [invitation('w8')] } } },
        { status: 409, body: 'already accepted' },
      ],
      reported,
    );
    await expect(result).resolves.toMatchObject({ targetWorkspaceId: undefined, workspaces: [{ id: 'w1' }] });
    expect(reported.map((error) => toApiError(error).kind)).toEqual(['response']);
  });

  it('fails with unauthorized when the API refuses the token', async () => {
    const { result } = run([{ status: 401 }]);
    const failure = await result.catch((error: unknown) => error);
    expect(toApiError(failure)).toEqual({ kind: 'unauthorized' });
  });
});
