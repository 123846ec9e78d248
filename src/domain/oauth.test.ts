import { createHash, webcrypto } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import {
  authorizationRequestUrl,
  credentialHealth,
  base64Url,
  expiryOf,
  isAuthorizationRequired,
  isOAuthProvider,
  OAUTH_EXPIRY_WARNING_MS,
  OAUTH_PROVIDERS,
  OAUTH_TEXTS,
  oauthKey,
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
    // a prefix ends at a path segment: /authorize-evil is not under /authorize
    expect(providerOf('http://127.0.0.1:9999/authorize-evil', configured)).toBeUndefined();
    expect(providerOf('http://127.0.0.1:9999/authorize/', configured)).toBe('oauth2-google');
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

describe('oauth, checked by hand', () => {
  it('knows the four providers by their exact names only', () => {
    for (const provider of ['oauth2-google', 'oauth2-microsoft', 'oauth2-facebook', 'oauth2-linkedin']) expect(isOAuthProvider(provider)).toBe(true);
    for (const other of ['oauth2-github', 'OAUTH2-GOOGLE', 'google', '', 1, null, undefined, ['oauth2-google']]) expect(isOAuthProvider(other)).toBe(false);
  });

  it('reads the url trimmed, any subdomain of a known host, and every known host of a provider', () => {
    expect(providerOf('  https://accounts.google.com/o/oauth2/auth \n')).toBe('oauth2-google');
    expect(providerOf('https://login.live.com/oauth20_authorize.srf')).toBe('oauth2-microsoft');
    expect(providerOf('https://m.facebook.com/dialog/oauth')).toBe('oauth2-facebook');
    expect(providerOf('https://facebook.com/dialog/oauth')).toBe('oauth2-facebook');
    expect(providerOf('https://linkedin.com.evil.example/oauth')).toBeUndefined();
    expect(providerOf('https://notlinkedin.com/oauth')).toBeUndefined();
    expect(providerOf('ftp://accounts.google.com/o/oauth2/auth')).toBeUndefined();
    // String.trim, not only the URL parser's own trimming: a no-break space around the url
    expect(providerOf('\u00a0https://accounts.google.com/o/oauth2/auth\u00a0')).toBe('oauth2-google');
  });

  it('matches a configured url by origin and path, over https too, and ignores one that is no http(s) url', () => {
    expect(providerOf('https://sso.example/ms/authorize?x=1', { 'oauth2-microsoft': ['https://sso.example/ms/'] })).toBe('oauth2-microsoft');
    expect(providerOf('https://sso.example/other/authorize', { 'oauth2-microsoft': ['https://sso.example/ms/'] })).toBeUndefined();
    expect(providerOf('http://sso.example/ms/authorize', { 'oauth2-microsoft': ['not a url', 'ftp://sso.example/ms/'] })).toBeUndefined();
    expect(providerOf('http://sso.example/ms/authorize', { 'oauth2-microsoft': ['not a url', 'http://sso.example/ms/'] })).toBe('oauth2-microsoft');
    // only http(s) urls, even where one is configured
    expect(providerOf('ftp://sso.example/ms/authorize', { 'oauth2-microsoft': ['ftp://sso.example/ms/'] })).toBeUndefined();
    expect(providerOf('data:text/plain,ms', { 'oauth2-microsoft': ['data:text/plain,'] })).toBeUndefined();
    // the configured urls come before the well-known hosts
    expect(providerOf('https://accounts.google.com/o/oauth2/auth', { 'oauth2-linkedin': ['https://accounts.google.com/o/'] })).toBe('oauth2-linkedin');
  });

  it('draws the verifier from bytes below 248 only, each byte modulo 62', () => {
    // 0 → A, 61 → 9, 62 → A, 247 → 9; 248 and 255 are redrawn
    const source = (n: number) => Uint8Array.from({ length: n }, (_, i) => [0, 61, 62, 247, 248, 255][i % 6]!);
    expect(pkceVerifier(source)).toBe('A9A9'.repeat(24));
    const letters = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 62);
    expect(pkceVerifier(letters)).toBe(`${PKCE_ALPHABET}${PKCE_ALPHABET.slice(0, 34)}`);
  });

  it('writes base64url without padding', () => {
    expect(base64Url(Uint8Array.of(0xfb, 0xff, 0xbf))).toBe('-_-_');
    expect(base64Url(Uint8Array.of(0xfb, 0xff, 0xbf, 0xfb, 0xff, 0xbf))).toBe('-_-_-_-_');
    expect(base64Url(Uint8Array.of(0xfb, 0xff))).toBe('-_8');
    expect(base64Url(Uint8Array.of(0xfb))).toBe('-w');
    expect(base64Url(new Uint8Array(0))).toBe('');
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      expect(base64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }));
  });

  it('writes every code-flow parameter of the authorization request', () => {
    const url = new URL(
      authorizationRequestUrl({
        authorizationUrl: 'https://accounts.google.com/o/oauth2/auth?prompt=none&hd=example.com',
        clientId: 'cid',
        redirectUri: 'http://localhost:8080/oauth',
        scope: 'a b',
        state: 's1',
        codeChallenge: 'ch',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      hd: 'example.com',
      response_type: 'code',
      client_id: 'cid',
      redirect_uri: 'http://localhost:8080/oauth',
      scope: 'a b',
      state: 's1',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    });
    expect([...url.searchParams.keys()]).toHaveLength(10);
  });

  it('reads an empty error, and a code without a state', () => {
    expect(readPopupReturn('?error=')).toEqual({ error: '' });
    expect(readPopupReturn('?code=abc')).toEqual({ code: 'abc', state: null });
    expect(readPopupReturn('?state=s')).toBeUndefined();
  });

  it('names the parts of an OAUTH setting after it', () => {
    expect(oauthKey('google', 'access_token')).toBe('google.access_token');
    expect(oauthKey('oauth', 'expires_at')).toBe('oauth.expires_at');
  });

  it('needs a url and a scope that are not blank', () => {
    expect(isAuthorizationRequired(' ', 'drive')).toBe(false);
    expect(isAuthorizationRequired('https://x.example/auth', undefined)).toBe(false);
    expect(isAuthorizationRequired(' https://x.example/auth ', ' drive ')).toBe(true);
  });

  it('tells health at the edges: expiring up to and at the warning, expired at and past now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const at = (ms: number) => credentialHealth({ connected: true, expiresAt: new Date(ms).toISOString() }, now);
    expect(at(now + OAUTH_EXPIRY_WARNING_MS)).toBe('expiring');
    expect(at(now + 1)).toBe('expiring');
    expect(at(now - 1)).toBe('expired');
    expect(OAUTH_EXPIRY_WARNING_MS).toBe(600_000);
    expect(credentialHealth({ connected: true, expiresAt: '' }, now)).toBe('valid');
    expect(credentialHealth({ connected: true, expiresAt: null }, now)).toBe('valid');
    expect(credentialHealth({ connected: false }, now)).toBe('none');
  });

  it('reads expires_in up to ten years, as a number or nine digits of text', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const tenYears = 10 * 365 * 24 * 3600;
    expect(expiryOf(1, now)).toBe('2026-01-01T00:00:01.000Z');
    expect(expiryOf(tenYears, now)).toBe(new Date(now + tenYears * 1000).toISOString());
    expect(expiryOf(tenYears + 1, now)).toBeUndefined();
    expect(expiryOf('1', now)).toBe('2026-01-01T00:00:01.000Z');
    expect(expiryOf('099999999', now)).toBe(new Date(now + 99_999_999_000).toISOString());
    for (const bad of ['1000000000', ' 60', '60 ', '6 0', '', '-60', '60s', '0', true, [60], ['60']]) expect(expiryOf(bad, now)).toBeUndefined();
  });

  it('fills view, profile and every customer setting', () => {
    expect(pickerOf('profile_id')).toBe('analytics');
    expect(pickerOf('customer_id')).toBe('ads');
    expect(pickerOf('login_customer_id')).toBe('ads');
    expect(pickerOf('Spreadsheet_id')).toBeUndefined();
  });
});
