import { describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { createApiClient } from '../../api/client';
import { toApiError } from '../../api/errors';
import { fakeFetch, type FakeReply } from '../../api/testing/fakeFetch';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
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

// Independent checks (issue 40): the requests, bodies and reports are written here by hand.
describe('auth actors, checked by hand', () => {
  const client = (replies: FakeReply[]) => {
    const fake = fakeFetch(...replies);
    return { fake, client: createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 }) };
  };
  const settle = <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: unknown) => ({ error }));

  it('refuses a sign-in without a user as unauthorized, asking nothing', async () => {
    const { fake, client: api } = client([]);
    const actor = createActor(authActors({ client: api }).bootstrap, { input: { user: undefined } });
    actor.start();
    const outcome = await settle(toPromise(actor));
    expect('error' in outcome && toApiError(outcome.error)).toEqual({ kind: 'unauthorized' });
    expect(fake.calls).toEqual([]);
  });

  it('names the profile by the user\'s email, else the subject, and asks for invitations by the profile\'s email', async () => {
    const { fake, client: api } = client([
      { body: { id: 'auth0|2', name: 'bo@example.com', email: 'bo@example.com' } },
      { body: { _links: {} } },
      { body: workspaces('w1') },
      { body: { _embedded: { invitations: [] } } },
    ]);
    const nameless = createActor(authActors({ client: api }).bootstrap, { input: { user: { sub: 'auth0|2', email: 'bo@example.com' } } });
    nameless.start();
    await toPromise(nameless);
    expect(fake.calls[0]!.body).toEqual({ id: 'auth0|2', name: 'bo@example.com', email: 'bo@example.com' });

    const second = client([
      { body: { id: 'auth0|3', name: 'auth0|3', email: 'cy@example.com' } },
      { body: { _links: {} } },
      { body: workspaces('w1') },
      { body: { _embedded: { invitations: [] } } },
    ]);
    const bare = createActor(authActors({ client: second.client }).bootstrap, { input: { user: { sub: 'auth0|3' } } });
    bare.start();
    await toPromise(bare);
    expect(second.fake.calls[0]!.body).toEqual({ id: 'auth0|3', name: 'auth0|3', email: '' });
    expect(second.fake.calls.map((c) => c.url).at(-1)).toBe(`${BASE}/invitations?email=cy@example.com`);
  });

  it('asks for no invitations without any email', async () => {
    const { fake, client: api } = client([{ body: { id: 'auth0|4', name: 'auth0|4', email: '' } }, { body: { _links: {} } }, { body: workspaces('w1') }]);
    const actor = createActor(authActors({ client: api }).bootstrap, { input: { user: { sub: 'auth0|4' } } });
    actor.start();
    await expect(toPromise(actor)).resolves.toMatchObject({ targetWorkspaceId: undefined, workspaces: [{ id: 'w1' }] });
    expect(fake.calls).toHaveLength(3);
  });

  it('accepts only invitations offering acceptance, reports a refused one with its workspace, and stops on a 401', async () => {
    const reported: unknown[] = [];
    const withoutLink = { email: 'ann@example.com', workspace: { id: 'w5' }, _links: {} };
    const { fake, client: api } = client([
      { body: profile },
      { body: { _links: {} } },
      { body: workspaces('w1') },
      { body: { _embedded: { invitations: [withoutLink, invitation('w8'), invitation('w9')] } } },
      { status: 409, body: 'already accepted' },
      { status: 204 },
      { body: workspaces('w1', 'w9') },
    ]);
    const actor = createActor(authActors({ client: api, report: (error, context) => void reported.push([toApiError(error).kind, context]) }).bootstrap, { input: { user } });
    actor.start();
    await expect(toPromise(actor)).resolves.toMatchObject({ targetWorkspaceId: 'w9', workspaces: [{ id: 'w1' }, { id: 'w9' }] });
    expect(fake.calls.filter((c) => c.method === 'PATCH').map((c) => c.url)).toEqual([`${BASE}/invitations/w8`, `${BASE}/invitations/w9`]);
    expect(reported).toEqual([['response', { action: 'accept invitation', workspaceId: 'w8' }]]);

    const refused = client([{ body: profile }, { body: { _links: {} } }, { body: workspaces('w1') }, { body: { _embedded: { invitations: [invitation('w8')] } } }, { status: 401 }]);
    const stopped = createActor(authActors({ client: refused.client, report: () => void reported.push('never') }).bootstrap, { input: { user } });
    stopped.start();
    const outcome = await settle(toPromise(stopped));
    expect('error' in outcome && toApiError(outcome.error)).toEqual({ kind: 'unauthorized' });
    expect(reported).toHaveLength(1);
  });

  it('reloads the workspaces by GET /workspaces?size=99', async () => {
    const { fake, client: api } = client([{ body: workspaces('w1', 'w2') }]);
    const actor = createActor(authActors({ client: api }).reloadWorkspaces);
    actor.start();
    await expect(toPromise(actor)).resolves.toMatchObject([{ id: 'w1' }, { id: 'w2' }]);
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${BASE}/workspaces?size=99`]);
  });

  it('an invitation without a workspace is accepted and targets nothing; one whose acceptance fails is reported without one', async () => {
    const reported: unknown[] = [];
    const bare = { email: 'ann@example.com', _links: { 'accept invitation': { href: `${BASE}/invitations/x` } } };
    const accepted = client([{ body: profile }, { body: { _links: {} } }, { body: workspaces('w1') }, { body: { _embedded: { invitations: [bare] } } }, { status: 204 }]);
    const first = createActor(authActors({ client: accepted.client, report: (error, context) => void reported.push([toApiError(error).kind, context]) }).bootstrap, { input: { user } });
    first.start();
    await expect(toPromise(first)).resolves.toMatchObject({ targetWorkspaceId: undefined, workspaces: [{ id: 'w1' }] });
    expect(accepted.fake.calls).toHaveLength(5);
    expect(reported).toEqual([]);
    const refused = client([{ body: profile }, { body: { _links: {} } }, { body: workspaces('w1') }, { body: { _embedded: { invitations: [bare] } } }, { status: 409, body: 'gone' }]);
    const second = createActor(authActors({ client: refused.client, report: (error, context) => void reported.push([toApiError(error).kind, context]) }).bootstrap, { input: { user } });
    second.start();
    await expect(toPromise(second)).resolves.toMatchObject({ targetWorkspaceId: undefined });
    expect(reported).toEqual([['response', { action: 'accept invitation', workspaceId: undefined }]]);
    // nobody to tell: the sign-in goes on all the same
    const unreported = client([{ body: profile }, { body: { _links: {} } }, { body: workspaces('w1') }, { body: { _embedded: { invitations: [invitation('w8')] } } }, { status: 409, body: 'gone' }]);
    const third = createActor(authActors({ client: unreported.client }).bootstrap, { input: { user } });
    third.start();
    await expect(toPromise(third)).resolves.toMatchObject({ targetWorkspaceId: undefined, workspaces: [{ id: 'w1' }] });
  });

  it('leaving cancels whichever request of the sign-in is under way, and a cancelled acceptance is not reported', async () => {
    const answers: FakeReply[] = [{ body: profile }, { body: { _links: {} } }, { body: workspaces('w1') }, { body: { _embedded: { invitations: [invitation('w9')] } } }, { status: 204 }];
    // 1 root, 2 workspaces, 3 invitations, 4 the acceptance, 5 the workspaces again
    for (let stage = 1; stage <= 5; stage++) {
      const reported: unknown[] = [];
      const { fake, client: api } = client([...answers.slice(0, stage), { hang: true }]);
      const actor = createActor(authActors({ client: api, report: (error) => void reported.push(error) }).bootstrap, { input: { user } });
      actor.start();
      await vi.waitFor(() => expect(fake.calls).toHaveLength(stage + 1));
      actor.stop();
      expect(fake.calls[stage]!.signal?.aborted, `request ${stage}`).toBe(true);
      for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setImmediate(resolve));
      expect(reported, `request ${stage}`).toEqual([]);
    }
  });

  it('cancels the sign-in and the reload when the shell goes away', async () => {
    expect(await requestsCancelledOnStop((api) => authActors({ client: api }), { bootstrap: { user }, reloadWorkspaces: undefined })).toEqual({ bootstrap: true, reloadWorkspaces: true });
  });
});
