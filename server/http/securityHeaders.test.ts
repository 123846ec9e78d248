import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from '../../src/domain/hostile.fixture';
import { loadConfig } from '../config';
import { cameOverTls, cspDirectives, cspOrigin } from './securityHeaders';

// A CSP source expression that can neither end its directive nor the policy.
const SAFE_SOURCE = /^[^\s;,]+$/;

describe('cspOrigin', () => {
  it('is the origin of an http(s) URL', () => {
    expect(cspOrigin('https://errors.example.com/report?x=1')).toBe('https://errors.example.com');
    expect(cspOrigin('http://localhost:8080/api')).toBe('http://localhost:8080');
    expect(cspOrigin('https://[::1]:8443/')).toBe('https://[::1]:8443');
    expect(cspOrigin(' https://Tenant.EU.auth0.com ')).toBe('https://tenant.eu.auth0.com');
  });

  it('refuses what is not an http(s) origin or would break the policy', () => {
    for (const bad of [undefined, '', 'not a url', 'javascript:alert(1)', 'data:text/html,x', 'ftp://x.example', "https://a;script-src 'unsafe-inline'", 'https://a,b', 'https://*.example.com', "https://x.example'"]) {
      expect(cspOrigin(bad)).toBeUndefined();
    }
  });

  it('never throws, and anything it returns is one safe source expression', () => {
    fc.assert(
      fc.property(fc.oneof(hostileStringWithHuge, hostileStringWithHuge.map((s) => `https://${s}`)), (text) => {
        const origin = cspOrigin(text);
        if (origin !== undefined) expect(origin).toMatch(SAFE_SOURCE);
      }),
    );
  });
});

describe('cspDirectives', () => {
  const embedded = cspDirectives(loadConfig({ PUBLIC_URL: 'http://localhost:8080' }));

  it('allows scripts from this origin only: no inline script, no eval', () => {
    expect(embedded['script-src']).toEqual(["'self'"]);
    expect(embedded['object-src']).toEqual(["'none'"]);
    expect(embedded['frame-ancestors']).toEqual(["'none'"]);
    expect(embedded['base-uri']).toEqual(["'self'"]);
    expect(embedded['form-action']).toEqual(["'self'"]);
    expect(embedded['frame-src']).toEqual(["'none'"]);
  });

  it('lets the SPA reach the API at PUBLIC_URL, the pickers and the error reporter', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://app.example.com', ERROR_REPORTING_URL: 'https://sentry.example.net/api/1/store/' });
    const connect = cspDirectives(config)['connect-src'];
    expect(connect).toEqual(expect.arrayContaining(["'self'", 'https://app.example.com', 'https://sentry.example.net', 'https://www.googleapis.com', 'https://googleads.googleapis.com']));
    expect(new Set(connect).size).toBe(connect?.length);
  });

  it('in Auth0 mode allows AUTH_DOMAIN for its token calls and silent-auth frame', () => {
    const directives = cspDirectives(loadConfig({ AUTH_DOMAIN: 'tenant.eu.auth0.com', AUTH_CLIENT_ID: 'spa' }));
    expect(directives['connect-src']).toContain('https://tenant.eu.auth0.com');
    expect(directives['frame-src']).toEqual(['https://tenant.eu.auth0.com']);
  });

  it('drops a configured URL that would inject a directive instead of passing it on', () => {
    const directives = cspDirectives(loadConfig({ ERROR_REPORTING_URL: "https://x;script-src 'unsafe-inline'" }));
    for (const values of Object.values(directives)) for (const value of values) expect(value).toMatch(SAFE_SOURCE);
    expect(directives['script-src']).toEqual(["'self'"]);
  });
});

describe('cameOverTls', () => {
  it('believes a TLS socket, and X-Forwarded-Proto only from a trusted proxy', () => {
    expect(cameOverTls({ encrypted: true, forwardedProto: undefined }, 0)).toBe(true);
    expect(cameOverTls({ encrypted: false, forwardedProto: 'https' }, 0)).toBe(false);
    expect(cameOverTls({ encrypted: false, forwardedProto: 'https' }, 1)).toBe(true);
    expect(cameOverTls({ encrypted: false, forwardedProto: 'HTTPS' }, 1)).toBe(true);
    expect(cameOverTls({ encrypted: false, forwardedProto: 'http' }, 1)).toBe(false);
    expect(cameOverTls({ encrypted: false, forwardedProto: undefined }, 1)).toBe(false);
  });

  it('reads the entry the outermost trusted proxy wrote, not one the client prepended', () => {
    // the client wrote 'https', our one proxy appended the scheme it really saw
    expect(cameOverTls({ encrypted: false, forwardedProto: 'https, http' }, 1)).toBe(false);
    expect(cameOverTls({ encrypted: false, forwardedProto: ['https', 'http'] }, 1)).toBe(false);
    expect(cameOverTls({ encrypted: false, forwardedProto: 'http, https, http' }, 2)).toBe(true);
    expect(cameOverTls({ encrypted: false, forwardedProto: 'https' }, 2)).toBe(true);
  });

  it('whatever a client writes, without a trusted proxy a plain socket is plain', () => {
    fc.assert(
      fc.property(fc.oneof(hostileStringWithHuge, fc.array(hostileStringWithHuge, { maxLength: 4 })), (forwardedProto) => {
        expect(cameOverTls({ encrypted: false, forwardedProto }, 0)).toBe(false);
      }),
    );
  });

  it('with n trusted proxies, what the client prepends never changes the answer', () => {
    const scheme = fc.constantFrom('http', 'https', 'HTTPS', ' https ', 'wss');
    fc.assert(
      fc.property(fc.array(scheme, { maxLength: 4 }), fc.array(scheme, { minLength: 1, maxLength: 3 }), (forged, written) => {
        const trusted = written.length;
        const honest = cameOverTls({ encrypted: false, forwardedProto: written.join(',') }, trusted);
        expect(cameOverTls({ encrypted: false, forwardedProto: [...forged, ...written].join(',') }, trusted)).toBe(honest);
      }),
    );
  });
});
