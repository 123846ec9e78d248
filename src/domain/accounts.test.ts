import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { externalPasswordPage } from './accounts';

describe('externalPasswordPage', () => {
  it('sends Google and Microsoft sign-ins to their provider', () => {
    expect(externalPasswordPage('google-oauth2|123')).toContain('google.com');
    expect(externalPasswordPage('windowslive|abc')).toContain('live.com');
    expect(externalPasswordPage('waad|abc')).toContain('microsoft.com');
  });
  it('keeps our own accounts here', () => {
    expect(externalPasswordPage('auth0|123')).toBeUndefined();
    expect(externalPasswordPage(undefined)).toBeUndefined();
    expect(externalPasswordPage('')).toBeUndefined();
  });
  it('only ever answers https pages', () => {
    fc.assert(fc.property(fc.string(), (id) => {
      const page = externalPasswordPage(id);
      if (page !== undefined) expect(page.startsWith('https://')).toBe(true);
    }));
  });
});
