import { afterAll, describe, expect, it } from 'vitest';
import { DEMO, seedDemo } from '../../server/seed';
import { signIn } from '../support/auth';
import { createTestDatabase, startTestServer, type TestDatabase } from '../support/server';

const silent = { info: () => undefined } as never;

describe('a restart keeps everything that was written', () => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.dispose());

  it('profile edits and API keys survive stopping and starting the server', async () => {
    database = await createTestDatabase({ persistent: true });
    const first = await startTestServer({ database });
    await seedDemo(first.db, silent);
    const { accessToken } = await signIn(first.baseUrl, DEMO.member);
    const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const root = (await (await fetch(`${first.baseUrl}/api/`, { headers: auth })).json()) as { _links: Record<string, { href: string }> };
    const profile = (await (await fetch(root._links.profile!.href, { headers: auth })).json()) as { id: string };
    const saved = await fetch(`${first.baseUrl}/api/profiles/${encodeURIComponent(profile.id)}`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ id: profile.id, name: 'Max After Restart', email: DEMO.member.email }),
    });
    expect(saved.status).toBe(200);
    const draft = (await (await fetch(`${first.baseUrl}/api/apikeys`, { method: 'POST', headers: { authorization: auth.authorization } })).json()) as { _links: Record<string, { href: string }> };
    const created = await fetch(draft._links['create apikey']!.href, { method: 'PUT', headers: auth, body: JSON.stringify({ name: 'survivor' }) });
    expect(created.status).toBe(201);
    const port = first.port;
    await first.close();

    const second = await startTestServer({ database, port });
    try {
      const again = await signIn(second.baseUrl, DEMO.member);
      const headers = { authorization: `Bearer ${again.accessToken}` };
      const reread = (await (await fetch(`${second.baseUrl}/api/profiles/${encodeURIComponent(profile.id)}`, { headers })).json()) as { name: string };
      expect(reread.name).toBe('Max After Restart');
      const keys = (await (await fetch(`${second.baseUrl}/api/apikeys`, { headers })).json()) as { _embedded?: { apikeys: Array<{ name: string }> } };
      expect(keys._embedded?.apikeys.map((k) => k.name)).toContain('survivor');
      // The seed does not run twice: still exactly one Demo Workspace.
      await seedDemo(second.db, silent);
      const workspaces = await second.db.selectFrom('workspaces').select('name').where('name', '=', DEMO.workspaceName).execute();
      expect(workspaces).toHaveLength(1);
    } finally {
      await second.close();
    }
    // two starts of a persistent embedded database: over 30 s beside the other test lanes on two cores
  }, 90_000);
});
