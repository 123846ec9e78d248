import { randomUUID } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../server/security/secrets';
import { createIdpUser, findIdpUserByEmail } from '../../server/identity/users';
import {
  Browser,
  clientCredentialsToken,
  findForm,
  follow,
  mailedLink,
  readOutbox,
  refreshTokens,
  signIn,
  signOut,
  signUp,
  startAuthorization,
  submitForm,
  submitLogin,
  TokenRequestError,
} from '../support/auth';
import { createTestDatabase, startTestServer, type TestServer } from '../support/server';

const OWNER = { email: 'owner@example.com', name: 'Demo Owner', password: 'demo-owner' };
const UNVERIFIED = { email: 'unverified@example.com', name: 'Demo Unverified', password: 'demo-unverified' };

async function verifyAccessToken(server: TestServer, token: string): Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL(`${server.baseUrl}/idp/.well-known/jwks.json`));
  const { payload } = await jwtVerify(token, jwks, { issuer: `${server.baseUrl}/idp/`, audience: `${server.baseUrl}/api`, algorithms: ['RS256'] });
  return payload;
}

const apiRoot = (server: TestServer, token?: string) =>
  fetch(`${server.baseUrl}/api/`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

describe('embedded identity provider', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await createIdpUser(server.db, { ...OWNER, emailVerified: true });
    await createIdpUser(server.db, { ...UNVERIFIED, emailVerified: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('publishes a discovery document whose issuer is the domain plus a slash, with the SDK paths', async () => {
    const response = await fetch(`${server.baseUrl}/idp/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const discovery = (await response.json()) as Record<string, unknown>;
    const idp = `${server.baseUrl}/idp`;
    expect(discovery).toMatchObject({
      issuer: `${idp}/`,
      authorization_endpoint: `${idp}/authorize`,
      token_endpoint: `${idp}/oauth/token`,
      end_session_endpoint: `${idp}/v2/logout`,
      revocation_endpoint: `${idp}/oauth/revoke`,
      userinfo_endpoint: `${idp}/userinfo`,
      jwks_uri: `${idp}/.well-known/jwks.json`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']));
    expect(discovery.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
  });

  it('builds its URLs from the issuer, whatever Host header arrives', async () => {
    const response = await fetch(`${server.baseUrl}/idp/.well-known/openid-configuration`, { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } });
    const discovery = (await response.json()) as Record<string, unknown>;
    expect(discovery.token_endpoint).toBe(`${server.baseUrl}/idp/oauth/token`);
  });

  it('signs a user in with code + PKCE; the access token verifies against the JWKS for the API audience', async () => {
    const tokens = await signIn(server.baseUrl, { email: OWNER.email, password: OWNER.password });
    const access = await verifyAccessToken(server, tokens.accessToken);
    const user = await findIdpUserByEmail(server.db, OWNER.email);
    expect(access).toMatchObject({ sub: `auth0|${user!.id}`, client_id: 'workspace-spa', email: OWNER.email, email_verified: true, name: OWNER.name });
    expect(access.exp! - access.iat!).toBe(3600);

    const jwks = createRemoteJWKSet(new URL(`${server.baseUrl}/idp/.well-known/jwks.json`));
    const { payload: id } = await jwtVerify(tokens.idToken, jwks, { issuer: `${server.baseUrl}/idp/`, audience: 'workspace-spa' });
    expect(id).toMatchObject({ sub: access.sub, email: OWNER.email, email_verified: true, name: OWNER.name, nickname: 'owner' });
    expect(typeof id.nonce).toBe('string');
  });

  it('lets the API accept a real token and refuse a missing or forged one', async () => {
    const { accessToken } = await signIn(server.baseUrl, { email: OWNER.email, password: OWNER.password });
    expect((await apiRoot(server, accessToken)).status).toBe(200);
    expect((await apiRoot(server)).status).toBe(401);
    const [header, payload] = accessToken.split('.');
    expect((await apiRoot(server, `${header}.${payload}.${'A'.repeat(342)}`)).status).toBe(401);
  });

  it('publishes only public key material', async () => {
    const { keys } = (await (await fetch(`${server.baseUrl}/idp/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(key).not.toHaveProperty('d');
      expect(key).not.toHaveProperty('p');
    }
    expect(await server.server.identity!.jwks()).toEqual({ keys });
  });

  it('shows "Wrong email or password." and issues no code for a wrong password', async () => {
    const browser = new Browser();
    const { transaction, landing } = await startAuthorization(browser, server.baseUrl, { loginHint: OWNER.email });
    expect(landing.kind).toBe('page');
    if (landing.kind !== 'page') return;
    expect(landing.html).toContain(`value="${OWNER.email}"`);
    const wrong = await submitLogin(browser, landing, transaction, { email: OWNER.email, password: 'not-the-password' });
    expect(wrong.kind).toBe('page');
    if (wrong.kind !== 'page') return;
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('Wrong email or password.');
    const unknown = await submitLogin(browser, wrong, transaction, { email: 'nobody@example.com', password: 'whatever-it-is' });
    expect(unknown.kind === 'page' && unknown.html.includes('Wrong email or password.')).toBe(true);
    // The same interaction still accepts the right password afterwards.
    const right = await submitLogin(browser, unknown, transaction, OWNER);
    expect(right.kind).toBe('callback');
  });

  it('refuses a login form posted without the interaction cookie (another site cannot post it)', async () => {
    const browser = new Browser();
    const { landing } = await startAuthorization(browser, server.baseUrl);
    if (landing.kind !== 'page') throw new Error('expected the sign-in page');
    const form = findForm(landing.html, landing.url, '/login');
    const response = await new Browser().request(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: OWNER.email, password: OWNER.password }).toString(),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('renders its pages without any external asset', async () => {
    const browser = new Browser();
    const { landing } = await startAuthorization(browser, server.baseUrl);
    if (landing.kind !== 'page') throw new Error('expected the sign-in page');
    const error = await fetch(`${server.baseUrl}/idp/authorize?client_id=unknown-client&response_type=code&scope=openid`);
    const errorHtml = await error.text();
    expect(error.status).toBe(400);
    for (const html of [landing.html, errorHtml]) {
      expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
      expect(html).not.toContain('@import');
    }
    expect(landing.html).toContain('#483D8B');
  });

  it('signs up an unverified user, mails a verification link, and following it verifies the email', async () => {
    const email = `new-${randomUUID()}@example.com`;
    const tokens = await signUp(server.baseUrl, { name: 'New Person', email, password: 'a-long-password' });
    expect(decodeJwt(tokens.idToken)).toMatchObject({ email, email_verified: false, name: 'New Person' });
    expect((await verifyAccessToken(server, tokens.accessToken)).email_verified).toBe(false);
    const created = await findIdpUserByEmail(server.db, email);
    expect(created?.emailVerified).toBe(false);
    expect(decodeJwt(tokens.idToken).sub).toBe(`auth0|${created!.id}`);

    const link = await mailedLink(server.baseUrl, email, '/verify-email');
    expect(link.startsWith(`${server.baseUrl}/idp/verify-email?token=`)).toBe(true);
    // Verified, and handed to the app's fresh sign-in saying so (issue 38; identity-email-links.test.ts)
    const verified = await fetch(link, { redirect: 'manual' });
    expect(verified.status).toBe(303);
    expect(verified.headers.get('location')).toBe(`${server.baseUrl}/?email=${encodeURIComponent(email)}&notice=email_verified`);
    expect((await findIdpUserByEmail(server.db, email))?.emailVerified).toBe(true);
    // A second click (or a mail scanner's first) still lands there.
    expect((await fetch(link, { redirect: 'manual' })).headers.get('location')).toBe(verified.headers.get('location'));

    const again = await signIn(server.baseUrl, { email, password: 'a-long-password' });
    expect(decodeJwt(again.idToken).email_verified).toBe(true);
    expect((await verifyAccessToken(server, again.accessToken)).email_verified).toBe(true);
  });

  it('rejects sign-up field by field, and a common password however long', async () => {
    const browser = new Browser();
    const { landing } = await startAuthorization(browser, server.baseUrl, { screenHint: 'signup' });
    if (landing.kind !== 'page') throw new Error('expected the sign-up page');
    const form = findForm(landing.html, landing.url, '/signup');
    const bad = await submitForm(browser, form, { name: ' ', email: 'not-an-email', password: 'short' });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain('Enter your name');
    expect(html).toContain('Enter valid email address');
    expect(html).toContain('Password must be at least 10 characters.');
    const common = await submitForm(browser, form, { name: 'Someone', email: `common-${randomUUID()}@example.com`, password: 'password123' });
    expect(common.status).toBe(400);
    expect(await common.text()).toContain('This password is one of the most common passwords');
  });

  it('resets a password: Auth0 change_password answer, mailed one-time link, new password works', async () => {
    const email = `reset-${randomUUID()}@example.com`;
    await createIdpUser(server.db, { email, name: 'Reset Me', password: 'old-password', emailVerified: false });
    const request = (address: string) =>
      fetch(`${server.baseUrl}/idp/dbconnections/change_password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl },
        body: JSON.stringify({ client_id: 'workspace-spa', email: address, connection: 'Username-Password-Authentication' }),
      });
    const answer = await request(email);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(server.baseUrl);
    expect(await answer.text()).toBe("We've just sent you an email to reset your password.");

    // Unknown address: the same answer, and no mail.
    const before = (await readOutbox(server.baseUrl)).length;
    const unknown = await request(`nobody-${randomUUID()}@example.com`);
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toBe("We've just sent you an email to reset your password.");
    expect((await readOutbox(server.baseUrl)).length).toBe(before);

    const link = await mailedLink(server.baseUrl, email, '/reset-password');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const form = findForm(await page.text(), link, '/reset-password');
    const tooShort = await submitForm(new Browser(), form, { password: 'short' });
    expect(tooShort.status).toBe(400);
    expect(await tooShort.text()).toContain('Password must be at least 10 characters.');
    const common = await submitForm(new Browser(), form, { password: 'qwertyuiop' });
    expect(common.status).toBe(400);
    expect(await common.text()).toContain('This password is one of the most common passwords');
    const changed = await submitForm(new Browser(), form, { password: 'brand-new-password' });
    // changed, and handed to the app's sign-in, which says so (identity-email-links.test.ts)
    expect(changed.status).toBe(303);
    expect(changed.headers.get('location')).toBe(`${server.baseUrl}/?email=${encodeURIComponent(email)}&notice=password_changed`);
    expect((await submitForm(new Browser(), form, { password: 'another-password' })).status).toBe(400);

    await expect(signIn(server.baseUrl, { email, password: 'old-password' })).rejects.toThrow(/did not complete/);
    const tokens = await signIn(server.baseUrl, { email, password: 'brand-new-password' });
    // The mailed link proved the address.
    expect(decodeJwt(tokens.idToken).email_verified).toBe(true);
  });

  it('answers the browser preflight of change_password for the app origin only', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.baseUrl}/idp/dbconnections/change_password`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    const ours = await preflight(server.baseUrl);
    expect(ours.status).toBe(204);
    expect(ours.headers.get('access-control-allow-origin')).toBe(server.baseUrl);
    expect((await preflight('https://elsewhere.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('rotates refresh tokens, and treats a reused one as stolen', async () => {
    const first = await signIn(server.baseUrl, { email: OWNER.email, password: OWNER.password });
    const second = await refreshTokens(server.baseUrl, first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const access = await verifyAccessToken(server, second.accessToken);
    expect(access).toMatchObject({ email: OWNER.email, email_verified: true });
    expect((await apiRoot(server, second.accessToken)).status).toBe(200);
    await expect(refreshTokens(server.baseUrl, first.refreshToken)).rejects.toBeInstanceOf(TokenRequestError);
  });

  it('gives API keys (hashed secrets in api_keys) client-credentials JWTs for the API audience', async () => {
    const profileId = `auth0|${(await findIdpUserByEmail(server.db, OWNER.email))!.id}`;
    await server.db.insertInto('profiles').values({ id: profileId, name: OWNER.name, email: OWNER.email, default_workspace_id: null, features_disabled: null, can_create_workspaces: false }).onConflict((oc) => oc.column('id').doNothing()).execute();
    const clientId = randomUUID().replace(/-/g, '');
    const secret = `secret-${randomUUID()}`;
    await server.db.insertInto('api_keys').values({ id: randomUUID(), profile_id: profileId, name: 'default', client_id: clientId, secret_hash: hashSecret(secret) }).execute();

    const viaPost = await clientCredentialsToken(server.baseUrl, clientId, secret);
    expect(viaPost.tokenType).toBe('Bearer');
    const claims = await verifyAccessToken(server, viaPost.accessToken);
    expect(claims).toMatchObject({ sub: clientId, client_id: clientId, email: OWNER.email, email_verified: true });
    expect((await apiRoot(server, viaPost.accessToken)).status).toBe(200);

    const viaBasic = await clientCredentialsToken(server.baseUrl, clientId, secret, undefined, 'basic');
    expect((await verifyAccessToken(server, viaBasic.accessToken)).sub).toBe(clientId);

    for (const authentication of ['post', 'basic'] as const) {
      const wrong = await clientCredentialsToken(server.baseUrl, clientId, `${secret}x`, undefined, authentication).catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(TokenRequestError);
      expect((wrong as TokenRequestError).status).toBe(401);
      expect((wrong as TokenRequestError).body.error).toBe('invalid_client');
    }
    // The stored hash itself is not a secret that works.
    expect(await clientCredentialsToken(server.baseUrl, clientId, hashSecret(secret)).catch((e: unknown) => e)).toBeInstanceOf(TokenRequestError);
    const otherAudience = await clientCredentialsToken(server.baseUrl, clientId, secret, 'https://other.example/api').catch((e: unknown) => e);
    expect((otherAudience as TokenRequestError).body.error).toBe('invalid_target');

    // A deleted key stops working at once.
    await server.db.deleteFrom('api_keys').where('client_id', '=', clientId).execute();
    expect(await clientCredentialsToken(server.baseUrl, clientId, secret).catch((e: unknown) => e)).toBeInstanceOf(TokenRequestError);
  });

  it('ends the session at /v2/logout?returnTo=...&client_id=... and goes back to returnTo', async () => {
    const browser = new Browser();
    const tokens = await signIn(server.baseUrl, { email: OWNER.email, password: OWNER.password, browser });
    // While the session lasts, a silent authorization needs no form.
    const silent = await startAuthorization(browser, server.baseUrl, { prompt: 'none' });
    expect(silent.landing.kind === 'callback' && silent.landing.url.searchParams.has('code')).toBe(true);

    const returnTo = `${server.baseUrl}/logout`;
    const done = await signOut(browser, server.baseUrl, returnTo);
    expect(done.kind).toBe('callback');
    if (done.kind === 'callback') expect(done.url.href).toBe(returnTo);

    const after = await startAuthorization(browser, server.baseUrl, { prompt: 'none' });
    expect(after.landing.kind === 'callback' && after.landing.url.searchParams.get('error')).toBe('login_required');
    // Logout revoked the grant: the refresh token of that sign-in is dead.
    await expect(refreshTokens(server.baseUrl, tokens.refreshToken)).rejects.toBeInstanceOf(TokenRequestError);
  });

  it('refuses a returnTo outside the application', async () => {
    const browser = new Browser();
    await signIn(server.baseUrl, { email: OWNER.email, password: OWNER.password, browser });
    const url = `${server.baseUrl}/idp/v2/logout?${new URLSearchParams({ client_id: 'workspace-spa', returnTo: 'https://evil.example/' }).toString()}`;
    const landing = await follow(browser, await browser.request(url), url, 'https://evil.example/');
    expect(landing.kind).toBe('page');
    if (landing.kind === 'page') expect(landing.status).toBe(400);
  });

  it('keeps the mail in an outbox, newest first, as HTML with links and as JSON', async () => {
    const messages = await readOutbox(server.baseUrl);
    expect(messages.length).toBeGreaterThan(0);
    const times = messages.map((m) => Date.parse(m.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const page = await fetch(`${server.baseUrl}/idp/outbox`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<a href="${messages[0]!.links[0]!.replace(/&/g, '&amp;')}">`);
  });
});

describe('embedded identity provider across a restart', () => {
  it('keeps its signing key and its refresh tokens: a token issued before the restart still works after', async () => {
    const database = await createTestDatabase({ persistent: true });
    try {
      const first = await startTestServer({ database });
      let tokens;
      let kids: unknown;
      try {
        await createIdpUser(first.db, { ...OWNER, emailVerified: true });
        // the fresh server's first request to the provider is a whole sign-in: the provider is made then
        tokens = await signIn(first.baseUrl, { email: OWNER.email, password: OWNER.password });
        kids = ((await (await fetch(`${first.baseUrl}/idp/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
      } finally {
        await first.close();
      }
      const second = await startTestServer({ database, port: first.port });
      try {
        // first, before anything under /idp: the API verifies a token without the provider, which
        // is made on the first request that needs it (server/identity/index.ts)
        expect((await apiRoot(second, tokens.accessToken)).status).toBe(200);
        const after = ((await (await fetch(`${second.baseUrl}/idp/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
        expect(after).toEqual(kids);
        const refreshed = await refreshTokens(second.baseUrl, tokens.refreshToken);
        expect((await apiRoot(second, refreshed.accessToken)).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await database.dispose();
    }
    // two starts of a persistent embedded database: 70 s on two cores beside the other test lanes, and CI's went past 90 s
  }, 240_000);

  it('gives the outbox only when no SMTP server is configured', async () => {
    const server = await startTestServer({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    try {
      expect((await fetch(`${server.baseUrl}/idp/outbox.json`)).status).toBe(404);
      expect((await fetch(`${server.baseUrl}/idp/outbox`)).status).toBe(404);
    } finally {
      await server.close();
    }
    // a server of its own: its start (migrations on a new embedded database) took over 30 s in CI's lanes on two cores
  }, 120_000);
});
