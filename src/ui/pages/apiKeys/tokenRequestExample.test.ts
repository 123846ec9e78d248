import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenRequestExample } from './tokenRequestExample';

const key = { audience: 'https://api.example.com/api', clientId: 'cid', clientSecret: 's3cret' };

describe('tokenRequestExample', () => {
  it('posts the client-credentials grant to the provider\'s token endpoint', () => {
    expect(tokenRequestExample({ ...key, domain: 'http://localhost:8080/idp/' })).toBe(
      [
        'curl -X POST http://localhost:8080/idp/oauth/token \\',
        '  -d grant_type=client_credentials \\',
        '  -d client_id=cid \\',
        '  -d client_secret=s3cret \\',
        '  -d audience=https://api.example.com/api',
      ].join('\n'),
    );
  });

  it('reaches a domain configured without a scheme over https, as the sign-in SDK does', () => {
    expect(tokenRequestExample({ ...key, domain: 'tenant.eu.auth0.com' }).split('\n')[0]).toBe('curl -X POST https://tenant.eu.auth0.com/oauth/token \\');
    expect(tokenRequestExample({ ...key, domain: 'HTTPS://Tenant.auth0.com' }).split('\n')[0]).toBe('curl -X POST HTTPS://Tenant.auth0.com/oauth/token \\');
  });

  it('always gives five lines naming the id, secret and audience it was given', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (domain, audience, clientId, clientSecret) => {
        const lines = tokenRequestExample({ domain, audience, clientId, clientSecret }).split('\n');
        // Inputs with line breaks of their own add lines; the command's own structure stays.
        expect(lines[0]?.startsWith('curl -X POST http')).toBe(true);
        const text = lines.join('\n');
        expect(text).toContain(`-d client_id=${clientId} \\`);
        expect(text).toContain(`-d client_secret=${clientSecret} \\`);
        expect(text.endsWith(`-d audience=${audience}`)).toBe(true);
      }),
    );
  });
});
