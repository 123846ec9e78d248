import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdpUser } from '../../server/identity/users';
import { Browser, exchangeCode, findForm, findLink, mailedLink, signIn, signOut, startAuthorization, submitForm, submitLogin, type Landing } from '../support/auth';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Issue 38, item 1: links sent by mail work in a new tab, another browser or another device. A
 * link's page does its work and hands the person to the app, which begins a fresh sign-in
 * (loginWithRedirect with the address as login_hint and what happened as ext-notice or
 * ext-invitation); that sign-in needs no password in a browser that proved itself (the one that
 * signed up, or used a sign-in link or a reset), and otherwise says what happened above the form.
 */

const PASSWORD = 'a-long-password';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Where a link's page sent the browser: the app's address, with its query. */
function handedTo(response: Response): URL {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toMatch(new RegExp(`^${server.baseUrl}/`));
  return location;
}

/** What the app does with that address: a fresh authorization with the hint and the notice. */
function freshSignIn(browser: Browser, app: URL) {
  const email = app.searchParams.get('email') ?? '';
  const notice = app.searchParams.get('notice');
  const invitation = app.searchParams.get('invitation');
  return startAuthorization(browser, server.baseUrl, {
    loginHint: email,
    extra: { ...(notice ? { 'ext-notice': notice } : {}), ...(invitation ? { 'ext-invitation': invitation } : {}) },
  });
}

const page = (landing: Landing) => {
  if (landing.kind !== 'page') throw new Error(`expected a page, the browser went back to the app: ${landing.url.href}`);
  return landing;
};

/** Signs up through the provider's own page in `browser`, and returns the mailed verification link. */
async function signUpIn(browser: Browser, email: string): Promise<string> {
  const { landing } = await startAuthorization(browser, server.baseUrl, { screenHint: 'signup' });
  const answer = await submitForm(browser, findForm(page(landing).html, page(landing).url, '/signup'), { name: 'Vera', email, password: PASSWORD });
  expect(await answer.text()).toContain('Check your email');
  return mailedLink(server.baseUrl, email, '/verify-email');
}

describe('the verification link', () => {
  it('opened anywhere else: verified, and a sign-in form that says "Email verified" with the address, then the password signs in', async () => {
    const email = `vera-${randomUUID()}@example.com`;
    const link = await signUpIn(new Browser(), email);
    expect(link).not.toContain('interaction=');

    const phone = new Browser();
    const app = handedTo(await phone.request(link));
    expect(app.searchParams.get('email')).toBe(email);
    expect(app.searchParams.get('notice')).toBe('email_verified');

    const { transaction, landing } = await freshSignIn(phone, app);
    const form = page(landing);
    expect(form.html).toContain('Email verified');
    expect(form.html).toContain('Enter your password to continue.');
    expect(findForm(form.html, form.url, '/login').fields.email).toBe(email);

    const done = await submitLogin(phone, form, transaction, { email, password: PASSWORD });
    if (done.kind !== 'callback') throw new Error('the password did not sign in');
    expect(decodeJwt((await exchangeCode(transaction, done.url)).idToken)).toMatchObject({ email, email_verified: true });
  });

  it('opened in the browser that signed up (any tab): signed in by the fresh sign-in without the password, once', async () => {
    const email = `vera-${randomUUID()}@example.com`;
    const browser = new Browser();
    const link = await signUpIn(browser, email);
    // before verification, the cookie opens nothing: the form asks for the password
    expect((await startAuthorization(browser, server.baseUrl, { loginHint: email })).landing.kind).toBe('page');

    const held = browser.cookieValue('_idp_continue');
    expect(held).toBeTruthy();
    // a credential like a session: it is good for an hour, no longer
    const { expires_at: expires } = await server.db.selectFrom('idp_tokens as t').innerJoin('idp_users as u', 'u.id', 't.user_id').select('t.expires_at').where('u.email', '=', email).where('t.kind', '=', 'browser-sign-in').executeTakeFirstOrThrow();
    expect(new Date(expires).getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
    expect(new Date(expires).getTime() - Date.now()).toBeGreaterThan(3500_000);
    const app = handedTo(await browser.request(link));
    // another address as the hint (a shared browser, the next person): the form, not this account
    expect((await startAuthorization(browser, server.baseUrl, { loginHint: `other-${email}` })).landing.kind).toBe('page');
    const { transaction, landing } = await freshSignIn(browser, app);
    if (landing.kind !== 'callback') throw new Error(`expected to be signed in, got the page:\n${landing.html.slice(0, 800)}`);
    expect(decodeJwt((await exchangeCode(transaction, landing.url)).idToken)).toMatchObject({ email, email_verified: true });

    // once: signed out, the next sign-in asks for the password again
    await signOut(browser, server.baseUrl);
    expect((await freshSignIn(browser, app)).landing.kind).toBe('page');
    // and the cookie, replayed from another browser after its use, opens nothing
    const thief = new Browser();
    thief.setCookie('_idp_continue', held ?? '', '/idp');
    expect((await freshSignIn(thief, app)).landing.kind).toBe('page');
  });

  it('the first tab\'s "Back to sign in" begins a fresh sign-in too: no "Sign-in expired" after the link was used elsewhere', async () => {
    const email = `vera-${randomUUID()}@example.com`;
    const browser = new Browser();
    const { landing } = await startAuthorization(browser, server.baseUrl, { screenHint: 'signup' });
    const checkEmail = await (await submitForm(browser, findForm(page(landing).html, page(landing).url, '/signup'), { name: 'Vera', email, password: PASSWORD })).text();
    handedTo(await new Browser().request(await mailedLink(server.baseUrl, email, '/verify-email')));

    const back = new URL(findLink(checkEmail, page(landing).url, 'notice='));
    expect(back.searchParams.get('email')).toBe(email);
    const fresh = await freshSignIn(browser, back);
    if (fresh.landing.kind !== 'callback') throw new Error('the browser that signed up was asked for the password');
    expect(decodeJwt((await exchangeCode(fresh.transaction, fresh.landing.url)).idToken)).toMatchObject({ email, email_verified: true });
  });

  it('a sign-up with an address that has an account gets a cookie that opens nothing', async () => {
    const owner = { email: `owner-${randomUUID()}@example.com`, name: 'Olga', password: 'olga-own-password' };
    await createIdpUser(server.db, { ...owner, emailVerified: true });
    const intruder = new Browser();
    const { landing } = await startAuthorization(intruder, server.baseUrl, { screenHint: 'signup' });
    const answer = await submitForm(intruder, findForm(page(landing).html, page(landing).url, '/signup'), { name: 'Eve', email: owner.email, password: 'eve-chose-this-1' });
    expect(intruder.cookieNames()).toContain('_idp_continue');
    // the same cookie as a real sign-up's: an hour, for the provider's paths, out of scripts' reach
    expect(answer.headers.getSetCookie()).toEqual([expect.stringMatching(/^_idp_continue=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/idp; HttpOnly; SameSite=Lax$/)]);
    expect((await startAuthorization(intruder, server.baseUrl, { loginHint: owner.email })).landing.kind).toBe('page');
  });

  it('an unknown, used-up or forged token is the expired-link page; a leftover interaction parameter is ignored', async () => {
    const bad = await fetch(`${server.baseUrl}/idp/verify-email?token=${'x'.repeat(43)}`, { redirect: 'manual' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('This link has expired');
    const email = `vera-${randomUUID()}@example.com`;
    const link = await signUpIn(new Browser(), email);
    const old = await fetch(`${link}&interaction=${encodeURIComponent('../../x"><script>')}`, { redirect: 'manual' });
    expect(old.headers.get('location')).toBe(`${server.baseUrl}/?email=${encodeURIComponent(email)}&notice=email_verified`);
  });
});

describe('the invitation link', () => {
  let invitation: string;
  const invitee = `ivy-${randomUUID()}@example.com`;

  beforeAll(async () => {
    const workspace = randomUUID();
    invitation = randomUUID();
    await server.db.insertInto('workspaces').values({ id: workspace, name: 'Rita <Retail> & Co', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
    await server.db.insertInto('invitations').values({ id: invitation, workspace_id: workspace, email: invitee, status: 'PENDING' }).execute();
  });

  const invited = (browser: Browser, hint: string, id: string, screenHint?: 'signup') =>
    startAuthorization(browser, server.baseUrl, { loginHint: hint, extra: { 'ext-invitation': id }, ...(screenHint ? { screenHint } : {}) });

  it('opens a sign-in form saying "You\'re invited to <workspace>", the address filled in, and a way to create the account', async () => {
    const browser = new Browser();
    const form = page((await invited(browser, invitee.toUpperCase(), invitation)).landing);
    expect(form.html).toContain('You&#39;re invited to Rita &lt;Retail&gt; &amp; Co');
    expect(findForm(form.html, form.url, '/login').fields.email).toBe(invitee.toUpperCase());
    const create = findLink(form.html, form.url, '/signup');
    const signUpPage = await (await browser.request(create)).text();
    expect(signUpPage).toContain('Create your account');
    expect(signUpPage).toContain('You&#39;re invited to Rita');
    expect(findForm(signUpPage, create, '/signup').fields.email).toBe(invitee.toUpperCase());
    // and straight to the sign-up form when the app asks for it
    expect(findForm(page((await invited(new Browser(), invitee, invitation, 'signup')).landing).html, server.baseUrl, '/signup').fields.email).toBe(invitee);
  });

  it('says nothing of the workspace to another address, an unknown or hostile id, or an invitation no longer pending', async () => {
    for (const [hint, id] of [
      [`someone-${randomUUID()}@example.com`, invitation],
      [invitee, randomUUID()],
      [invitee, '../../etc"><script>'],
    ] as const) {
      const form = page((await invited(new Browser(), hint, id)).landing);
      expect(form.status).toBe(200);
      expect(form.html).not.toContain('invited');
      expect(form.html).not.toContain('<script>');
    }
    await server.db.updateTable('invitations').set({ status: 'REVOKED' }).where('id', '=', invitation).execute();
    try {
      expect(page((await invited(new Browser(), invitee, invitation)).landing).html).not.toContain('invited');
    } finally {
      await server.db.updateTable('invitations').set({ status: 'PENDING' }).where('id', '=', invitation).execute();
    }
  });

  it('an unknown notice says nothing; the known ones say what happened', async () => {
    const say = async (notice: string) => page((await startAuthorization(new Browser(), server.baseUrl, { loginHint: 'a@example.com', extra: { 'ext-notice': notice } })).landing).html;
    expect(await say('password_changed')).toContain('Password changed');
    expect(await say('<b>hacked</b>')).not.toMatch(/hacked|class="notice"/);
  });
});

describe('the password-reset and sign-in links', () => {
  async function account() {
    const email = `pat-${randomUUID()}@example.com`;
    await createIdpUser(server.db, { email, name: 'Pat', password: 'old-password-1', emailVerified: true });
    return email;
  }

  it('a reset in another browser: that browser is signed in by the fresh sign-in; anywhere else the form says "Password changed"', async () => {
    const email = await account();
    await fetch(`${server.baseUrl}/idp/dbconnections/change_password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    const link = await mailedLink(server.baseUrl, email, '/reset-password');
    const phone = new Browser();
    const form = findForm(await (await phone.request(link)).text(), link, '/reset-password');
    const app = handedTo(await submitForm(phone, form, { password: 'brand-new-password' }));
    expect(app.searchParams.get('notice')).toBe('password_changed');

    const elsewhere = page((await freshSignIn(new Browser(), app)).landing);
    expect(elsewhere.html).toContain('Password changed');
    expect(findForm(elsewhere.html, elsewhere.url, '/login').fields.email).toBe(email);

    const here = await freshSignIn(phone, app);
    if (here.landing.kind !== 'callback') throw new Error('the browser that reset the password was asked for it');
    expect(decodeJwt((await exchangeCode(here.transaction, here.landing.url)).idToken).email).toBe(email);
    expect((await signIn(server.baseUrl, { email, password: 'brand-new-password' })).accessToken).toBeTruthy();
  });

  it('a sign-in link opened on another device signs in there, once; a mail scanner opening it signs nobody in', async () => {
    const email = await account();
    const laptop = new Browser();
    const { landing } = await startAuthorization(laptop, server.baseUrl);
    const request = findForm(page(landing).html, page(landing).url, '/login');
    const asked = await submitForm(laptop, { ...request, action: request.action.replace(/\/login$/, '/link-request') }, { email });
    expect(await asked.text()).toContain('on this device or another');
    const link = await mailedLink(server.baseUrl, email, '/sign-in-link?token=');

    // a scanner's GET: a button, nothing used
    const scanner = new Browser();
    expect((await scanner.request(link)).status).toBe(200);
    expect(scanner.cookieNames()).not.toContain('_idp_continue');

    const phone = new Browser();
    const confirm = findForm(await (await phone.request(link)).text(), link, '/sign-in-link');
    const app = handedTo(await submitForm(phone, confirm, {}));
    const fresh = await freshSignIn(phone, app);
    if (fresh.landing.kind !== 'callback') throw new Error('the sign-in link did not sign in');
    expect(decodeJwt((await exchangeCode(fresh.transaction, fresh.landing.url)).idToken).email).toBe(email);
    expect((await submitForm(new Browser(), confirm, {})).status).toBe(400);
  });
});
