import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../security/secrets';
import { rewriteBasicAuthorization, rewriteTokenForm } from './api-key-clients';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('rewriteTokenForm', () => {
  it('replaces the presented client secret by its hash and maps audience to resource for client credentials', () => {
    const rewritten = new URLSearchParams(rewriteTokenForm('grant_type=client_credentials&client_id=abc&client_secret=s3cr%2Bt&audience=http%3A%2F%2Fx%2Fapi'));
    expect(rewritten.get('client_secret')).toBe(hashSecret('s3cr+t'));
    expect(rewritten.get('client_id')).toBe('abc');
    expect(rewritten.get('resource')).toBe('http://x/api');
    expect(rewritten.has('audience')).toBe(false);
  });

  it('leaves the SPA’s public-client requests alone', () => {
    expect(rewriteTokenForm('grant_type=authorization_code&client_id=workspace-spa&code=x&code_verifier=y&redirect_uri=http%3A%2F%2Fa%2F')).toBeUndefined();
    expect(rewriteTokenForm('grant_type=refresh_token&client_id=workspace-spa&refresh_token=r')).toBeUndefined();
  });

  it('keeps an explicit resource and leaves duplicated secrets for the provider to refuse', () => {
    const form = new URLSearchParams(rewriteTokenForm('grant_type=client_credentials&audience=a&resource=http%3A%2F%2Fr&client_secret=x'));
    expect(form.get('resource')).toBe('http://r');
    expect(form.get('audience')).toBe('a');
    expect(rewriteTokenForm('client_secret=a&client_secret=b')).toBeUndefined();
  });

  it('never throws on hostile bodies', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (body) => {
        const result = rewriteTokenForm(body);
        if (result !== undefined) expect(typeof result).toBe('string');
      }),
    );
  });
});

describe('rewriteBasicAuthorization', () => {
  it('hashes the secret half and keeps the client id', () => {
    const rewritten = rewriteBasicAuthorization(basic('client 1', 'se:c r+et'))!;
    const decoded = Buffer.from(rewritten.slice('Basic '.length), 'base64').toString('utf8');
    expect(decoded).toBe(`${encodeURIComponent('client 1')}:${hashSecret('se:c r+et')}`);
  });

  it('replaces any secret by its hash', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (id, secret) => {
        const rewritten = rewriteBasicAuthorization(basic(id, secret));
        const decoded = Buffer.from(rewritten!.slice(6), 'base64').toString('utf8');
        expect(decoded.slice(decoded.lastIndexOf(':') + 1)).toBe(hashSecret(secret));
      }),
    );
  });

  it('leaves other or malformed headers to the provider', () => {
    for (const header of ['Bearer abc', 'Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, `Basic ${Buffer.from('id:').toString('base64')}`, `Basic ${Buffer.from('id:%E0%A4%A').toString('base64')}`]) {
      expect(rewriteBasicAuthorization(header), header).toBeUndefined();
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (header) => {
        const result = rewriteBasicAuthorization(header);
        if (result !== undefined) expect(result.startsWith('Basic ')).toBe(true);
      }),
    );
  });
});
