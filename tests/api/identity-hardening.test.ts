import net from 'node:net';
import os from 'node:os';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttemptGuards } from '../../server/identity/attempt-guards';
import { claimAttempt, sqlDelayAfter } from '../../server/identity/throttle';
import { delayAfter, type ThrottlePolicy } from '../../server/identity/throttle-policy';
import { createIdpUser, findIdpUserByEmail } from '../../server/identity/users';
import { findForm, mailedLink, readOutbox, signIn, signUp } from '../support/auth';
import { failTimes, SignInForm, WRONG } from '../support/sign-in-form';
import { createTestDatabase, startTestServer, type TestDatabase, type TestServer } from '../support/server';
import { RETRY_WITHIN_A_MINUTE } from './helpers/http';

/**
 * Issue 6, item 9: sign-in throttling and lockout, resend verification, and the outbox kept to
 * this machine — against real servers on a real database (PGlite, or TEST_DATABASE_URL).
 */

const ALICE = { email: 'alice@example.com', name: 'Alice Anders', password: 'alice-password' };
const BOB = { email: 'bob@example.com', name: 'Bob Berg', password: 'bob-password' };
const LOCKED = 'Too many failed sign-in attempts.';
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });

describe('account lockout (LOGIN_LOCKOUT_SECONDS=4, no growing delay)', () => {
  let database: TestDatabase;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    // 4 s: ten failed sign-ins and the refused ones after them take seconds on a loaded CI host
    const env = { LOGIN_LOCKOUT_SECONDS: '4', LOGIN_DELAY_SECONDS: '0' };
    first = await startTestServer({ database, env });
    // Two processes on one PostgreSQL; PGlite is one process's database, so there both are one.
    second = onPostgres ? await startTestServer({ database, env }) : first;
    await createIdpUser(first.db, { ...ALICE, emailVerified: true });
    await createIdpUser(first.db, { ...BOB, emailVerified: true });
  });
  afterAll(async () => {
    if (second !== first) await second?.close();
    await first?.close();
    await database?.dispose();
  });

  it('refuses the 11th attempt without checking the password: even the right one, until the lockout is over', async () => {
    const form = new SignInForm(first.baseUrl);
    await failTimes(form, ALICE.email, 10);
    const locked = await form.attempt(ALICE);
    expect(locked.status).toBe(429);
    // what is left of the 2 s lockout: 1 when the attempt came a second late under load
    // what is left of the 4 s lockout: less when the attempt came late under load
    expect(locked.retryAfter).toMatch(/^[1-4]$/);
    expect(locked.text).toContain(`${LOCKED} Try again in ${locked.retryAfter === '1' ? '1 second' : `${locked.retryAfter} seconds`}.`);
    expect(locked.text).not.toContain(WRONG);
    // The same answer for another spelling of the address.
    expect((await form.attempt({ email: ' ALICE@Example.com ', password: ALICE.password })).status).toBe(429);

    await sleep(4100);
    expect((await form.attempt(ALICE)).signedIn).toBe(true);
    // The success reset the counter: a wrong password is an ordinary failure again.
    const after = await new SignInForm(first.baseUrl).attempt({ email: ALICE.email, password: 'wrong-again' });
    expect(after.status).toBe(400);
  });

  it('never calls the password check while the account is locked', async () => {
    const guards = createAttemptGuards(first.db, first.config);
    const who = { email: 'spy@example.com', address: '198.51.100.20' };
    let checks = 0;
    const verify = () => {
      checks += 1;
      return Promise.resolve(undefined);
    };
    for (let i = 0; i < 10; i += 1) expect((await guards.signIn(who, verify)).outcome).toBe('failed');
    expect(checks).toBe(10);
    const refused = await guards.signIn(who, () => {
      checks += 1;
      return Promise.resolve({ id: 'someone' });
    });
    expect(refused).toMatchObject({ outcome: 'refused' });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(4);
    expect(checks).toBe(10);
  });

  it('locks an address that has no account exactly like one that has (nothing to learn about who exists)', async () => {
    const form = new SignInForm(first.baseUrl);
    await failTimes(form, 'nobody-here@example.com', 10);
    const refused = await form.attempt({ email: 'nobody-here@example.com', password: 'anything-at-all' });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain(`${LOCKED} Try again in ${refused.retryAfter === '1' ? '1 second' : `${refused.retryAfter} seconds`}.`);
  });

  it('is one lockout for every server process on the database', async () => {
    const onFirst = new SignInForm(first.baseUrl);
    const onSecond = new SignInForm(second.baseUrl);
    for (let i = 0; i < 10; i += 1) {
      const form = i % 2 === 0 ? onFirst : onSecond;
      expect((await form.attempt({ email: BOB.email, password: `wrong-${i}` })).status).toBe(400);
    }
    expect((await onFirst.attempt(BOB)).status).toBe(429);
    expect((await onSecond.attempt(BOB)).status).toBe(429);
    await sleep(4100);
    expect((await onSecond.attempt(BOB)).signedIn).toBe(true);
  });

  it('counts parallel guesses one by one: a burst cannot slip past the lock', async () => {
    const policy: ThrottlePolicy = { freeAttempts: 5, baseDelaySeconds: 0, maxDelaySeconds: 0, lockAfter: 5, lockoutSeconds: 60, windowSeconds: 60, windowFrom: 'last' };
    const claims = await Promise.all(Array.from({ length: 20 }, () => claimAttempt(first.db, 'sign-in:account', 'burst@example.com', policy)));
    expect(claims.filter((claim) => claim.allowed)).toHaveLength(5);
    expect(claims.filter((claim) => !claim.allowed).every((claim) => !claim.allowed && claim.retryAfterSeconds === 60)).toBe(true);
  });

  it('lets parallel attempts within the free budget all through (one office signing in at nine)', async () => {
    const policy: ThrottlePolicy = { freeAttempts: 50, baseDelaySeconds: 0, maxDelaySeconds: 0, lockAfter: 50, lockoutSeconds: 60, windowSeconds: 60, windowFrom: 'first' };
    const claims = await Promise.all(Array.from({ length: 20 }, () => claimAttempt(first.db, 'sign-in:address', '198.51.100.7', policy)));
    expect(claims.filter((claim) => claim.allowed)).toHaveLength(20);
  });

  it('applies in SQL exactly the delay schedule of the policy module', async () => {
    const policyArb = fc.record({
      freeAttempts: fc.integer({ min: 0, max: 20 }),
      baseDelaySeconds: fc.constantFrom(0, 0.25, 1, 60),
      maxDelaySeconds: fc.constantFrom(0, 1, 60, 900),
      lockAfter: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
      lockoutSeconds: fc.constant(60),
      windowSeconds: fc.constant(60),
      windowFrom: fc.constant('last' as const),
    });
    await fc.assert(
      fc.asyncProperty(policyArb, fc.integer({ min: 0, max: 100_000 }), async (policy, failures) => {
        const { rows } = await sql<{ delay: number }>`SELECT ${sqlDelayAfter(sql`${failures}::int`, policy)} AS delay`.execute(first.db);
        expect(Number(rows[0]?.delay)).toBeCloseTo(delayAfter(failures, policy), 9);
      }),
      { numRuns: 60 },
    );
  });
});

describe('growing delay after five failures (LOGIN_DELAY_SECONDS=4)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_DELAY_SECONDS: '4' } });
    await createIdpUser(server.db, { ...ALICE, emailVerified: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  const seconds = (n: number) => `${n} second${n === 1 ? '' : 's'}`;

  // The delays are read back from Retry-After rather than assumed whole: on a loaded machine an
  // attempt can come a second or two after the failure its delay started from.
  it('waits 4 s after the 5th failure, 8 s after the 6th; a success resets the count', async () => {
    const form = new SignInForm(server.baseUrl);
    await failTimes(form, ALICE.email, 5);
    const early = await form.attempt(ALICE);
    expect(early.status).toBe(429);
    const first = Number(early.retryAfter);
    expect(first).toBeGreaterThanOrEqual(1);
    expect(first).toBeLessThanOrEqual(4);
    expect(early.text).toContain(`${LOCKED} Try again in ${seconds(first)}.`);

    await sleep(first * 1000 + 100);
    await failTimes(form, ALICE.email, 1);
    const later = await form.attempt(ALICE);
    expect(later.status).toBe(429);
    // twice the delay: more than what the first could ever have left
    const second = Number(later.retryAfter);
    expect(second).toBeGreaterThan(4);
    expect(second).toBeLessThanOrEqual(8);
    expect(later.text).toContain(`${LOCKED} Try again in ${seconds(second)}.`);

    await sleep(second * 1000 + 100);
    expect((await form.attempt(ALICE)).signedIn).toBe(true);
    // Five free failures again, then the delay again.
    const next = new SignInForm(server.baseUrl);
    await failTimes(next, ALICE.email, 5);
    expect((await next.attempt(ALICE)).status).toBe(429);
  }, 60_000);
});

describe('per-address throttling behind a trusted proxy (TRUST_PROXY=true, 4 failures per address)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true', LOGIN_ADDRESS_MAX_FAILURES: '4', LOGIN_LOCKOUT_SECONDS: '2' } });
    await createIdpUser(server.db, { ...ALICE, emailVerified: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('locks an address after its failures on many accounts, and only that address', async () => {
    const from = { 'x-forwarded-for': '203.0.113.7' };
    const form = new SignInForm(server.baseUrl);
    for (let i = 0; i < 4; i += 1) await failTimes(form, `sprayed-${i}@example.com`, 1, from);
    const refused = await form.attempt(ALICE, from);
    expect(refused.status).toBe(429);
    expect(refused.text).toContain(LOCKED);
    // The account itself is fine: from elsewhere it signs in.
    expect((await new SignInForm(server.baseUrl).attempt(ALICE, { 'x-forwarded-for': '198.51.100.2' })).signedIn).toBe(true);
    await sleep(2100);
    expect((await form.attempt(ALICE, from)).signedIn).toBe(true);
    // The success took back its own count and the lock it set on the way: the next one passes too.
    expect((await form.attempt(ALICE, from)).signedIn).toBe(true);
  });

  it('trusts only the entry the proxy wrote, not what the client put in front of it', async () => {
    const form = new SignInForm(server.baseUrl);
    for (let i = 0; i < 4; i += 1) await failTimes(form, `forged-${i}@example.com`, 1, { 'x-forwarded-for': `10.9.9.${i}, 203.0.113.50` });
    expect((await form.attempt(ALICE, { 'x-forwarded-for': '10.0.0.99, 203.0.113.50' })).status).toBe(429);
  });

  it('keys IPv6 clients by their /64', async () => {
    const form = new SignInForm(server.baseUrl);
    for (let i = 0; i < 4; i += 1) await failTimes(form, `v6-${i}@example.com`, 1, { 'x-forwarded-for': `2001:db8:5:6::${i + 1}` });
    expect((await form.attempt(ALICE, { 'x-forwarded-for': '2001:db8:5:6:ffff:1:2:3' })).status).toBe(429);
    expect((await form.attempt(ALICE, { 'x-forwarded-for': '2001:db8:5:7::1' })).signedIn).toBe(true);
  });

  it('does not spend the budget of an address on its successful sign-ins', async () => {
    const from = { 'x-forwarded-for': '192.0.2.77' };
    const form = new SignInForm(server.baseUrl);
    await failTimes(form, 'typo-1@example.com', 1, from);
    await failTimes(form, 'typo-2@example.com', 1, from);
    await failTimes(form, 'typo-3@example.com', 1, from);
    for (let i = 0; i < 5; i += 1) expect((await form.attempt(ALICE, from)).signedIn).toBe(true);
    await failTimes(form, 'typo-4@example.com', 1, from);
    expect((await form.attempt(ALICE, from)).status).toBe(429);
  });
});

describe('without TRUST_PROXY (the default) X-Forwarded-For changes nothing', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_ADDRESS_MAX_FAILURES: '3' } });
    await createIdpUser(server.db, { ...ALICE, emailVerified: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts every failure against the socket address, whatever the header claims', async () => {
    const form = new SignInForm(server.baseUrl);
    for (let i = 0; i < 3; i += 1) await failTimes(form, `someone-${i}@example.com`, 1, { 'x-forwarded-for': `198.51.100.${i}` });
    const refused = await form.attempt(ALICE, { 'x-forwarded-for': '198.51.100.200' });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain(`${LOCKED} Try again in 15 minutes.`);
  });
});

describe('resend verification email, reset throttling', () => {
  let server: TestServer;
  const CAROL = { email: 'carol@example.com', name: 'Carol Chen', password: 'carol-password' };

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_DELAY_SECONDS: '0' } });
    await createIdpUser(server.db, { ...ALICE, emailVerified: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  const resend = (email: string) => postForm(`${server.baseUrl}/idp/verify/resend`, { email });
  const verifyMails = async (email: string) => (await readOutbox(server.baseUrl)).filter((m) => m.to === email && m.links.some((l) => l.includes('/verify-email')));

  it('shows a form asking for the address, prefilled from ?email=', async () => {
    const page = await fetch(`${server.baseUrl}/idp/verify/resend?email=${encodeURIComponent(CAROL.email)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Send verification link');
    expect(html).toContain(`value="${CAROL.email}"`);
    expect(findForm(html, page.url, '/verify/resend').method).toBe('post');
  });

  it('answers the same for an unknown address; mails a fresh link that works, and the old one stops working', async () => {
    await signUp(server.baseUrl, CAROL);
    const oldLink = await mailedLink(server.baseUrl, CAROL.email, '/verify-email');

    const unknown = await resend('nobody@example.com');
    const known = await resend(CAROL.email);
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    const [unknownPage, knownPage] = [await unknown.text(), await known.text()];
    expect(knownPage).toBe(unknownPage);
    expect(knownPage).toContain('If an account with this address is waiting for verification, we have sent it a new link.');
    expect(await verifyMails('nobody@example.com')).toHaveLength(0);

    const mails = await verifyMails(CAROL.email);
    expect(mails).toHaveLength(2);
    const newLink = await mailedLink(server.baseUrl, CAROL.email, '/verify-email');
    expect(newLink).not.toBe(oldLink);

    const old = await fetch(oldLink);
    expect(old.status).toBe(400);
    const oldPage = await old.text();
    expect(oldPage).toContain('This verification link is invalid, has expired or has already been used.');
    expect(oldPage).toContain('/idp/verify/resend');
    expect((await findIdpUserByEmail(server.db, CAROL.email))?.emailVerified).toBe(false);

    // verified, and handed to the app's sign-in (issue 38)
    expect((await fetch(newLink, { redirect: 'manual' })).status).toBe(303);
    expect((await findIdpUserByEmail(server.db, CAROL.email))?.emailVerified).toBe(true);
  });

  it('mails nothing to an address that is already verified, and says the same', async () => {
    const before = (await readOutbox(server.baseUrl)).length;
    const response = await resend(ALICE.email);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('If an account with this address is waiting for verification');
    expect((await readOutbox(server.baseUrl)).length).toBe(before);
  });

  it('refuses an address that is not an email', async () => {
    const response = await resend('not an email');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('aria-invalid="true"');
  });

  it('is throttled per address asked for, known or not: three at once, then a minute', async () => {
    for (const email of ['dave@example.com', 'never-signed-up@example.com']) {
      if (email === 'dave@example.com') await signUp(server.baseUrl, { email, name: 'Dave', password: 'dave-password' });
      for (let i = 0; i < 3; i += 1) expect((await resend(email)).status).toBe(200);
      const refused = await resend(email);
      expect(refused.status).toBe(429);
      // what is left of the minute since the first: the three sends may take seconds under load
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(45);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const page = await refused.text();
      expect(page).toContain('Too many requests for this address.');
      expect(page).toMatch(RETRY_WITHIN_A_MINUTE);
    }
    // signing up sent the first mail, the three resends three more; the refused one none
    expect(await verifyMails('dave@example.com')).toHaveLength(4);
  });

  it('throttles password-reset requests the same way, with a 429 the SPA can show', async () => {
    const request = () =>
      fetch(`${server.baseUrl}/idp/dbconnections/change_password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'workspace-spa', email: 'reset-me@example.com', connection: 'Username-Password-Authentication' }),
      });
    for (let i = 0; i < 3; i += 1) expect((await request()).status).toBe(200);
    const refused = await request();
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: string; error_description: string };
    expect(body.error).toBe('too_many_requests');
    expect(body.error_description).toMatch(new RegExp(`^Too many requests for this address\\. ${RETRY_WITHIN_A_MINUTE.source}$`));
  });

  it('ends a lockout when the owner resets the password through the mailed link', async () => {
    const form = new SignInForm(server.baseUrl);
    await failTimes(form, ALICE.email, 10);
    expect((await form.attempt(ALICE)).status).toBe(429);

    const requested = await postForm(`${server.baseUrl}/idp/dbconnections/change_password`, { email: ALICE.email });
    expect(requested.status).toBe(200);
    const link = await mailedLink(server.baseUrl, ALICE.email, '/reset-password');
    const page = await fetch(link);
    const resetForm = findForm(await page.text(), link, '/reset-password');
    // done: handed to the app's sign-in (issue 38)
    expect((await postForm(resetForm.action, { ...resetForm.fields, password: 'alice-new-password' })).status).toBe(303);

    const tokens = await signIn(server.baseUrl, { email: ALICE.email, password: 'alice-new-password' });
    expect(tokens.accessToken).toBeTruthy();
  });
});

/** An address of this machine that is not loopback: connecting to it, the server sees it as the peer. */
function externalAddress(): string | undefined {
  const all = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
  return all.find((i) => !i.internal && i.family === 'IPv4')?.address ?? all.find((i) => !i.internal && i.family === 'IPv6' && !i.address.startsWith('fe80'))?.address;
}

/**
 * A second listener on all interfaces that hands its connections to the test server's HTTP server,
 * so that requests arrive with their real, non-loopback peer address.
 */
async function listenEverywhere(server: TestServer): Promise<{ port: number; close(): Promise<void> }> {
  const httpServer = server.server.app.server;
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    httpServer.emit('connection', socket);
  });
  await new Promise<void>((resolve, reject) => {
    relay.once('error', reject);
    relay.listen(0, '::', () => resolve());
  });
  return {
    port: (relay.address() as net.AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}

const external = externalAddress();
const urlHost = (address: string) => (address.includes(':') ? `[${address}]` : address);

describe('the outbox is for this machine only', () => {
  let server: TestServer;
  let open: TestServer;
  let relay: { port: number; close(): Promise<void> } | undefined;
  let openRelay: { port: number; close(): Promise<void> } | undefined;

  beforeAll(async () => {
    server = await startTestServer();
    open = await startTestServer({ env: { OUTBOX_PUBLIC: 'true' } });
    if (external) {
      relay = await listenEverywhere(server);
      openRelay = await listenEverywhere(open);
    }
  });
  afterAll(async () => {
    await relay?.close();
    await openRelay?.close();
    await server?.close();
    await open?.close();
  });

  it('answers a loopback client', async () => {
    expect((await fetch(`${server.baseUrl}/idp/outbox.json`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/idp/outbox`)).status).toBe(200);
  });

  it('refuses a loopback peer that relays another client (a reverse proxy on this machine)', async () => {
    const relayed = await fetch(`${server.baseUrl}/idp/outbox.json`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(relayed.status).toBe(403);
    const forwarded = await fetch(`${server.baseUrl}/idp/outbox`, { headers: { forwarded: 'for=203.0.113.9;proto=https' } });
    expect(forwarded.status).toBe(403);
  });

  it.skipIf(!external)(`answers 403 to a client on another address (${external ?? 'this machine has no non-loopback address: skipped'})`, async () => {
    const base = `http://${urlHost(external!)}:${relay!.port}`;
    const json = await fetch(`${base}/idp/outbox.json`);
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({ error: 'forbidden', error_description: expect.stringContaining('OUTBOX_PUBLIC=true') as unknown });
    const page = await fetch(`${base}/idp/outbox`);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('Outbox not available');
    // The same listener from loopback still works: it is the peer address that decides.
    expect((await fetch(`http://127.0.0.1:${relay!.port}/idp/outbox.json`)).status).toBe(200);
  });

  it.skipIf(!external)('answers everybody with OUTBOX_PUBLIC=true', async () => {
    expect((await fetch(`http://${urlHost(external!)}:${openRelay!.port}/idp/outbox.json`)).status).toBe(200);
  });
});
