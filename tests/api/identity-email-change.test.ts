import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueOneTimeToken } from '../../server/identity/one-time-tokens';
import { createIdpUser, findIdpUserByEmail } from '../../server/identity/users';
import { findForm, mailedLink, readOutbox, signIn, submitForm, Browser } from '../support/auth';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Issue 17, item 6: a profile's email changes only through a link mailed to the new address (the
 * old one stays until then), and an address stays with one account — tried by taking another's.
 */

const ALICE = { email: 'alice@example.com', name: 'Alice Anders', password: 'alice-own-password' };
const BOB = { email: 'bob@example.com', name: 'Bob Berg', password: 'bob-own-password' };

interface ProfileBody {
  id: string;
  name: string;
  email: string;
  pendingEmail?: string | null;
}

describe('changing a profile email', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await createIdpUser(server.db, { ...ALICE, emailVerified: true });
    await createIdpUser(server.db, { ...BOB, emailVerified: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Signs in and opens the profile (first sign-in creates it), as the SPA does. */
  async function session(who: { email: string; password: string; name: string }) {
    const tokens = await signIn(server.baseUrl, who);
    const subject = String(decodeJwt(tokens.accessToken).sub);
    const call = async (method: string, body?: unknown) => {
      const response = await fetch(`${server.baseUrl}/api/profiles/${encodeURIComponent(subject)}${method === 'POST' ? '/login' : ''}`, {
        method,
        headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as ProfileBody & { message?: string } };
    };
    await call('POST', { id: subject, name: who.name, email: who.email });
    return { subject, call };
  }

  const canSignIn = async (email: string, password: string) =>
    signIn(server.baseUrl, { email, password }).then(
      () => true,
      () => false,
    );

  it('keeps the old address until the link mailed to the new one is confirmed, then changes account and profile together', async () => {
    const alice = await session(ALICE);
    const next = 'alice.next@example.com';
    const saved = await alice.call('PUT', { id: alice.subject, name: 'Alice A.', email: next });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name: 'Alice A.', email: ALICE.email, pendingEmail: next });
    expect((await alice.call('GET')).body).toMatchObject({ email: ALICE.email, pendingEmail: next });
    expect(await canSignIn(next, ALICE.password)).toBe(false);

    const link = await mailedLink(server.baseUrl, next, '/confirm-email?token=');
    // Opening the link (a mail scanner does) changes nothing: it shows a button.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const form = findForm(await page.text(), link, '/confirm-email');
    expect((await findIdpUserByEmail(server.db, ALICE.email))?.email).toBe(ALICE.email);

    // the token's second is over before the change (iat counts whole seconds: server/policy/caller.ts)
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const confirmed = await submitForm(new Browser(), form, {});
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Email changed');
    // The token from before the change is refused now (issue 36); a sign-in with the new address sees it.
    expect((await alice.call('GET')).status).toBe(401);
    const profile = (await (await session({ ...ALICE, email: next })).call('GET')).body;
    expect(profile.email).toBe(next);
    expect(profile.pendingEmail).toBeUndefined();
    expect(await canSignIn(next, ALICE.password)).toBe(true);
    expect(await canSignIn(ALICE.email, ALICE.password)).toBe(false);
    // The old mailbox is told; the link works once.
    expect((await readOutbox(server.baseUrl)).some((m) => m.to === ALICE.email && m.subject.includes('email address was changed'))).toBe(true);
    expect((await submitForm(new Browser(), form, {})).status).toBe(400);
  });

  it('never hands another account’s address over, in any case, and answers as for a free one', async () => {
    const bob = await session(BOB);
    const probe = await bob.call('PUT', { id: bob.subject, name: BOB.name, email: 'ALICE.NEXT@Example.com' });
    const free = await bob.call('PUT', { id: bob.subject, name: BOB.name, email: 'bob.free@example.com' });
    expect(probe.status).toBe(200);
    expect(free.status).toBe(200);
    expect(probe.body).toMatchObject({ email: BOB.email, pendingEmail: 'ALICE.NEXT@Example.com' });
    expect(Object.keys(probe.body).sort()).toEqual(Object.keys(free.body).sort());

    // No confirmation link reached the taken address, only a note to its owner.
    const toAlice = (await readOutbox(server.baseUrl)).filter((m) => m.to === 'ALICE.NEXT@Example.com');
    expect(toAlice).toHaveLength(1);
    expect(toAlice[0]?.subject).toContain('Somebody tried to use your address');
    expect(toAlice[0]?.links.some((l) => l.includes('confirm-email'))).toBe(false);

    // Even a confirmation link for it (as if mailed before Alice took the address) is refused.
    const bobUser = await findIdpUserByEmail(server.db, BOB.email);
    const token = await issueOneTimeToken(server.db, bobUser!.id, 'change-email', 'alice.NEXT@example.com');
    const refused = await fetch(`${server.baseUrl}/idp/confirm-email`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }).toString() });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('This address belongs to another account');
    expect((await bob.call('GET')).body.email).toBe(BOB.email);
    expect((await findIdpUserByEmail(server.db, 'alice.next@example.com'))?.name).toBe(ALICE.name);
  });

  it('refuses a confirmation once another account has taken the address since the link was mailed', async () => {
    const bob = await session(BOB);
    const wanted = 'shared.inbox@example.com';
    await bob.call('PUT', { id: bob.subject, name: BOB.name, email: wanted });
    const link = await mailedLink(server.baseUrl, wanted, '/confirm-email?token=');
    await createIdpUser(server.db, { email: 'Shared.Inbox@example.com', name: 'Somebody Else', password: 'somebody-else-pw', emailVerified: true });
    const form = findForm(await (await fetch(link)).text(), link, '/confirm-email');
    expect((await submitForm(new Browser(), form, {})).status).toBe(409);
    expect((await bob.call('GET')).body.email).toBe(BOB.email);
  });

  it('saves a change of case at once: the same mailbox', async () => {
    const bob = await session(BOB);
    const saved = await bob.call('PUT', { id: bob.subject, name: BOB.name, email: 'Bob@Example.com' });
    expect(saved.body.email).toBe('Bob@Example.com');
  });
});
