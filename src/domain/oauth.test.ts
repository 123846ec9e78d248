import { createHash, webcrypto } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import {
  authorizationRequestUrl,
  credentialHealth,
  expiryOf,
  isAuthorizationRequired,
  OAUTH_EXPIRY_WARNING_MS,
  OAUTH_PROVIDERS,
  OAUTH_TEXTS,
  PKCE_ALPHABET,
  pkceChallenge,
  pkceVerifier,
  pickerOf,
  providerOf,
  readPopupReturn,
} from './oauth';

const randomBytes = (n: number) => webcrypto.getRandomValues(new Uint8Array(n));

describe('providerOf', () => {
  it('chooses the provider from the authorization url (spec §7)', () => {
    expect(providerOf('https://accounts.google.com/o/oauth2/auth')).toBe('oauth2-google');
    expect(providerOf('https://login.microsoftonline.com/common/oauth2/v2.0/authorize')).toBe('oauth2-microsoft');
    expect(providerOf('https://www.facebook.com/v18.0/dialog/oauth')).toBe('oauth2-facebook');
    expect(providerOf('https://www.linkedin.com/oauth/v2/authorization')).toBe('oauth2-linkedin');
  });

  it('refuses look-alike hosts, plain http and other schemes', () => {
    expect(providerOf('https://accounts.google.com.evil.example/o/oauth2/auth')).toBeUndefined();
    expect(providerOf('https://evilfacebook.com/dialog')).toBeUndefined();
    expect(providerOf('http://accounts.google.com/o/oauth2/auth')).toBeUndefined();
    expect(providerOf('javascript:alert(1)//accounts.google.com')).toBeUndefined();
    expect(providerOf('not a url')).toBeUndefined();
  });

  it('knows a deployment\'s configured authorization urls by origin and path prefix', () => {
    const configured = { 'oauth2-google': ['http://127.0.0.1:9999/authorize'] };
    expect(providerOf('http://127.0.0.1:9999/authorize?x=1', configured)).toBe('oauth2-google');
    expect(providerOf('http://127.0.0.1:9998/authorize', configured)).toBeUndefined();
    expect(providerOf('http://127.0.0.1:9999/other', configured)).toBeUndefined();
  });

  it('never throws and answers a known provider or nothing, whatever the text', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        const provider = providerOf(text, { 'oauth2-linkedin': [text] });
        expect(provider === undefined || OAUTH_PROVIDERS.includes(provider)).toBe(true);
      }),
    );
  });

  it('formats the unsupported message with the setting\'s url', () => {
    expect(OAUTH_TEXTS.unsupported('https://x.example/a')).toBe('Authorization url not supported: https://x.example/a');
  });
});

describe('PKCE', () => {
  it('makes a 96-character alphanumeric verifier from any random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), (seed) => {
        let call = 0;
        // a source that sometimes hands out only bytes the sampler must redraw
        const source = (n: number) => (call++ % 2 === 0 ? new Uint8Array(n).fill(255) : Uint8Array.from({ length: n }, (_, i) => seed[i % seed.length]! % 248));
        const verifier = pkceVerifier(source);
        expect(verifier).toHaveLength(96);
        expect([...verifier].every((ch) => PKCE_ALPHABET.includes(ch))).toBe(true);
      }),
    );
    expect(pkceVerifier(randomBytes)).not.toBe(pkceVerifier(randomBytes));
  });

  it('derives the S256 challenge as RFC 7636 does', async () => {
    // RFC 7636 appendix B
    await expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', webcrypto.subtle as SubtleCrypto)).resolves.toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const verifier = pkceVerifier(randomBytes);
    const expected = createHash('sha256').update(verifier).digest('base64url');
    await expect(pkceChallenge(verifier, webcrypto.subtle as SubtleCrypto)).resolves.toBe(expected);
  });

  it('refuses with the spec\'s text where crypto.subtle is missing', async () => {
    await expect(pkceChallenge('x', undefined)).rejects.toThrow("The context/environment is not secure, and does not support the 'crypto.subtle' module");
  });
});

describe('authorizationRequestUrl', () => {
  it('adds the code-flow parameters, replacing any the url already had', () => {
    const url = new URL(
      authorizationRequestUrl({
        authorizationUrl: 'https://accounts.google.com/o/oauth2/auth?client_id=old&hd=example.com',
        clientId: 'cid',
        redirectUri: 'http://localhost:8080/oauth',
        scope: 'a b',
        state: 's1',
        codeChallenge: 'ch',
      }),
    );
    expect(url.searchParams.get('client_id')).toBe('cid');
    expect(url.searchParams.getAll('client_id')).toHaveLength(1);
    expect(url.searchParams.get('hd')).toBe('example.com');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('a b');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:8080/oauth');
  });
});

describe('readPopupReturn', () => {
  it('reads the code and state, or the provider\'s error', () => {
    expect(readPopupReturn('?code=abc&state=s')).toEqual({ code: 'abc', state: 's' });
    expect(readPopupReturn('?error=access_denied')).toEqual({ error: 'access_denied' });
    expect(readPopupReturn('?error=x&error_description=Denied')).toEqual({ error: 'Denied' });
    expect(readPopupReturn('')).toBeUndefined();
    expect(readPopupReturn('?code=')).toBeUndefined();
  });

  it('never throws on hostile query text', () => {
    fc.assert(fc.property(hostileString, (text) => void readPopupReturn(text)));
  });
});

describe('authorization and credential health', () => {
  it('requires authorization when both an authorization url and a scope are set (spec §4)', () => {
    expect(isAuthorizationRequired('https://accounts.google.com/o/oauth2/auth', 'drive')).toBe(true);
    expect(isAuthorizationRequired('https://accounts.google.com/o/oauth2/auth', ' ')).toBe(false);
    expect(isAuthorizationRequired(undefined, 'drive')).toBe(false);
    expect(isAuthorizationRequired(42, 'drive')).toBe(false);
  });

  it('tells none, valid, expiring and expired apart', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(credentialHealth({ connected: false, expiresAt: '2027-01-01T00:00:00Z' }, now)).toBe('none');
    expect(credentialHealth({ connected: true }, now)).toBe('valid');
    expect(credentialHealth({ connected: true, expiresAt: 'garbage' }, now)).toBe('valid');
    expect(credentialHealth({ connected: true, expiresAt: new Date(now + OAUTH_EXPIRY_WARNING_MS + 1).toISOString() }, now)).toBe('valid');
    expect(credentialHealth({ connected: true, expiresAt: new Date(now + 60_000).toISOString() }, now)).toBe('expiring');
    expect(credentialHealth({ connected: true, expiresAt: new Date(now).toISOString() }, now)).toBe('expired');
  });

  it('reads expires_in as seconds, refusing nonsense', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(expiryOf(3600, now)).toBe('2026-01-01T01:00:00.000Z');
    expect(expiryOf('3600', now)).toBe('2026-01-01T01:00:00.000Z');
    for (const bad of [0, -1, 1.5, '1e9', 'x', null, undefined, {}, Number.MAX_SAFE_INTEGER]) expect(expiryOf(bad, now)).toBeUndefined();
    fc.assert(fc.property(fc.anything(), (value) => {
      const expiry = expiryOf(value, now);
      expect(expiry === undefined || Date.parse(expiry) > now).toBe(true);
    }));
  });
});

describe('pickerOf', () => {
  it('fills spreadsheet, profile and customer settings from their lists, and nothing else', () => {
    expect(pickerOf('spreadsheet_id')).toBe('drive');
    expect(pickerOf('view_id')).toBe('analytics');
    expect(pickerOf('customer_ids')).toBe('ads');
    expect(pickerOf('start_date')).toBeUndefined();
    expect(pickerOf('__proto__')).toBeUndefined();
  });
});
