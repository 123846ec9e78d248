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

describe('approved domains, checked by hand', () => {
  it('drops every leading @, and keeps a name of up to 253 characters', () => {
    expect(normaliseDomain('@@Acme.com')).toBe('acme.com');
    const label = 'a'.repeat(63);
    // three labels of 63, one of 58 and 'io', with their dots: 253 characters
    const of253 = `${label}.${label}.${label}.${'b'.repeat(58)}.io`;
    expect(of253).toHaveLength(253);
    expect(normaliseDomain(of253)).toBe(of253);
    expect(normaliseDomain(`${label}.${label}.${label}.${'b'.repeat(59)}.io`)).toBeUndefined();
  });

  it("reads an address's domain without the spaces around it", () => {
    expect(emailDomain(' Ann@Acme.COM  ')).toBe('acme.com');
    expect(isEmailInDomains('ann@acme.com ', ['acme.com'])).toBe(true);
  });

  it('a workspace whose listed domains are none it can read admits anyone, as one with none', () => {
    expect(isEmailInDomains('ann@anywhere.org', ['localhost', 'not a domain'])).toBe(true);
    expect(isEmailInDomains('ann@anywhere.org', ['localhost', 'acme.com'])).toBe(false);
  });
});
