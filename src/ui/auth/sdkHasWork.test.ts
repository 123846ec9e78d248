import { describe, expect, it } from 'vitest';
import { sdkHasWork } from './AuthBridge';

// The identity SDK is loaded only when it has work to do (issue 21); a visitor it is wrongly left
// out for would be shown the login view while signed in, so every mark of a session must count.
describe('sdkHasWork', () => {
  const at = (path: string) => {
    const url = new URL(path, 'https://app.example.com');
    return { pathname: url.pathname, search: url.search };
  };
  const none = () => [];

  it('is false for a fresh visitor: no cookie, no cache, no redirect back', () => {
    expect(sdkHasWork(at('/'), '', none)).toBe(false);
    expect(sdkHasWork(at('/l/w1/feed?tab=1'), 'session_token=; other=1', () => ['installHintDismissed'])).toBe(false);
  });

  it("is true with the SDK's is.authenticated cookie, per client or legacy", () => {
    expect(sdkHasWork(at('/'), 'a=1; auth0.client-123.is.authenticated=true', none)).toBe(true);
    expect(sdkHasWork(at('/'), 'auth0.is.authenticated=true', none)).toBe(true);
    expect(sdkHasWork(at('/'), 'x=y; _legacy_auth0.client-123.is.authenticated=true', none)).toBe(true);
  });

  it("is true with any of the SDK's cache entries, and when storage cannot be read", () => {
    expect(sdkHasWork(at('/'), '', () => ['@@auth0spajs@@::client-123::https://api::openid profile'])).toBe(true);
    expect(sdkHasWork(at('/'), '', () => {
      throw new Error('SecurityError');
    })).toBe(true);
  });

  it("is true on the provider's redirect back, but not on the data-source popup's /oauth return", () => {
    expect(sdkHasWork(at('/?code=abc&state=xyz'), '', none)).toBe(true);
    expect(sdkHasWork(at('/?error=access_denied&state=xyz'), '', none)).toBe(true);
    expect(sdkHasWork(at('/?code=abc'), '', none)).toBe(false);
    expect(sdkHasWork(at('/oauth?code=abc&state=xyz'), '', none)).toBe(false);
  });
});
