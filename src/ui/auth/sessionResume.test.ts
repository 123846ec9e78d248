import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cookieValue, jwtPayload, RESUME_MARGIN_MS, resumableSession, storedUser } from './sessionResume';

// A page resumes a session without the identity SDK only with a token issued to the remembered user
// and good for more than a minute; anything else goes to the SDK, which decides as it always did.
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (payload: unknown) => `${base64url('{"alg":"RS256"}')}.${base64url(JSON.stringify(payload))}.c2lnbmF0dXJl`;
const ada = { sub: 'user|ada', name: 'Ada', email: 'ada@example.com', email_verified: true };
const now = Date.UTC(2026, 10, 29, 12, 0, 0);
const inAnHour = now / 1000 + 3600;

describe('cookieValue', () => {
  it('finds the named cookie among others, decoded, and nothing for a prefix or suffix of its name', () => {
    expect(cookieValue('a=1; session_token=abc%2Edef; b=2', 'session_token')).toBe('abc.def');
    expect(cookieValue('session_token=x', 'session_token')).toBe('x');
    expect(cookieValue('my_session_token=x; session_token_old=y', 'session_token')).toBeUndefined();
    expect(cookieValue('session_token=; other=1', 'session_token')).toBeUndefined();
    expect(cookieValue('session_token=%E0%A4%A', 'session_token')).toBeUndefined();
    expect(cookieValue('', 'session_token')).toBeUndefined();
  });
});

describe('jwtPayload', () => {
  it("reads a token's payload, non-ASCII text included", () => {
    expect(jwtPayload(jwt({ sub: 'user|ada', exp: 1, name: 'Zoë ✓' }))).toEqual({ sub: 'user|ada', exp: 1, name: 'Zoë ✓' });
  });

  it('is undefined for what is not a JWT with an object payload', () => {
    for (const token of ['', 'abc', 'a.b', 'a.b.c.d', `x.${base64url('[1]')}.y`, `x.${base64url('null')}.y`, `x.${base64url('"s"')}.y`, 'x.!!!.y', `x.${base64url('{"a":')}.y`]) {
      expect(jwtPayload(token), token).toBeUndefined();
    }
  });

  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string(), fc.string(), fc.string(), (a, b, c) => {
      const payload = jwtPayload(`${a}.${b}.${c}`);
      expect(payload === undefined || (typeof payload === 'object' && !Array.isArray(payload))).toBe(true);
    }));
  });
});

describe('storedUser', () => {
  it('reads a remembered user and drops any other field', () => {
    expect(storedUser(JSON.stringify({ ...ada, role: 'admin' }))).toEqual(ada);
  });

  it('is undefined for nothing, broken JSON, or a field missing or of the wrong type', () => {
    for (const text of [null, '', '{', 'null', '[]', '"ada"', JSON.stringify({ ...ada, sub: '' }), JSON.stringify({ ...ada, email_verified: 'true' }), JSON.stringify({ name: 'Ada', email: 'a@b', email_verified: true })]) {
      expect(storedUser(text), String(text)).toBeUndefined();
    }
  });
});

describe('resumableSession', () => {
  it("resumes with a good token issued to the remembered user, its end in ms", () => {
    const token = jwt({ sub: 'user|ada', exp: inAnHour, iat: inAnHour - 7200 });
    expect(resumableSession(token, ada, now)).toEqual({ token, expiresAt: inAnHour * 1000, user: ada });
  });

  it("does not resume with another user's token, without a token or a user, or with a token near or past its end", () => {
    expect(resumableSession(jwt({ sub: 'user|bob', exp: inAnHour }), ada, now)).toBeUndefined();
    expect(resumableSession(jwt({ exp: inAnHour }), ada, now)).toBeUndefined();
    expect(resumableSession(undefined, ada, now)).toBeUndefined();
    expect(resumableSession(jwt({ sub: 'user|ada', exp: inAnHour }), undefined, now)).toBeUndefined();
    expect(resumableSession(jwt({ sub: 'user|ada', exp: String(inAnHour) }), ada, now)).toBeUndefined();
    expect(resumableSession(jwt({ sub: 'user|ada', exp: now / 1000 - 1 }), ada, now)).toBeUndefined();
    // a minute's margin: the SDK refreshes a token that close to its end
    expect(resumableSession(jwt({ sub: 'user|ada', exp: (now + RESUME_MARGIN_MS) / 1000 }), ada, now)).toBeUndefined();
    expect(resumableSession(jwt({ sub: 'user|ada', exp: (now + RESUME_MARGIN_MS + 1000) / 1000 }), ada, now)).toBeDefined();
  });

  it('resumes only when the sub matches and the end is more than a minute away', () => {
    fc.assert(fc.property(fc.string(), fc.integer({ min: -10_000, max: 10_000 }), (sub, secondsLeft) => {
      const session = resumableSession(jwt({ sub, exp: now / 1000 + secondsLeft }), ada, now);
      expect(session !== undefined).toBe(sub === ada.sub && secondsLeft * 1000 > RESUME_MARGIN_MS);
    }));
  });
});
