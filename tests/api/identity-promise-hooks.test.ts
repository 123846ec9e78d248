import { executionAsyncId } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerContext } from '../../server/identity/provider-context';
import { createIdpUser } from '../../server/identity/users';
import { refreshTokens, signIn } from '../support/auth';
import { startTestServer, type TestServer } from '../support/server';

const USER = { email: 'hooks@example.com', name: 'Hooks', password: 'hooks-password-1' };

/** The async id a promise continuation runs in: 0 while no promise hooks are on (Node 20). */
async function continuationAsyncId(): Promise<number> {
  await Promise.resolve();
  return executionAsyncId();
}

// server/identity/provider-context.ts: the provider's AsyncLocalStorage must not leave async_hooks'
// promise hooks on for the API's requests once its own requests are over.
describe("the identity provider's request context", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await createIdpUser(server.db, { ...USER, emailVerified: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("is the provider's own storage", async () => {
    const { default: Provider } = await import('oidc-provider');
    expect(providerContext.run('probe', () => Provider.ctx)).toBe('probe');
    providerContext.disable();
  });

  it('turns the promise hooks off once sign-in and a refresh are over, and the provider works throughout', async () => {
    expect(await continuationAsyncId()).toBe(0);
    const tokens = await signIn(server.baseUrl, USER);
    expect(await continuationAsyncId()).toBe(0);
    const refreshed = await refreshTokens(server.baseUrl, tokens.refreshToken);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(await continuationAsyncId()).toBe(0);
    const root = await fetch(`${server.baseUrl}/api/`, { headers: { authorization: `Bearer ${refreshed.accessToken}` } });
    expect(root.status).toBe(200);
  });
});
