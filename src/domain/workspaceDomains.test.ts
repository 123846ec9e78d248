import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HUGE_TEXTS, hostileString } from './hostile.fixture';
import { emailDomain, isEmailInDomains, normaliseDomain } from './workspaceDomains';

describe('normaliseDomain', () => {
  it('stores a typed domain without @, trimmed and lower-case', () => {
    expect(normaliseDomain('@Company.co.uk ')).toBe('company.co.uk');
    expect(normaliseDomain('example.com')).toBe('example.com');
  });

  it('refuses what is no host name', () => {
    for (const text of ['', '@', 'localhost', 'a..b', '-a.com', 'a-.com', 'exa mple.com', 'ex@mple.com', `${'a'.repeat(64)}.com`]) {
      expect(normaliseDomain(text), text).toBeUndefined();
    }
  });

  it('never throws and returns only host names on hostile input', () => {
    for (const text of HUGE_TEXTS) expect(normaliseDomain(text)).toBeUndefined();
    fc.assert(
      fc.property(fc.oneof(hostileString, fc.domain()), (text) => {
        const domain = normaliseDomain(text);
        if (domain !== undefined) {
          expect(domain).toBe(domain.toLowerCase());
          expect(domain.startsWith('@')).toBe(false);
          expect(normaliseDomain(domain)).toBe(domain);
        }
      }),
    );
  });
});

describe('isEmailInDomains', () => {
  it('admits anyone when the workspace lists no domains', () => {
    expect(isEmailInDomains('a@anywhere.org', [])).toBe(true);
  });

  it('admits only addresses of the listed domains, whatever the case or @', () => {
    expect(isEmailInDomains('Ann@Company.co.uk', ['@company.co.uk'])).toBe(true);
    expect(isEmailInDomains('ann@evil.com', ['company.co.uk'])).toBe(false);
    expect(isEmailInDomains('ann@sub.company.co.uk', ['company.co.uk'])).toBe(false);
  });

  it('reads the domain after the last @', () => {
    expect(emailDomain('"a@b"@c.com')).toBe('c.com');
    fc.assert(fc.property(fc.emailAddress(), (email) => {
        expect(isEmailInDomains(email, [emailDomain(email)])).toBe(true);
      }));
  });
});
