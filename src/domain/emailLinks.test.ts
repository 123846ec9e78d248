import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, wellFormed } from './hostile.fixture';
import { appSignInLink, emailLinkOf, hasCallbackParams, invitationLink, isInvitationId, withoutCallbackParams, withoutEmailLinkParams } from './emailLinks';

const INVITATION = '0b6f7c1e-2d3a-4e5f-8a9b-0c1d2e3f4a5b';

describe('emailLinkOf', () => {
  it('reads a known notice, and an invitation (whose own notice is sign_in)', () => {
    expect(emailLinkOf('?email=a%40x.com&notice=email_verified')).toEqual({ notice: 'email_verified' });
    expect(emailLinkOf('?notice=password_changed')).toEqual({ notice: 'password_changed' });
    expect(emailLinkOf(`?email=a%40x.com&invitation=${INVITATION.toUpperCase()}`)).toEqual({ notice: 'sign_in', invitation: INVITATION });
  });

  it('is no link for a plain email hint, an unknown notice or an invitation that is not an id', () => {
    for (const search of ['', '?email=a%40x.com', '?notice=hacked', '?invitation=../../x', '?invitation=1&notice=nope', '?notice=']) {
      expect(emailLinkOf(search)).toBeUndefined();
    }
  });

  it('never throws, and whatever it returns is a known notice with at most a UUID', () => {
    fc.assert(
      fc.property(hostileString, hostileString, (notice, invitation) => {
        const link = emailLinkOf(`?${new URLSearchParams({ notice, invitation }).toString()}`);
        if (link === undefined) return;
        expect(['email_verified', 'password_changed', 'sign_in']).toContain(link.notice);
        if (link.invitation !== undefined) expect(link.invitation).toMatch(/^[0-9a-f-]{36}$/);
      }),
    );
  });
});

describe('links the server builds, read back by the app', () => {
  it('a sign-in link carries the address and the notice', () => {
    const link = new URL(appSignInLink('http://localhost:8080/', 'ann+1@example.com', 'email_verified'));
    expect(link.pathname).toBe('/');
    expect(link.searchParams.get('email')).toBe('ann+1@example.com');
    expect(emailLinkOf(link.search)).toEqual({ notice: 'email_verified' });
  });

  it('an invitation link opens the workspace with the invited address and the invitation', () => {
    const link = new URL(invitationLink('https://app.example.com', 'w-1', 'ivy@example.com', INVITATION));
    expect(link.pathname).toBe('/l/w-1');
    expect(link.searchParams.get('email')).toBe('ivy@example.com');
    expect(emailLinkOf(link.search)).toEqual({ notice: 'sign_in', invitation: INVITATION });
  });

  it('round-trips any address', () => {
    fc.assert(
      fc.property(hostileString.map(wellFormed), (email) => {
        expect(new URL(appSignInLink('http://localhost:8080', email, 'sign_in')).searchParams.get('email')).toBe(email);
      }),
    );
  });
});

describe('cleaning the address', () => {
  it('drops the link parameters and keeps the rest of the target', () => {
    expect(withoutEmailLinkParams(`/l/w1?email=a%40x.com&invitation=${INVITATION}&tab=2#top`)).toBe('/l/w1?tab=2#top');
    expect(withoutEmailLinkParams('/?email=a%40x.com&notice=email_verified')).toBe('/');
    expect(withoutEmailLinkParams('http://localhost:8080/l/w1?notice=sign_in')).toBe('http://localhost:8080/l/w1');
  });

  it("drops the provider's answer and keeps the rest", () => {
    expect(withoutCallbackParams('/?code=abc&state=xyz')).toBe('/');
    expect(withoutCallbackParams('/l/w1/feed?x=1&error=access_denied&error_description=no&state=s')).toBe('/l/w1/feed?x=1');
  });

  it('knows the answer as the SDK does: a code or an error, with a state', () => {
    expect(hasCallbackParams('?code=abc&state=xyz')).toBe(true);
    expect(hasCallbackParams('?error=login_required&state=xyz')).toBe(true);
    expect(hasCallbackParams('?code=abc')).toBe(false);
    expect(hasCallbackParams('?email=a%40x.com')).toBe(false);
  });

  it('keeps a cleaned path on the same origin, whatever the query held', () => {
    fc.assert(
      fc.property(hostileString, hostileString, (code, rest) => {
        const target = `/l/w1?${new URLSearchParams({ code, state: 's', rest }).toString()}`;
        const cleaned = withoutCallbackParams(target);
        expect(cleaned.startsWith('/l/w1')).toBe(true);
        expect(new URL(cleaned, 'http://x').searchParams.has('code')).toBe(false);
        expect(withoutEmailLinkParams(cleaned).startsWith('/l/w1')).toBe(true);
      }),
    );
  });
});

describe('email links, case by case', () => {
  it('keeps the notice an invitation link names, and reads only a whole UUID as an invitation', () => {
    expect(emailLinkOf(`?invitation=${INVITATION}&notice=email_verified`)).toEqual({ notice: 'email_verified', invitation: INVITATION });
    expect(emailLinkOf(`?invitation=${INVITATION}&notice=nope`)).toEqual({ notice: 'sign_in', invitation: INVITATION });
    expect(emailLinkOf(`?invitation=${INVITATION}x`)).toBeUndefined();
    expect(emailLinkOf(`?invitation=x${INVITATION}`)).toBeUndefined();
    expect(emailLinkOf(`?invitation=${INVITATION.replaceAll('-', '')}`)).toBeUndefined();
    expect(emailLinkOf(`?invitation=${INVITATION.replace('0b6f7c1e', '0b6f7c1g')}&notice=password_changed`)).toEqual({ notice: 'password_changed' });
  });

  it('takes only a text as an invitation id, not a value that merely prints as one', () => {
    expect(isInvitationId(INVITATION)).toBe(true);
    expect(isInvitationId([INVITATION])).toBe(false);
    expect(isInvitationId({ toString: () => INVITATION })).toBe(false);
    expect(isInvitationId(null)).toBe(false);
  });

  it('leaves a target without link parameters exactly as it was', () => {
    expect(withoutEmailLinkParams('/l/w1?q=a%20b&x=%7E#h')).toBe('/l/w1?q=a%20b&x=%7E#h');
    expect(withoutCallbackParams('/l/w1/feed?q=a b')).toBe('/l/w1/feed?q=a b');
  });

  it('keeps the origin of an absolute target in any letter case, and never reads one inside the query', () => {
    expect(withoutEmailLinkParams('HTTP://localhost:8080/l/w1?notice=sign_in')).toBe('http://localhost:8080/l/w1');
    expect(withoutEmailLinkParams('/go?next=http://a.example/x&email=a')).toBe('/go?next=http%3A%2F%2Fa.example%2Fx');
    expect(withoutCallbackParams('https://app.example.com:8443/l/w1?code=c&state=s#top')).toBe('https://app.example.com:8443/l/w1#top');
  });

  it('knows no answer without a code or an error', () => {
    expect(hasCallbackParams('?state=xyz')).toBe(false);
    expect(hasCallbackParams('?error=x')).toBe(false);
    expect(hasCallbackParams('')).toBe(false);
  });

  it('builds the whole sign-in and invitation addresses', () => {
    expect(appSignInLink('https://app.example.com/base//', 'a@x.com', 'password_changed')).toBe('https://app.example.com/base/?email=a%40x.com&notice=password_changed');
    expect(appSignInLink('https://app.example.com', 'a@x.com', 'sign_in')).toBe('https://app.example.com/?email=a%40x.com&notice=sign_in');
    expect(invitationLink('https://app.example.com//', 'w/1', 'ivy@example.com', INVITATION)).toBe(`https://app.example.com/l/w%2F1?email=ivy%40example.com&invitation=${INVITATION}`);
  });
});
