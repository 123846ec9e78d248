import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../server/identity/throttle';
import { accountKey } from '../../server/identity/throttle-policy';
import { createIdpUser, findIdpUserByEmail } from '../../server/identity/users';
import { Browser, exchangeCode, findForm, mailedLink, readOutbox, startAuthorization, submitForm, submitSignUp } from '../support/auth';
import { failTimes, SignInForm } from '../support/sign-in-form';
import { startTestServer, type TestServer } from '../support/server';
import { RETRY_WITHIN_A_MINUTE } from './helpers/http';

/**
 * Issue 17, item 6: a lockout that slows attackers without locking the owner out, with a way back
 * in by email; sign-up throttled per client and per address. Behind a trusted proxy, so each test
 * can play several client addresses.
 */

const OWNER = { email: 'petra@example.com', name: 'Petra Owner', password: 'petra-own-password' };
const LOCKED = 'Too many failed sign-in attempts.';
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('lockout per account and client (TRUST_PROXY, no growing delay)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true', LOGIN_DELAY_SECONDS: '0' } });
    await createIdpUser(server.db, { ...OWNER, emailVerified: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('locks the attacker’s address out of the account, never the owner signing in from elsewhere', async () => {
    const attacker = new SignInForm(server.baseUrl);
    await failTimes(attacker, OWNER.email, 10, from('203.0.113.66'));
    const locked = await attacker.attempt(OWNER, from('203.0.113.66'));
    expect(locked.status).toBe(429);
    expect(locked.text).toContain(`${LOCKED} Try again in 15 minutes.`);
    // The attacker keeps hammering; the owner, from their own address, is not held up at all.
    for (let i = 0; i < 5; i += 1) expect((await attacker.attempt({ email: OWNER.email, password: `more-${i}` }, from('203.0.113.66'))).status).toBe(429);
    expect((await new SignInForm(server.baseUrl).attempt(OWNER, from('198.51.100.5'))).signedIn).toBe(true);
    // …and the owner's success did not unlock the attacker.
    expect((await attacker.attempt(OWNER, from('203.0.113.66'))).status).toBe(429);
  });
});

describe('slowdown of an account attacked from many addresses, and the way back in by email (LOGIN_DELAY_SECONDS=1)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true', LOGIN_DELAY_SECONDS: '1' } });
    await createIdpUser(server.db, { ...OWNER, emailVerified: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The attack went on for a while: the account's counter as after `failures` spread guesses, the last just now. */
  const attackGoesOn = (failures: number) =>
    sql`UPDATE idp_throttle SET failures = ${failures}, last_failure_at = now() WHERE kind = 'sign-in:account' AND key = ${hashKey(accountKey(OWNER.email))}`.execute(server.db);
  const pairFailures = async (address: string) => {
    const key = `${hashKey(accountKey(OWNER.email))}:${hashKey(address)}`;
    const row = await server.db.selectFrom('idp_throttle').select('failures').where('kind', '=', 'sign-in:pair').where('key', '=', key).executeTakeFirst();
    return row?.failures ?? 0;
  };

  it('slows every address once the failures from all of them add up, without charging the owner’s own address', async () => {
    // Twenty addresses, one guess each: no pair comes near its lock, the account's counter does.
    for (let i = 0; i < 20; i += 1) await failTimes(new SignInForm(server.baseUrl), OWNER.email, 1, from(`203.0.113.${i + 1}`));
    await attackGoesOn(26);
    const owner = new SignInForm(server.baseUrl);
    for (let i = 0; i < 12; i += 1) {
      const held = await owner.attempt(OWNER, from('198.51.100.9'));
      expect(held.status).toBe(429);
      expect(held.text).toContain(LOCKED);
      expect(held.text).toMatch(RETRY_WITHIN_A_MINUTE);
      expect(held.text).toContain('Email me a sign-in link');
    }
    // Twelve refusals, none counted against the owner's address: it would be locked at ten.
    expect(await pairFailures('198.51.100.9')).toBe(0);
  });

  it('signs the held-up owner in through a one-time link mailed to the account', async () => {
    await attackGoesOn(26);
    const owner = new SignInForm(server.baseUrl);
    expect((await owner.attempt(OWNER, from('198.51.100.10'))).status).toBe(429);
    const { browser, page, transaction } = owner.current;
    if (page?.kind !== 'page' || !transaction) throw new Error('expected the refused sign-in page');

    const request = findForm(page.html, page.url, '/link-request');
    expect(request.fields.email).toBe(OWNER.email);
    const sent = await submitForm(browser, request, {});
    expect(sent.status).toBe(200);
    const sentPage = await sent.text();
    expect(sentPage).toContain('If this address has an account, we have sent it a sign-in link.');

    const link = await mailedLink(server.baseUrl, OWNER.email, '/sign-in-link?token=');
    // Opening the link (as a mail scanner would) signs nobody in: it shows a button.
    const shown = await browser.request(link);
    expect(shown.status).toBe(200);
    const confirm = findForm(await shown.text(), link, '/sign-in-link');
    // Pressing it hands the owner to the app, whose fresh sign-in needs no password in this browser (issue 38).
    const pressed = await submitForm(browser, confirm, {});
    expect(pressed.status).toBe(303);
    const app = new URL(pressed.headers.get('location') ?? '');
    expect(`${app.origin}${app.pathname}`).toBe(`${server.baseUrl}/`);
    expect(app.searchParams.get('email')).toBe(OWNER.email);
    const fresh = await startAuthorization(browser, server.baseUrl, { loginHint: OWNER.email, extra: { 'ext-notice': 'sign_in' } });
    if (fresh.landing.kind !== 'callback') throw new Error(`the link did not sign in (${fresh.landing.status})`);
    const tokens = await exchangeCode(fresh.transaction, fresh.landing.url);
    const user = await findIdpUserByEmail(server.db, OWNER.email);
    expect(decodeJwt(tokens.idToken).sub).toBe(`auth0|${user!.id}`);
    expect(transaction.state).not.toBe(fresh.transaction.state);

    // The link works once; the account's slowdown is over.
    expect((await submitForm(browser, confirm, {})).status).toBe(400);
    expect((await new SignInForm(server.baseUrl).attempt(OWNER, from('198.51.100.11'))).signedIn).toBe(true);
  });

  it('answers a link request for an unknown address the same, and mails nothing', async () => {
    const unknown = `nobody-${randomUUID()}@example.com`;
    const form = new SignInForm(server.baseUrl);
    await form.attempt({ email: unknown, password: 'whatever-it-is' }, from('198.51.100.12'));
    const { browser, page } = form.current;
    if (page?.kind !== 'page') throw new Error('expected the sign-in page');
    // The link form is offered on refusals; posting it by hand works the same from any sign-in page.
    const action = findForm(page.html, page.url, '/login').action.replace(/\/login$/, '/link-request');
    const answer = await browser.request(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...from('198.51.100.12') }, body: new URLSearchParams({ email: unknown }).toString() });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('If this address has an account, we have sent it a sign-in link.');
    expect((await readOutbox(server.baseUrl)).filter((m) => m.to === unknown)).toHaveLength(0);
  });
});

describe('sign-up throttling (TRUST_PROXY)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    await createIdpUser(server.db, { ...OWNER, emailVerified: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  const signUpAs = (email: string, address: string) => submitSignUp(new Browser(), server.baseUrl, { name: 'Mallory', email, password: 'mallory-password-1' }, from(address));

  it('mails one address three times, then makes it wait — the same for an address with an account and one without', async () => {
    for (const email of [OWNER.email, `not-yet-${randomUUID()}@example.com`]) {
      // from different clients: it is the address signed up for that counts here
      for (let i = 0; i < 3; i += 1) expect((await signUpAs(email, `192.0.2.${i + 1}`)).status).toBe(200);
      const refused = await signUpAs(email, '192.0.2.99');
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(30);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.html).toContain('Too many sign-up attempts.');
      expect(refused.html).toMatch(RETRY_WITHIN_A_MINUTE);
    }
    // The owner heard of three attempts, not four.
    expect((await readOutbox(server.baseUrl)).filter((m) => m.to === OWNER.email)).toHaveLength(3);
  });

  it('takes twenty sign-ups an hour from one client address, then refuses that address only', async () => {
    for (let i = 0; i < 20; i += 1) expect((await signUpAs(`crowd-${i}-${randomUUID()}@example.com`, '203.0.113.200')).status).toBe(200);
    const refused = await signUpAs(`crowd-late-${randomUUID()}@example.com`, '203.0.113.200');
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('Too many sign-up attempts. Try again in 60 minutes.');
    expect(refused.headers.get('retry-after')).toMatch(/^3[56]\d\d$/);
    expect((await signUpAs(`elsewhere-${randomUUID()}@example.com`, '203.0.113.201')).status).toBe(200);
  });
});
